#!/bin/sh
# The build-tree oshcc builds a real OpenSHMEM program against libushmem,
# and oshrun runs it.
# Usage: check_oshcc_shmem.sh BUILD_OSHCC SOURCE.c
. "$(dirname "$0")/lib.sh"
oshcc=$1 src=$2

"$oshcc" -o "$scratch/hello" "$src" || fail "oshcc could not build $src"
run -n 2 "$scratch/hello" hello
expect_status 0
expect_lines "$out" 2
expect_grep "$out" "^hello from PE 0 of 2$"
expect_grep "$out" "^hello from PE 1 of 2$"
expect_clean
echo "PASS [$test_name]"
