#!/bin/sh
# Failed start-ups leave nothing in /dev/shm or among the System V
# segments: UCX creates each of its shared-memory files under a random
# name and unlinks it a few milliseconds later, so a PE killed in between
# (the job failing while the others are still in shmem_init) left it in
# /dev/shm for good. oshrun now gives the PEs a private UCX_POSIX_DIR and
# removes it with the job.
#
#   check_startup_clean.sh SHMEM_BEHAVE THREAD_INIT
#
# 1. PE 0 dies of SIGABRT 0-40 ms after it starts, before shmem_init,
#    while the others go through shmem_init (UCX is creating its files);
# 2. SHMEM_SYMMETRIC_SIZE too small to use (0, 1, 1k) or unparsable;
# 3. threads racing to shmem_init (test/pe/thread_init) succeed.
# After each job: no process, no oshrun directory, no UCX /dev/shm file
# created while it ran, no System V segment of its PEs.
. "$(dirname "$0")/lib.sh"

prog=$1 thread_init=$2

# Nothing of the last job is left: lib.sh's checks, then UCX's files
# (the ucx_shm_posix_* of a PE killed before it unlinked them) and the
# PEs' segments.
expect_nothing_left() {
    expect_clean
    expect_no_ucx_left "$1"
}

# 1. (PEs write their pid files after shmem_init, so few do here; oshrun
# itself reaps every PE before it exits.)
for us in 0 5000 10000 15000 20000 25000 30000 40000; do
    for try in 1 2; do
        run -n 4 "$prog" die-in-init 0 "$us"
        [ "$status" -ne 0 ] || fail "PE 0 died at $us us, yet the job exited 0"
        expect_no_grep "$err" "returned from a wait that cannot end"
        expect_nothing_left "PE 0 dead at $us us"
    done
done
echo "  a PE dead during the others' shmem_init: 16 jobs, nothing left"

# 2.
for size in 0 1 1k 12q; do
    SHMEM_SYMMETRIC_SIZE=$size run -n 4 "$prog" hello
    echo "  SHMEM_SYMMETRIC_SIZE=$size: status $status"
    [ "$status" -ne 0 ] || [ "$(grep -c '^hello from PE' "$out")" -eq 4 ] ||
        fail "SHMEM_SYMMETRIC_SIZE=$size: status 0 but not every PE said hello"
    expect_nothing_left "SHMEM_SYMMETRIC_SIZE=$size"
done

# 3.
for try in 1 2 3; do
    run -n 2 "$thread_init"
    expect_status 0
    expect_nothing_left "threads racing to shmem_init"
done
echo "  threads racing to shmem_init: 3 jobs, status 0, nothing left"
