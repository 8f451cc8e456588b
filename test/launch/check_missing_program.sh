#!/bin/sh
# Programs that cannot run, and bad command lines: one clear line on
# stderr, non-zero status, nothing started, nothing left.
# Usage: check_missing_program.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

one_line() {
    expect_lines "$err" 1
    [ -s "$out" ] && fail "unexpected stdout"
    expect_clean
}

run -n 2 ./no/such/program
expect_status 127
expect_grep "$err" "^oshrun: \./no/such/program: No such file or directory$"
one_line

run -n 2 no-such-program-in-path-ushmem
expect_status 127
expect_grep "$err" "^oshrun: no-such-program-in-path-ushmem: command not found$"
one_line

noexec=$scratch/not-executable
echo "not a program" >"$noexec"
chmod 644 "$noexec"
run -n 2 "$noexec"
expect_status 126
expect_grep "$err" "^oshrun: .*not-executable: Permission denied$"
one_line

run -n 2 "$scratch"
expect_status 126
expect_grep "$err" "Is a directory$"
one_line

for bad in 0 -1 abc 3x 99999999999; do
    run -n "$bad" "$pe" exit 0
    expect_status 2
    expect_grep "$err" "^oshrun: bad number of PEs"
    one_line
done

run -n
expect_status 2
one_line

run --no-such-option "$pe" exit 0
expect_status 2
expect_grep "$err" "^oshrun: unknown option '--no-such-option'"
one_line

run -n 2
expect_status 2
expect_grep "$err" "^oshrun: no program given"
one_line

run --bind-to l3cache "$pe" exit 0
expect_status 2
one_line

run --timeout -3 "$pe" exit 0
expect_status 2
one_line
echo "PASS [$test_name]"
