#!/bin/sh
# Every variable of the environment table with malformed values: the job
# must stop at shmem_init with a non-zero status and a message naming the
# variable, the value and the form expected, run no user code, and leave
# nothing behind. Also SMA_SYMMETRIC_SIZE, and the warning for a misspelt
# variable.
# Usage: check_bad_env.sh OSHINFO SHMEM_BEHAVE SOURCE_DIR
#
# The variables come from `oshinfo --env` (the library's own table), cross-
# checked against core/ush_env.h, so a new variable is covered without
# editing this script. Bad values by type: sizes get an unknown suffix, a
# sign, an overflow, a fraction and nothing; booleans a non-word and
# nothing; ints garbage and an overflow; strings (words from a list) an
# unknown word and nothing; paths (any file name is one) nothing.
. "$(dirname "$0")/lib.sh"
oshinfo=$1 prog=$2 srcdir=$3

"$oshinfo" --env >"$scratch/env.txt" 2>"$scratch/env.err" ||
    fail "oshinfo --env failed: $(cat "$scratch/env.err")"
sed -n 's/^[ *] SHMEM_\([A-Z0-9_]*\) = .*, \(bool\|int\|size\|string\|path\))$/\1 \2/p' \
    "$scratch/env.txt" >"$scratch/vars"
sed -n 's/^ *X([a-z0-9_]*, *\([A-Z0-9_]*\),.*/\1/p' "$srcdir/core/ush_env.h" | sort >"$scratch/hdr"
cut -d' ' -f1 "$scratch/vars" | sort >"$scratch/names"
cmp -s "$scratch/hdr" "$scratch/names" ||
    fail "oshinfo --env lists [$(tr '\n' ' ' <"$scratch/names")], core/ush_env.h [$(tr '\n' ' ' <"$scratch/hdr")]"
nvars=$(wc -l <"$scratch/names")
[ "$nvars" -ge 10 ] || fail "only $nvars variables found in oshinfo --env"

# This job's UCX files go to a directory of ours, so a leftover is seen
# (other jobs on the machine use /dev/shm too).
ucx_dir=$scratch/ucx-posix
mkdir "$ucx_dir" || fail "cannot create $ucx_dir"
export UCX_POSIX_DIR=$ucx_dir

# Values are written one per line to a file (they hold spaces); "<empty>"
# stands for VAR= .
values_for() {
    case $1 in
    size)   printf '%s\n' 12Q -1 99999999999999999999999 1.5G 16T7 '<empty>' ;;
    bool)   printf '%s\n' maybe 2 '<empty>' ;;
    int)    printf '%s\n' abc 99999999999999999999999 '<empty>' ;;
    string) printf '%s\n' bogus-word '<empty>' ;;
    path)   printf '%s\n' '<empty>' ;;
    *)      fail "unknown type $1" ;;
    esac
}

# try VAR VALUE: the job must fail at init and say why.
try() {
    _var=$1 _val=$2
    export "$_var=$_val"
    run -n 2 "$prog" hello
    unset "$_var"
    [ "$status" != 0 ] || fail "$_var='$_val' accepted (exit status 0)"
    [ "$status" -lt 128 ] || fail "$_var='$_val': died of a signal (status $status)"
    grep -q "hello from" "$out" && fail "$_var='$_val': the program ran past shmem_init"
    grep -Fq "$_var" "$err" || fail "$_var='$_val': the message does not name $_var"
    if [ -n "$_val" ]; then
        grep -Fq -- "$_val" "$err" || fail "$_var='$_val': the message does not quote the value"
    fi
    grep -Eq "expected|valid values" "$err" ||
        fail "$_var='$_val': the message does not say what is expected"
    expect_clean
    [ -z "$(ls -A "$ucx_dir")" ] || fail "$_var='$_val': UCX files left: $(ls -A "$ucx_dir")"
    tried=$((tried + 1))
}

tried=0
while read -r name type; do
    values_for "$type" >"$scratch/values"
    while IFS= read -r v; do
        [ "$v" = '<empty>' ] && v=
        try "SHMEM_$name" "$v"
    done <"$scratch/values"
done <"$scratch/vars"

# The older spelling of the heap size, read when SHMEM_SYMMETRIC_SIZE is unset.
try SMA_SYMMETRIC_SIZE 3X

# A misspelt variable of ours: one warning (from PE 0) naming the right one;
# the job runs. Another library's SHMEM_* variable: no word.
# Short names and swapped letters too (SHMEM_DEUBG).
export SHMEM_SYMETRIC_SIZE=1M SHMEM_DEUBG=1 SHMEM_OFI_PROVIDER=verbs
run -n 2 "$prog" hello
unset SHMEM_SYMETRIC_SIZE SHMEM_DEUBG SHMEM_OFI_PROVIDER
expect_status 0
expect_grep "$err" "SHMEM_SYMETRIC_SIZE is not a variable ushmem reads .*did you mean SHMEM_SYMMETRIC_SIZE\?"
expect_grep "$err" "SHMEM_DEUBG is not a variable ushmem reads .*did you mean SHMEM_DEBUG\?"
[ "$(grep -c 'did you mean' "$err")" -eq 2 ] || fail "each typo warning is not printed exactly once"
expect_no_grep "$err" "OFI_PROVIDER"
expect_clean

echo "PASS [$test_name] $tried malformed values of $nvars variables (+ SMA_SYMMETRIC_SIZE), typo warning"
