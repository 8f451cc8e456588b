#!/bin/bash
# A PE on a remote node dies of SIGSEGV while the others wait in a barrier:
#
#   crash.sh mpirun-netns|srun-netns NP PROGRAM
#
# PROGRAM is test/launch's shmem_behave ("crash RANK"); the last PE, on the
# last node, crashes.  The job must end by itself with a non-zero status
# (60 s bound: a hang, not a speed limit), and afterwards no PE may be left
# in any node: under mpirun nothing at all (orted ends too), under Slurm
# only the slurmds that belong to the fixture.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3
rank=$((np - 1))
cl_netns_launch "$launch" "$np"
cmd=("${cl_cmd[@]}")
allowed=$cl_allowed

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
cl_say "run: ${cmd[*]} $prog crash $rank"
t0=$(date +%s%N)
timeout -k 5 60 "${cmd[@]}" "$prog" crash "$rank" >"$out" 2>&1
status=$?
elapsed=$((($(date +%s%N) - t0) / 1000000))
sed 's/^/  | /' "$out" | head -n 40
cl_say "exit status $status after $elapsed ms"

[ "$status" -ne 0 ] || cl_die "the job exited 0 although PE $rank crashed"
[ "$status" -ne 124 ] && [ "$status" -ne 137 ] ||
    cl_die "the job did not end within 60 s after PE $rank crashed (killed by timeout)"

cl_nodes_clean "$allowed"
