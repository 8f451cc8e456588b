#!/bin/sh
# SIGHUP ends a PE at once: UCX catches it for its debug mode
# (UCX_DEBUG_SIGNO), and PEs used to go on running through a hang-up.
# A PE sent SIGHUP dies of it and the job ends with 129; so does the whole
# job when the PEs' process group gets it (a terminal's hang-up); and
# UCX_DEBUG_SIGNO set by the user keeps UCX's handler.
# Usage: check_sighup.sh SHMEM_BEHAVE
. "$(dirname "$0")/lib.sh"
prog=$1
export SHMEM_SYMMETRIC_SIZE=16M

# one PE
run_bg -n 2 "$prog" sleep
wait_pidfiles ready 2
t0=$(now_ms)
kill -HUP "$(cat "$piddir/pe.1.pid")"
wait_run
expect_status 129
expect_faster 3000
expect_grep "$err" "^oshrun: PE 1 \(pid [0-9]+\) died of signal 1 "
expect_no_grep "$err" "slept 60 s"
expect_clean

# every PE at once, not oshrun: nothing but the signal can end them
run_bg -n 2 "$prog" sleep
wait_pidfiles ready 2
t0=$(now_ms)
kill -HUP "$(cat "$piddir/pe.0.pid")" "$(cat "$piddir/pe.1.pid")"
wait_run
expect_status 129
expect_faster 3000
expect_no_grep "$err" "slept 60 s"
expect_clean

# the user's choice stands: with UCX_DEBUG_SIGNO=SIGHUP the PE survives it
# (then SIGTERM ends the job)
UCX_DEBUG_SIGNO=SIGHUP run_bg -n 1 "$prog" sleep
wait_pidfiles ready 1
kill -HUP "$(cat "$piddir/pe.0.pid")"
sleep 0.5
alive "$(cat "$piddir/pe.0.pid")" || fail "UCX_DEBUG_SIGNO=SIGHUP: the PE died of SIGHUP"
t0=$(now_ms)
kill -TERM "$oshrun_pid"
wait_run
expect_status 143
expect_clean
echo "PASS [$test_name]"
