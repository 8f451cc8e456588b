# Signaling tests (test/pe/signal_*.c), included from test/pe/CMakeLists.txt
# after UshPeTest.cmake: put-with-signal, signal_fetch/wait_until and the 1.6
# signal_add/set, at 1, 2, 4 and 8 PEs, and again with static data reached
# through UCX (SHMEM_SHARE_STATIC=0) so that payload and signal take
# different routes when one is static and the other on the heap.
#
#   ctest --test-dir build -R '^pe\.signal_'
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/UshPeTest.cmake)

set(USH_SIGNAL_WARNINGS -Wall -Wextra -pedantic -Werror)

foreach(prog signal_pipeline signal_ops)
    ush_add_pe_test(NAME ${prog} SOURCES ${prog}.c TIMEOUT 120
                    COMPILE_OPTIONS ${USH_SIGNAL_WARNINGS})
endforeach()
# The pipeline's argument is its number of small-payload rounds (60 by
# default): through UCX each costs milliseconds when PEs outnumber cores.
ush_add_pe_test(NAME signal_pipeline_ucx TARGET pe_signal_pipeline NPES 2 4 TIMEOUT 120
                ARGS 12 ENV SHMEM_SHARE_STATIC=0)
ush_add_pe_test(NAME signal_ops_ucx TARGET pe_signal_ops NPES 2 4 TIMEOUT 120
                ENV SHMEM_SHARE_STATIC=0)

# An invalid sig_op ends the job with a message that names the routine and
# the argument (not a hang, not a silent SET).
if(TARGET oshrun AND NOT USH_PE_LAUNCHER)
    add_test(NAME pe.signal_bad_sig_op.np1
             COMMAND $<TARGET_FILE:oshrun> -n 1 $<TARGET_FILE:pe_signal_ops> bad-sig-op)
    set_tests_properties(pe.signal_bad_sig_op.np1 PROPERTIES
        TIMEOUT 30 LABELS pe PROCESSORS 1
        PASS_REGULAR_EXPRESSION "shmem_putmem_signal: sig_op = 7 is not a signal operation"
        FAIL_REGULAR_EXPRESSION "accepted sig_op")
endif()
