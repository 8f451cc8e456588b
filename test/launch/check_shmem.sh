#!/bin/sh
# The launcher with real OpenSHMEM programs (libushmem).
# Usage: check_shmem.sh SHMEM_BEHAVE CASE
#   CASE: hello | global-exit-barrier | global-exit-spin | crash | exit-status
. "$(dirname "$0")/lib.sh"
prog=$1 case=$2
n=4

case $case in
hello)
    run -n $n "$prog" hello
    expect_status 0
    expect_lines "$out" $n
    r=0
    while [ $r -lt $n ]; do
        expect_grep "$out" "^hello from PE $r of $n\$"
        r=$((r + 1))
    done
    expect_clean
    run -n $n --tag-output "$prog" hello
    expect_status 0
    r=0
    while [ $r -lt $n ]; do
        expect_grep "$out" "^\[PE $r\] hello from PE $r of $n\$"
        r=$((r + 1))
    done
    expect_clean ;;
global-exit-barrier|global-exit-spin)
    run -n $n "$prog" global-exit $((n - 1)) 7 "${case#global-exit-}"
    expect_status 7
    expect_faster 3000
    expect_no_grep "$err" "returned from a wait"
    expect_clean ;;
crash)
    run -n $n "$prog" crash 1
    expect_status 139
    expect_faster 3000
    expect_grep "$err" "^oshrun: PE 1 \(pid [0-9]+\) died of signal 11 "
    expect_clean ;;
exit-status)
    run -n $n "$prog" exit-after-finalize 2 3
    expect_status 3
    expect_clean
    run -n $n "$prog" exit-after-finalize 2 0
    expect_status 0
    expect_clean ;;
*)
    fail "unknown case $case" ;;
esac
echo "PASS [$test_name] $case"
