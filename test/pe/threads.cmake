# Threaded tests: SHMEM_THREAD_MULTIPLE, 4 threads per PE (thread_util.h).
# test/sanitize/ builds these same programs with -fsanitize=thread and runs
# them under ThreadSanitizer (make check-tsan).
#
#   ctest --test-dir build -R '^pe\.thread_'
#
# The _ucx variants turn off the shared mapping of static data
# (SHMEM_SHARE_STATIC=0), so operations on static arrays go through UCX and
# its worker's thread mode instead of being loads and stores.

# One context per thread, for each kind of context (the argument).
ush_add_pe_test(NAME thread_ctx SOURCES thread_ctx.c LIBS Threads::Threads
                ARGS private TIMEOUT 120)
ush_add_pe_test(NAME thread_ctx_opt0 TARGET pe_thread_ctx ARGS 0 NPES 2 4 TIMEOUT 120)
ush_add_pe_test(NAME thread_ctx_serialized TARGET pe_thread_ctx ARGS serialized NPES 2 4
                TIMEOUT 120)

# Threads sharing SHMEM_CTX_DEFAULT.
ush_add_pe_test(NAME thread_default SOURCES thread_default.c LIBS Threads::Threads TIMEOUT 120)

# A thread blocked in wait_until while the others work.
ush_add_pe_test(NAME thread_wait SOURCES thread_wait.c LIBS Threads::Threads TIMEOUT 120)

# Active-set collectives from 4 threads per PE, each with its own pSync
# arrays: concurrent channel agreements, and contention for the borrowed one.
ush_add_pe_test(NAME thread_aset SOURCES thread_aset.c LIBS Threads::Threads NPES 1 2 3 4
                TIMEOUT 120)
# Threads racing to call shmem_init_thread and shmem_finalize.
ush_add_pe_test(NAME thread_init SOURCES thread_init.c LIBS Threads::Threads NPES 1 2 4
                TIMEOUT 120)
# Team contexts made and used by threads.
ush_add_pe_test(NAME thread_team SOURCES thread_team.c LIBS Threads::Threads TIMEOUT 120)

foreach(kind private 0 serialized)
    ush_add_pe_test(NAME thread_ctx_${kind}_ucx TARGET pe_thread_ctx ARGS ${kind} rounds=100 NPES 2
                    TIMEOUT 120 ENV SHMEM_SHARE_STATIC=0)
endforeach()
foreach(prog thread_default thread_wait thread_team)
    ush_add_pe_test(NAME ${prog}_ucx TARGET pe_${prog} NPES 2 TIMEOUT 120
                    ENV SHMEM_SHARE_STATIC=0)
endforeach()
# Every thread's context on one shared worker (SHMEM_CTX_WORKERS=1): one
# thread's private worker, the others' the thread-safe one they share.
foreach(kind private 0 serialized)
    ush_add_pe_test(NAME thread_ctx_${kind}_shared TARGET pe_thread_ctx ARGS ${kind} rounds=100
                    NPES 2 TIMEOUT 120 ENV SHMEM_SHARE_STATIC=0 SHMEM_CTX_WORKERS=1)
endforeach()
