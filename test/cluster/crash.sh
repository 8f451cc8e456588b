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
cl_require netns "${launch%-netns}"
nn=$(cl_nodes | wc -l)
[ "$nn" -gt 1 ] || cl_die "fewer than 2 ushn* nodes: the set-up fixture did not run or failed"

case $launch in
    mpirun-netns)
        hosts=
        for ((i = 0; i < nn; i++)); do
            hosts+=${hosts:+,}$CLUSTER_SUBNET.$((10 + i)):$((np / nn))
        done
        cmd=(mpirun --allow-run-as-root -np "$np" --host "$hosts" --bind-to none
             --mca plm_rsh_agent "$CL_RSH" --mca plm_rsh_no_tree_spawn 1
             --mca oob_tcp_if_include "$CL_NET" --mca btl_tcp_if_include "$CL_NET")
        allowed='^$'
        ;;
    srun-netns)
        export SLURM_CONF=$SLURM_LOCAL_STATE_DIR/etc/slurm.conf
        cmd=(srun --mpi=pmix -n "$np" -N "$nn" --ntasks-per-node=$((np / nn)))
        allowed='^slurmd$'
        ;;
    *)
        cl_die "crash.sh: unknown launcher '$launch'"
        ;;
esac

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

# Leftovers: the launcher has returned, so give its remote daemons up to
# 10 s to finish tearing down, then nothing but the fixture's daemons may run.
left=
for ((try = 0; try < 100; try++)); do
    left=$(cl_ns_pids | awk -v ok="$allowed" '$3 !~ ok')
    [ -z "$left" ] && break
    sleep 0.1
done
[ -z "$left" ] || cl_die "processes left in the nodes after the job ended:
$left"
cl_say "no process left in the nodes"
