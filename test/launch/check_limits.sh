#!/bin/sh
# A symmetric heap this node cannot back fails at shmem_init - not later
# with SIGBUS or the OOM killer when touched - with a message naming
# SHMEM_SYMMETRIC_SIZE, the size, what there is and what to change, and
# leaves nothing behind; sizes that fit still run.
# Usage: check_limits.sh SHMEM_BEHAVE
#
# Part 1 (memory): 1T, and just over half of memory+swap with 2 PEs on the
# node (the same size with 1 PE runs: the bound is per node).
# Part 2 (no System V ids, little /dev/shm): as root, in private mount and
# IPC namespaces with kernel.shmmni = 4 and a 64 MiB /dev/shm, 8 PEs with
# 100M heaps (800 MiB: the heaps are memfds, outside both) and 4 contexts
# each on 2 workers of their own run, print nothing but their lines and
# leave no System V segment. With a /dev/shm too small for one UCX
# worker's receive FIFO the job stops at init, naming /dev/shm, what it
# has free and how to enlarge it. Skipped, and said so, without root or
# unshare.
# Part 3 (memory cgroup): as root, in a child memory cgroup of 1 GiB (what
# Slurm's --mem=1G gives; cgroup v1 or v2): 2 x 600M fail at start-up
# naming the cgroup's limit, 2 x 200M run, and a PE that writes 1.5 GiB of
# malloc() memory is reported as killed by the OOM killer. Skipped, and
# said so, where no memory cgroup can be made.
# Everywhere: a PE killed by kill -9 is reported as SIGKILL with the OOM
# killer named as its likely cause.
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
    # every PE fails alike: the message once, and how many PEs said it
    [ "$(grep -c 'shmem_init: SHMEM_SYMMETRIC_SIZE' "$err")" -eq 1 ] ||
        fail "the start-up failure shown $(grep -c 'shmem_init: SHMEM_SYMMETRIC_SIZE' "$err") times, not once"
    _said=$(sed -n "s/^oshrun: \([0-9]*\) PEs printed PE [0-9]*'s line above.*/\1/p" "$err")
    [ -z "$_said" ] || { [ "$_said" -ge 2 ] && [ "$_said" -le "$2" ]; } ||
        fail "oshrun says $_said PEs printed the line, of $2"
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

if [ -n "${LIMITS_IN_CGROUP:-}" ]; then
    # part 3, re-run by part 1 inside the cgroup
    ucx_dir=$scratch/ucx-posix
    mkdir "$ucx_dir" || fail "cannot create $ucx_dir"
    export UCX_POSIX_DIR=$ucx_dir
    refused 600M 2 "more than the job's memory cgroup allows \(1073741824 bytes of memory and swap, set by $LIMITS_IN_CGROUP/memory\.(limit_in_bytes|max)\)"
    expect_grep "$err" "at most 535822336, run fewer PEs per node or ask the batch system for more memory \(Slurm: --mem\)"
    accepted 200M 2
    SHMEM_SYMMETRIC_SIZE=16M run -n 2 "$prog" hog 1 1536
    expect_status 137
    expect_grep "$err" "^oshrun: PE 1 \(pid [0-9]+\) was killed by the kernel's out-of-memory killer: the job's memory cgroup allows 1073741824 bytes \($LIMITS_IN_CGROUP/memory\.(limit_in_bytes|max)\)"
    expect_no_grep "$err" "wrote 1536 MiB and lives|died of signal"
    expect_clean
    expect_no_ucx_shm
    echo "PASS [$test_name] memory cgroup part"
    exit 0
fi

if [ "${LIMITS_IN_NAMESPACE:-}" = 1 ]; then
    # part 2, re-run by part 1 inside the namespaces
    mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm || fail "cannot mount a small /dev/shm"
    sysctl -qw kernel.shmmni=4 || fail "cannot set kernel.shmmni in the IPC namespace"
    unset UCX_POSIX_DIR
    ucx_dir=/dev/shm
    SHMEM_SYMMETRIC_SIZE=100M SHMEM_CTX_WORKERS=2 run -n 8 "$prog" contexts 4
    expect_status 0
    expect_lines "$out" 8
    expect_grep "$out" "^PE 7: 4 contexts ok$"
    [ ! -s "$err" ] || fail "the job printed on stderr"
    [ -z "$(ipcs -m | awk '$2 ~ /^[0-9]+$/')" ] || fail "System V segments left: $(ipcs -m)"
    expect_clean
    expect_no_ucx_shm

    umount /dev/shm && mount -t tmpfs -o size=512k,mode=1777 tmpfs /dev/shm ||
        fail "cannot mount a tiny /dev/shm"
    SHMEM_SYMMETRIC_SIZE=100M run -n 2 "$prog" hello
    expect_status 1
    expect_no_grep "$out" "hello from"
    expect_grep "$err" "shmem_init: UCX initialisation failed: ucp_worker_create: .*; /dev/shm[/a-zA-Z0-9.]* has [0-9]+ bytes free and a worker needs about [0-9]+ there: free it or enlarge it \(mount -o remount,size=\.\.\., docker run --shm-size\)"
    expect_clean
    echo "PASS [$test_name] System V and /dev/shm part"
    exit 0
fi

# part 1
export SHMEM_SYMMETRIC_SIZE
ucx_dir=$scratch/ucx-posix
mkdir "$ucx_dir" || fail "cannot create $ucx_dir"
export UCX_POSIX_DIR=$ucx_dir
refused 1T 2 "more than its memory and swap \([0-9]+ bytes\)"
refused 1T 8 "more than its memory and swap \([0-9]+ bytes\)"
expect_faster 20000   # a hang or a slow death would be the bug; not a speed bound
mem_kb=$(awk '/^MemTotal:|^SwapTotal:/ { s += $2 } END { print s }' /proc/meminfo)
half=$(( mem_kb / 2 + 1024 * 1024 ))k
refused "$half" 2 "more than its memory and swap"
accepted "$half" 1

# kill -9 from outside: nothing says it was the OOM killer, which is the
# usual sender, so the line names it as the likely cause
SHMEM_SYMMETRIC_SIZE=16M run_bg -n 2 "$prog" sleep
wait_pidfiles ready 2
kill -9 "$(cat "$piddir/pe.1.pid")"
wait_run
expect_status 137
expect_grep "$err" "^oshrun: PE 1 \(pid [0-9]+\) was killed by signal 9 \(SIGKILL; the kernel's out-of-memory killer does this when memory runs out\)"
expect_clean
expect_no_ucx_shm

# part 3: a child memory cgroup of 1 GiB (v1, or v2 with the memory
# controller delegated to children)
cg=
if [ "$(id -u)" = 0 ]; then
    for base in /sys/fs/cgroup/memory /sys/fs/cgroup; do
        [ -w "$base/cgroup.procs" ] || continue
        [ "$base" = /sys/fs/cgroup ] && ! grep -qw memory "$base/cgroup.subtree_control" 2>/dev/null && continue
        mkdir "$base/ush-limits-$$" 2>/dev/null || continue
        cg=$base/ush-limits-$$
        if [ -f "$cg/memory.limit_in_bytes" ]; then
            echo 1G >"$cg/memory.limit_in_bytes" &&
            { [ ! -f "$cg/memory.memsw.limit_in_bytes" ] || echo 1G >"$cg/memory.memsw.limit_in_bytes"; }
        else
            echo 1G >"$cg/memory.max" && { [ ! -f "$cg/memory.swap.max" ] || echo 0 >"$cg/memory.swap.max"; }
        fi || { rmdir "$cg"; cg=; continue; }
        break
    done
fi
if [ -n "$cg" ]; then
    LIMITS_IN_CGROUP=$cg sh -c 'echo $$ >"$LIMITS_IN_CGROUP/cgroup.procs" && exec sh "$0" "$@"' \
        "$0" "$@"
    rc=$?
    rmdir "$cg" 2>/dev/null || { sleep 1; rmdir "$cg"; } || fail "cannot remove $cg"
    [ "$rc" = 0 ] || exit 1
else
    echo "SKIP [$test_name] memory cgroup part: needs root and a writable memory cgroup"
fi

# part 2
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v sysctl >/dev/null &&
   unshare -m -i true 2>/dev/null; then
    LIMITS_IN_NAMESPACE=1 unshare -m -i sh "$0" "$@" || exit 1
else
    echo "SKIP [$test_name] System V and /dev/shm part: needs root and unshare -m -i"
fi
echo "PASS [$test_name]"
