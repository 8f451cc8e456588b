#!/bin/bash
# The last PE is alone on its node and exits without shmem_finalize while
# the others wait in a barrier:
#
#   alone.sh mpirun-netns|srun-netns NP PROGRAM
#
# PROGRAM is test/launch's shmem_behave. NP-1 PEs run on the first node,
# the last PE alone on the second. First a plain job in that layout must
# pass; then "fault exit-early RANK 3 barrier": the others must not leave
# their barrier (it cannot complete without the last PE, whatever the
# launcher's fence does: Slurm 22.05's returns at once for a node's only
# task), and the job must end within the issue's second of the exit, with
# status 3, the line naming the PE, and nothing left in the nodes.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3
rank=$((np - 1))
bound=${USH_FAULT_BOUND_MS:-1000}
cl_netns_launch "$launch" "$np" alone

# the nodes share this file system (not /tmp): fault.time crosses over
work=$(mktemp -d -p "$USH_CLUSTER_STATE") || exit 1
trap 'rm -rf "$work"' EXIT

# mpirun's agent starts remote PEs with a clean environment; mpirun waits
# odls_base_sigkill_timeout (1 s) after its SIGTERM even when every PE is
# already gone, 0 ends the job at once (docs/launching.md)
[ "$launch" = mpirun-netns ] &&
    cl_cmd+=(-x LAUNCH_TEST_PIDDIR --mca odls_base_sigkill_timeout 0)
export LAUNCH_TEST_PIDDIR=$work

run() {   # run COMMAND...: status in $status, output in $work/out
    local attempt
    for attempt in 1 2 3; do
        rm -f "$work"/*
        cl_say "run: ${cl_cmd[*]} $*"
        timeout -k 5 60 "${cl_cmd[@]}" "$@" >"$work/out" 2>&1 </dev/null
        status=$?
        cl_slurm_launch_failed "$work/out" || break
        cl_say "Slurm failed to start the step (no PE ran): launching again"
    done
    sed 's/^/  | /' "$work/out" | head -n 30
}

# the layout itself, from the launcher's own rank variable
run sh -c 'echo "rank ${SLURM_PROCID:-$OMPI_COMM_WORLD_RANK} on $(hostname)"'
last=$(sed -n "s/^rank $rank on //p" "$work/out")
[ -n "$last" ] && [ "$(grep -c "^rank .* on $last\$" "$work/out")" -eq 1 ] &&
    [ "$(grep -c '^rank ' "$work/out")" -eq "$np" ] ||
    cl_die "PE $rank is not alone on its node"

run "$prog" hello
[ "$status" -eq 0 ] || cl_die "a plain job in this layout exited $status"
[ "$(grep -c '^hello from PE' "$work/out")" -eq "$np" ] ||
    cl_die "a plain job in this layout: not every PE said hello"

run "$prog" fault exit-early "$rank" 3 barrier
end=$("$prog" clock)
[ -s "$work/fault.time" ] || cl_die "PE $rank wrote no fault.time"
ms=$(((end - $(cat "$work/fault.time")) / 1000000))
cl_say "exit status $status, ended $ms ms after PE $rank's exit"
! grep -q "returned from a wait that cannot end" "$work/out" ||
    cl_die "PEs left a barrier that PE $rank never entered"
[ "$status" -eq 3 ] || cl_die "exit status $status, expected 3 (PE $rank's)"
grep -Eq "PE $rank exited \(status 3\) without calling shmem_finalize" "$work/out" ||
    cl_die "no line naming PE $rank's exit without shmem_finalize"
[ "$ms" -le "$bound" ] || cl_die "the job ended $ms ms after PE $rank's exit (bound $bound ms)"
cl_nodes_clean "$cl_allowed"
