#!/bin/sh
# oshrun's PMIx contract, checked by a raw PMIx client (no libushmem):
# job keys, per-PE keys, put/commit/fence(collect)/get of every peer, a
# second fence, finalize. Usage: check_pmix_contract.sh PMIX_CONTRACT NPES
. "$(dirname "$0")/lib.sh"
prog=$1 n=$2

run -n "$n" "$prog" "$n"
expect_status 0
expect_lines "$out" "$n"
r=0
while [ "$r" -lt "$n" ]; do
    expect_grep "$out" "^pmix_contract: PE $r of $n ok$"
    r=$((r + 1))
done
[ -s "$err" ] && fail "unexpected stderr"
expect_clean
echo "PASS [$test_name] $n PEs"
