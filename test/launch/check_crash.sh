#!/bin/sh
# A PE dies of a signal while the others sleep (and have started children
# of their own, and some ignore SIGTERM): oshrun reports it in one line,
# exits 128+signal within ~2 s, and leaves no process, file or segment.
# Usage: check_crash.sh PE_BEHAVE segv|abort
. "$(dirname "$0")/lib.sh"
pe=$1 how=$2
case $how in
    segv)  sig=11 ;;
    abort) sig=6 ;;
    *)     fail "bad crash kind $how" ;;
esac

export LAUNCH_TEST_FORK=1
run -n 4 "$pe" crash 1 "$how"
expect_status $((128 + sig))
expect_faster 2500
expect_grep "$err" "^oshrun: PE 1 \(pid [0-9]+\) died of signal $sig "
[ "$(grep -c '^oshrun:' "$err")" -eq 1 ] || fail "expected exactly one oshrun line on stderr"
expect_clean

# survivors that ignore SIGTERM still go, by SIGKILL after the grace
LAUNCH_TEST_IGNORE_TERM=1 run -n 3 "$pe" crash 0 "$how"
expect_status $((128 + sig))
expect_faster 2500
expect_clean
echo "PASS [$test_name] $how"
