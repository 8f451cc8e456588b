#!/bin/sh
# shmem_finalize is clean: a 2-PE run of a small program (init, puts, gets,
# atomics, barriers, a context, a heap block, finalize) under valgrind's
# memcheck reports no error and no definitely or indirectly lost block.
# UCX's and PMIx's own noise is suppressed by valgrind.supp (theirs only;
# nothing of libushmem is ever suppressed there). Skips without valgrind.
# Usage: check_valgrind.sh PROGRAM SUPPRESSIONS
. "$(dirname "$0")/lib.sh"
prog=$1 supp=$2

command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind not installed"; exit 77; }
vglog=$scratch/vg
mkdir -p "$vglog"

# UCX_HANDLE_ERRORS=none: UCX's own SIGSEGV handler and backtrace thread
# stay out of valgrind's way; UCX_MEM_EVENTS=no: no malloc hooks to trace.
run -n 2 -x UCX_HANDLE_ERRORS=none -x UCX_MEM_EVENTS=no \
    valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --error-exitcode=99 \
    --suppressions="$supp" --num-callers=30 --log-file="$vglog/pe.%p" "$prog"
for f in "$vglog"/pe.*; do
    echo "--- $(basename "$f"): $(grep -E 'ERROR SUMMARY|definitely lost|indirectly lost' "$f" | tr -s ' ' | tr '\n' ';')"
done
if [ "$status" -ne 0 ]; then
    for f in "$vglog"/pe.*; do sed -n '/^==[0-9]*== [^ ]/,$p' "$f" | head -n 150 >&2; done
    fail "valgrind or the program failed (status $status; 99 = valgrind found errors)"
fi
[ "$(ls "$vglog" | wc -l)" -ge 2 ] || fail "expected a valgrind log per PE"
expect_lines "$out" 2
expect_grep "$out" "^PE 0: all checks passed$"
expect_grep "$out" "^PE 1: all checks passed$"
for f in "$vglog"/pe.*; do
    grep -q "ERROR SUMMARY: 0 errors" "$f" || fail "$(basename "$f"): valgrind reported errors"
    if grep -Eq "(definitely|indirectly) lost: [1-9]" "$f"; then
        fail "$(basename "$f"): memory lost: $(grep -E 'lost:' "$f" | tr '\n' ' ')"
    fi
done
expect_clean
echo "PASS [$test_name]"
