# Soak: RMA, atomics, locks, signals, split teams with their
# contexts and collectives mixed in every iteration, checked exactly; PE 0
# prints the job's operation totals. Included by test/pe/CMakeLists.txt.
# The iteration count is the argument. Measured on a 2-core machine at a
# load average of 8-10: 1000 iterations took 21.5 s at 8 PEs, 300 with
# SHMEM_SHARE_STATIC=0 took 2.7 s at 4 PEs; the TIMEOUTs leave room for
# several times that.
ush_add_pe_test(NAME soak SOURCES soak.c NPES 2 4 8 ARGS 1000 TIMEOUT 180 LABELS soak)
# Static data through UCX (emulated atomics, progress thread).
ush_add_pe_test(NAME soak_ucx TARGET pe_soak NPES 4 ENV SHMEM_SHARE_STATIC=0 ARGS 300
                TIMEOUT 120 LABELS soak)
