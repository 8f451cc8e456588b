#!/bin/bash
# ctest fixtures of the cluster tests:
#
#   fixture.sh slurm1      private Slurm, one node (this machine)
#   fixture.sh netns N     N network-namespace nodes (addresses only)
#   fixture.sh slurm-netns N
#                          N nodes (with /etc/hosts names, which slurm-local
#                          needs) and one slurmd in each of them
#   fixture.sh down        stop whatever of ours runs: Slurm first (its
#                          slurmds live in the nodes), then the nodes
#
# A set-up that fails takes down what it started before failing, and the
# cleanup fixture runs "down" after the tests in any case, so a failed run
# leaves nothing behind either.
. "$(dirname "$0")/lib.sh"

down() {
    local rc=0
    if [ -d "$SLURM_LOCAL_STATE_DIR" ]; then
        cl_slurm down || rc=1
    fi
    # netns-cluster finds leftovers by name and bridge even without state
    if [ -n "$(cl_nodes)" ] || ip link show "$CLUSTER_BRIDGE" >/dev/null 2>&1 ||
       [ -d "$CLUSTER_STATE_DIR" ]; then
        CLUSTER_ETC_HOSTS=1 cl_netns down || rc=1   # =1: also drops our /etc/hosts block
    fi
    return $rc
}

up_or_roll_back() {
    trap 'cl_say "set-up failed: taking down what it started"; down; exit 1' ERR
    "$@"
    trap - ERR
}

action=${1:-}
case $action in
    slurm1)
        cl_require srun
        down   # a previous run killed before its cleanup
        up_or_roll_back cl_slurm up
        ;;
    netns)
        cl_require netns mpirun
        down
        CLUSTER_ETC_HOSTS=0 up_or_roll_back cl_netns up "${2:?number of nodes}"
        ;;
    slurm-netns)
        cl_require netns srun
        down
        export CLUSTER_ETC_HOSTS=1 SLURM_LOCAL_NETNS_NODES=${2:?number of nodes}
        up_or_roll_back cl_netns up "$SLURM_LOCAL_NETNS_NODES"
        up_or_roll_back cl_slurm up
        ;;
    down)
        cl_require   # root and the tooling, or nothing can have been set up
        down || cl_die "cleanup incomplete (see the messages above)"
        ;;
    *)
        cl_die "usage: fixture.sh slurm1 | netns N | slurm-netns N | down"
        ;;
esac
