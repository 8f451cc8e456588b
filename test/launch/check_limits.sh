#!/bin/sh
# A symmetric heap this node cannot back fails at shmem_init - not later
# with SIGBUS or the OOM killer when touched - with a message naming
# SHMEM_SYMMETRIC_SIZE, the size, what there is and what to change, and
# leaves nothing behind; sizes that fit still run.
# Usage: check_limits.sh SHMEM_BEHAVE
#
# Part 1 (memory): 1T, and just over half of memory+swap with 2 PEs on the
# node (the same size with 1 PE runs: the bound is per node).
# Part 2 (/dev/shm): as root, in private mount and IPC namespaces, a 64 MiB
# /dev/shm and kernel.shmmax = 32 MiB, so UCX must put heaps above 32 MiB
# in /dev/shm, where it writes every byte of them. Each heap is mapped as
# SHMEM_SYMMETRIC_SIZE plus the library's own 8 MiB plus the alignment
# slack (2 MiB up to 32M, 4 MiB up to 64M): 2 x 100M and 2 x 24M (2 x 34
# MiB) fail naming /dev/shm; 2 x 22M (the most the message allows: 32 MiB,
# System V) and 2 x 16M run. (A heap UCX puts in /dev/shm runs too, but
# UCX reports its failed System V attempt on stdout.) Skipped, and said
# so, without root or unshare.
. "$(dirname "$0")/lib.sh"
prog=$1

# UCX names its /dev/shm files ucx_shm_posix_<hex>, without our pids, and
# other jobs on the machine create (and, when killed, leave) their own: so
# in part 1 this job's UCX puts its files in a directory of ours
# (UCX_POSIX_DIR), and in part 2 /dev/shm is private to the namespace.
# Either must be empty after each run.
expect_no_ucx_shm() {
    _left=$(ls -A "$ucx_dir")
    [ -z "$_left" ] || fail "left in $ucx_dir: $_left"
}

# refused SIZE NPES RE: the job fails at init, cleanly, with message RE.
refused() {
    SHMEM_SYMMETRIC_SIZE=$1 run -n "$2" "$prog" hello
    expect_status 1
    expect_no_grep "$out" "hello from"
    expect_grep "$err" "shmem_init: SHMEM_SYMMETRIC_SIZE=[0-9]+ bytes for each of the $2 PEs"
    expect_grep "$err" "$3"
    expect_grep "$err" "lower SHMEM_SYMMETRIC_SIZE to at most [0-9]+"
    expect_clean
    expect_no_ucx_shm
}

accepted() {
    SHMEM_SYMMETRIC_SIZE=$1 run -n "$2" "$prog" hello
    expect_status 0
    expect_lines "$out" "$2"
    expect_clean
    expect_no_ucx_shm
}

if [ "${LIMITS_IN_NAMESPACE:-}" = 1 ]; then
    # part 2, re-run by part 1 inside the namespaces
    mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm || fail "cannot mount a small /dev/shm"
    sysctl -qw kernel.shmmax=33554432 || fail "cannot set kernel.shmmax in the IPC namespace"
    unset UCX_POSIX_DIR
    ucx_dir=/dev/shm
    refused 100M 2 "plus the library's own 8388608 and 4194304 of alignment, needs 234881024 bytes in /dev/shm .*which has [0-9]+ free"
    expect_grep "$err" "at most 20971520, free or enlarge /dev/shm"
    refused 24M 2 "needs 71303168 bytes in /dev/shm"
    expect_grep "$err" "at most 23068672, free or enlarge /dev/shm"
    accepted 22M 2
    accepted 16M 2
    echo "PASS [$test_name] /dev/shm part"
    exit 0
fi

# part 1
export SHMEM_SYMMETRIC_SIZE
ucx_dir=$scratch/ucx-posix
mkdir "$ucx_dir" || fail "cannot create $ucx_dir"
export UCX_POSIX_DIR=$ucx_dir
refused 1T 2 "more than its memory and swap \([0-9]+ bytes\)"
expect_faster 20000   # a hang or a slow death would be the bug; not a speed bound
mem_kb=$(awk '/^MemTotal:|^SwapTotal:/ { s += $2 } END { print s }' /proc/meminfo)
half=$(( mem_kb / 2 + 1024 * 1024 ))k
refused "$half" 2 "more than its memory and swap"
accepted "$half" 1

# part 2
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v sysctl >/dev/null &&
   unshare -m -i true 2>/dev/null; then
    LIMITS_IN_NAMESPACE=1 unshare -m -i sh "$0" "$@" || exit 1
else
    echo "SKIP [$test_name] /dev/shm part: needs root and unshare -m -i"
fi
echo "PASS [$test_name]"
