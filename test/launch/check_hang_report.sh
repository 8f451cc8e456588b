#!/bin/sh
# A job that hangs says where: at --timeout, on SIGURG, and from the
# library with SHMEM_HANG_REPORT, the report names the call most PEs wait
# in and the PE they come down to, then each group of PEs.
#
#   check_hang_report.sh SHMEM_BEHAVE
. "$(dirname "$0")/lib.sh"
prog=$1

# "stuck": PE 3 waits on a variable nobody sets; the others in the
# barrier it never joins. However the barrier's waits chain (PEs 1-2 may
# wait for PE 0, which waits for PE 3), the report ends at PE 3.
run -n 4 --timeout 3 "$prog" stuck
expect_status 124
expect_grep "$err" '^oshrun: hang report \(the job ran longer than --timeout 3 s\):$'
expect_grep "$err" '^oshrun: PEs 0-2 wait in shmem_barrier_all \(call 1\) for PE 3, which waits in shmem_long_wait_until \(before any collective call\)$'
expect_grep "$err" '^oshrun:   PE 3 waits in shmem_long_wait_until \(before any collective call\), for [0-9.]+ s$'
expect_clean
echo "  --timeout, a PE in another wait: named"

# PE 0 skips a barrier: its finalize meets the others' second, and it
# leaves (on one node nothing else holds it) while they wait in their
# third.
run -n 4 --timeout 3 "$prog" skip-barrier 0
expect_status 124
expect_grep "$err" '^oshrun: PEs 1-3 wait in shmem_barrier_all \(call 3\) for PE 0, which has exited \(last in shmem_finalize, call 2\)$'
expect_clean
echo "  --timeout, a PE that skipped a barrier: named, exited from shmem_finalize"

# PE 1 sleeps in the program: the others wait for it in the barrier.
run -n 4 --timeout 3 "$prog" fault hang 1 0 barrier
expect_status 124
expect_grep "$err" '^oshrun: PEs 0, 2-3 wait in shmem_barrier_all \(call 1\) for PE 1, which runs outside the library$'
expect_clean
echo "  --timeout, a PE outside the library: named"

# SIGURG: the report, and the job goes on until it is ended.
run_bg -n 4 "$prog" stuck
wait_pidfiles ready 4
sleep 1
kill -URG "$oshrun_pid"
sleep 1
alive "$oshrun_pid" || fail "oshrun ended on SIGURG"
kill -TERM "$oshrun_pid"
wait_run
expect_status 143
expect_grep "$err" '^oshrun: hang report \(asked for by SIGURG; the job goes on\):$'
expect_grep "$err" '^oshrun: PEs 0-2 wait in shmem_barrier_all \(call 1\) for PE 3, which waits in shmem_long_wait_until'
expect_clean
echo "  SIGURG: reported, the job went on"

# The library's own report, where no oshrun watches (srun, mpirun): the
# lowest PE that has waited SHMEM_HANG_REPORT seconds prints it, once.
SHMEM_HANG_REPORT=1 run -n 4 --timeout 4 "$prog" stuck
expect_status 124
expect_grep "$err" '^ushmem: hang report \(PE [0-3] has waited 1 s: SHMEM_HANG_REPORT=1; the job goes on\):$'
expect_grep "$err" '^ushmem: PEs 0-2 wait in shmem_barrier_all \(call 1\) for PE 3, which waits in shmem_long_wait_until \(before any collective call\)$'
[ "$(grep -c '^ushmem: hang report' "$err")" -le 2 ] || fail "more than two reports"
expect_clean
echo "  SHMEM_HANG_REPORT=1: reported from the library"

# A job that does not hang prints none.
SHMEM_HANG_REPORT=1 run -n 4 "$prog" hello
expect_status 0
expect_no_grep "$err" 'hang report'
echo "PASS [$test_name]"
