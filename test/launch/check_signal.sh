#!/bin/sh
# A signal to oshrun reaches every PE: SIGTERM (and SIGINT) end the job
# with 128+signal, quickly, with nothing left behind.
# Usage: check_signal.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

for sig in TERM INT; do
    case $sig in TERM) num=15 ;; INT) num=2 ;; esac
    LAUNCH_TEST_FORK=1 run_bg -n 3 "$pe" sleep
    wait_pidfiles ready 3
    t0=$(now_ms)
    kill -s "$sig" "$oshrun_pid"
    wait_run
    expect_status $((128 + num))
    expect_faster 2000
    expect_clean
done

# PEs that ignore SIGTERM are killed after the grace
LAUNCH_TEST_IGNORE_TERM=1 run_bg -n 2 "$pe" sleep
wait_pidfiles ready 2
t0=$(now_ms)
kill -s TERM "$oshrun_pid"
wait_run
expect_status 143
expect_faster 2000
expect_clean
echo "PASS [$test_name]"
