#!/bin/bash
# One multi-PE test program under a real launcher:
#
#   run.sh LAUNCH NP DEADLINE PROGRAM [ARGS...]
#
#   LAUNCH   srun1        srun --mpi=pmix -n NP            (Slurm, one node)
#            mpirun1      mpirun -np NP                    (this machine)
#            mpirun-netns mpirun over every netns node, NP spread evenly
#            srun-netns   srun --mpi=pmix over every Slurm node, NP spread evenly
#            oshrun-srun  oshrun -n NP inside a Slurm allocation (salloc) over
#                         every Slurm node: oshrun must hand off to srun
#            oshrun-mpirun oshrun -n NP --host <every netns node>: oshrun
#                         must hand off to mpirun
#
# (Long option forms: cmake -P swallows some short ones, such as -N, even
# after "--".)
# The verdict is test/pe/run_pe_test.cmake's (exit status 0 and PE 0's
# "all checks passed on NP PEs"), the same as under oshrun.  Variables the
# PEs need (the harness's watchdog, SHMEM_*, UCX_*) are passed explicitly
# under mpirun: across nodes its agent starts every process with a clean,
# ssh-like environment.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 deadline=$3
shift 3
watchdog=$((deadline - 5))

nodes_up() {
    local n
    n=$(cl_nodes | wc -l)
    [ "$n" -gt 0 ] || cl_die "no ushn* nodes: the set-up fixture did not run or failed"
    echo "$n"
}

# every netns node with NP/nodes slots, for --host
netns_hosts() {
    local nn i hosts=
    nn=$(nodes_up)
    for ((i = 0; i < nn; i++)); do
        hosts+=${hosts:+,}$CLUSTER_SUBNET.$((10 + i)):$((np / nn))
    done
    echo "$hosts"
}

# -x for every variable of ours that is set, for mpirun
mpirun_exports() {
    local v
    for v in PE_TEST_WATCHDOG $(compgen -e | grep -E '^(SHMEM_|UCX_|USHMEM_)' || true); do
        printf -- '-x\n%s\n' "$v"
    done
}

case $launch in
    srun1|srun-netns)
        cl_require srun
        export SLURM_CONF=$SLURM_LOCAL_STATE_DIR/etc/slurm.conf
        [ -f "$SLURM_CONF" ] || cl_die "no $SLURM_CONF: the Slurm set-up fixture did not run or failed"
        cmd=(srun --mpi=pmix --ntasks="$np")
        if [ "$launch" = srun-netns ]; then
            nn=$(nodes_up)
            cmd+=(--nodes="$nn" --ntasks-per-node=$((np / nn)))
        fi
        ;;
    mpirun1)
        cl_require mpirun
        cmd=(mpirun --allow-run-as-root --oversubscribe -np "$np" --bind-to none)
        ;;
    mpirun-netns)
        cl_require netns mpirun
        hosts=$(netns_hosts)
        export PE_TEST_WATCHDOG=$watchdog
        mapfile -t exports < <(mpirun_exports)
        # every node sees the same cores: binding would pin one PE per node
        # to core 0 (see the tooling's README); the agent enters the nodes;
        # Open MPI's own traffic stays on the bridge's subnet.
        cmd=(mpirun --allow-run-as-root -np "$np" --host "$hosts" --bind-to none
             --mca plm_rsh_agent "$CL_RSH" --mca plm_rsh_no_tree_spawn 1
             --mca oob_tcp_if_include "$CL_NET" --mca btl_tcp_if_include "$CL_NET"
             "${exports[@]}")
        ;;
    oshrun-srun)
        cl_require srun
        export SLURM_CONF=$SLURM_LOCAL_STATE_DIR/etc/slurm.conf
        [ -f "$SLURM_CONF" ] || cl_die "no $SLURM_CONF: the Slurm set-up fixture did not run or failed"
        nn=$(nodes_up)
        cmd=(salloc --nodes="$nn" --ntasks="$np" "$USH_OSHRUN" --verbose -n "$np")
        ;;
    oshrun-mpirun)
        cl_require netns mpirun
        hosts=$(netns_hosts)
        # oshrun forwards PE_TEST_WATCHDOG (-x) and the SHMEM_/UCX_ variables
        # itself, and passes --mca on to mpirun.
        cmd=("$USH_OSHRUN" --verbose -n "$np" --host "$hosts" --bind-to none
             -x PE_TEST_WATCHDOG="$watchdog"
             --mca plm_rsh_agent "$CL_RSH" --mca plm_rsh_no_tree_spawn 1
             --mca oob_tcp_if_include "$CL_NET" --mca btl_tcp_if_include "$CL_NET")
        ;;
    *)
        cl_die "run.sh: unknown launcher '$launch'"
        ;;
esac

# Slurm 22.05's PMIx plugin now and then fails to start a step launched
# right after another ("task N launch failed"): no PE ran, nothing was
# tested, so launch again (cl_slurm_launch_failed).
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for attempt in 1 2 3; do
    cmake -DNP="$np" -DDEADLINE="$deadline" -DWATCHDOG="$watchdog" \
        -P "$USH_PE_RUNNER" -- "${cmd[@]}" "$@" 2>&1 | tee "$out"
    st=${PIPESTATUS[0]}
    [ "$st" -ne 0 ] && cl_slurm_launch_failed "$out" || exit "$st"
    cl_say "$launch: Slurm could not launch the step (attempt $attempt); retrying"
    sleep 2
done
exit "$st"
