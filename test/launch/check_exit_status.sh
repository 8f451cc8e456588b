#!/bin/sh
# Exit status propagation: all 0 gives 0, all 3 gives 3, and one PE's 3
# ends the sleeping others at once and gives 3.
# Usage: check_exit_status.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

run -n 3 "$pe" exit 0
expect_status 0
[ -s "$err" ] && fail "unexpected stderr for a clean run"
expect_clean

run -n 3 "$pe" exit 3
expect_status 3
expect_clean

run -n 4 "$pe" exit-one 2 3
expect_status 3
expect_faster 3000
expect_grep "$err" "^oshrun: PE 2 exited with status 3"
expect_clean

# -n 1 is the degenerate job
run -n 1 "$pe" exit 5
expect_status 5
expect_clean
echo "PASS [$test_name]"
