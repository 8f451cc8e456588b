#!/bin/sh
# A symmetric allocation larger than the heap returns NULL, which programs
# may meet routinely (a churn test once printed 32,420 lines): each PE
# says why once, not once per call; SHMEM_DEBUG=1 reports every failure.
# Usage: check_malloc_fail.sh SHMEM_BEHAVE
. "$(dirname "$0")/lib.sh"
prog=$1
export SHMEM_SYMMETRIC_SIZE=4M
n=1000

SHMEM_DEBUG=0 run -n 2 "$prog" malloc-fail $n
expect_status 0
expect_grep "$out" "^PE 0: $((3 * n)) NULLs$"
expect_grep "$out" "^PE 1: $((3 * n)) NULLs$"
expect_lines "$err" 2
for pe in 0 1; do
    expect_grep "$err" "^ushmem: PE $pe: shmem_malloc: cannot allocate 1099511627776 bytes, returning NULL: the symmetric heap has 4194304 bytes \(SHMEM_SYMMETRIC_SIZE\), 0 in use, .*raise SHMEM_SYMMETRIC_SIZE \(to SHMEM_SYMMETRIC_SIZE=1280G or more for this request, if the node's memory allows\) \(said once; SHMEM_DEBUG=1 reports every failure\)$"
done
expect_clean

n=20
SHMEM_DEBUG=1 run -n 2 "$prog" malloc-fail $n
expect_status 0
expect_grep "$out" "^PE 1: $((3 * n)) NULLs$"
expect_lines "$err" $((2 * 3 * n))
expect_no_grep "$err" "said once"
[ "$(grep -c '^ushmem: PE 1: shmem_calloc: cannot allocate' "$err")" -eq $n ] ||
    fail "not one shmem_calloc line per failure under SHMEM_DEBUG=1"
expect_clean
# A size that is a negative number converted says so: no heap size helps.
run -n 2 "$prog" malloc-negative
expect_status 0
expect_grep "$out" "^PE 1: NULL$"
expect_lines "$err" 2
expect_grep "$err" "^ushmem: PE 0: shmem_malloc: cannot allocate 18446744073709551516 bytes, returning NULL: the size looks negative \(-100 as a signed number. a negative count or difference converted to size_t\?\) \(said once. SHMEM_DEBUG=1 reports every failure\)$"
expect_no_grep "$err" "SHMEM_SYMMETRIC_SIZE"
expect_clean
echo "PASS [$test_name]"
