#!/bin/bash
# Failed start-ups leave no slurmstepd behind:
#
#   startfail.sh NP PROGRAM RUNS
#
# RUNS jobs of NP PEs over the Slurm nodes (srun-netns) stop at
# shmem_init on a heap no node can back (SHMEM_SYMMETRIC_SIZE=1T). Each
# must exit non-zero with the line naming SHMEM_SYMMETRIC_SIZE, and within
# 5 s no slurmstepd of a step may be left. (Every PE aborting at once,
# some while their peers were still inside PMIx_Init, left slurmstepd
# deadlocked in PMIx_server_finalize in 5 of 20 such jobs, holding the
# node.) PROGRAM is test/launch's shmem_behave.
. "$(dirname "$0")/lib.sh"

np=$1 prog=$2 runs=$3
cl_netns_launch srun-netns "$np"

work=$(mktemp -d -p "$USH_CLUSTER_STATE") || exit 1
# a step daemon left hung would hold its node for the tests after this one
steps() { pgrep -f 'slurmstepd: \[' || true; }
trap 'left=$(steps); [ -z "$left" ] || kill -9 $left; rm -rf "$work"' EXIT

for ((r = 1; r <= runs; r++)); do
    for attempt in 1 2 3; do
        SHMEM_SYMMETRIC_SIZE=1T timeout -k 5 60 "${cl_cmd[@]}" "$prog" hello \
            >"$work/out" 2>&1 </dev/null
        status=$?
        cl_slurm_launch_failed "$work/out" || break
        cl_say "Slurm failed to start the step (no PE ran): launching again"
    done
    [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$status" -ne 137 ] ||
        cl_die "run $r: exit status $status, expected the failure's"
    grep -q 'shmem_init: SHMEM_SYMMETRIC_SIZE=1099511627776 bytes' "$work/out" ||
        { head -n 10 "$work/out" >&2; cl_die "run $r: no line naming SHMEM_SYMMETRIC_SIZE"; }
    for ((t = 0; t < 50; t++)); do
        [ -z "$(steps)" ] && break
        sleep 0.1
    done
    [ -z "$(steps)" ] || cl_die "run $r: slurmstepd left 5 s after the job ended:
$(pgrep -af 'slurmstepd: \[')"
    cl_say "run $r: failed as it should, no slurmstepd left"
done
cl_nodes_clean "$cl_allowed"
