# Distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock):
# exact counts under contention with locks in the heap and static data,
# test_lock's answers (the specification's example runs with the others in
# examples/). Included by test/pe/CMakeLists.txt.
ush_add_pe_test(NAME lock_count   SOURCES lock_count.c   TIMEOUT 60)
ush_add_pe_test(NAME lock_test    SOURCES lock_test.c    TIMEOUT 60)

# Static-data locks reached through UCX atomics instead of the shared
# mapping, so the transport path of every lock word is exercised on one node.
# Emulated atomics are slow with more PEs than cores: fewer rounds.
ush_add_pe_test(NAME lock_count_ucx TARGET pe_lock_count NPES 2 4 TIMEOUT 60
                ENV SHMEM_SHARE_STATIC=0 ARGS 60)
ush_add_pe_test(NAME lock_test_ucx  TARGET pe_lock_test  NPES 2 4 TIMEOUT 60
                ENV SHMEM_SHARE_STATIC=0)
