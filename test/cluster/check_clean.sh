#!/bin/bash
# Runs after every cleanup fixture: nothing the cluster tests started may
# be left -- no node namespace, no bridge, no /etc/hosts block, no mount,
# no state, no daemon or launcher still running with our configuration.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || cl_skip "needs root; the cluster tests did not run"

problems=()
nodes=$(cl_nodes | tr '\n' ' ')
[ -z "$nodes" ] || problems+=("network namespaces left: $nodes")
ip link show "$CLUSTER_BRIDGE" >/dev/null 2>&1 && problems+=("bridge $CLUSTER_BRIDGE left")
grep -q "netns-cluster:$CLUSTER_BRIDGE" /etc/hosts 2>/dev/null &&
    problems+=("/etc/hosts still has the block of $CLUSTER_BRIDGE")
for d in "$CLUSTER_STATE_DIR" "$SLURM_LOCAL_STATE_DIR"; do
    [ -e "$d" ] && problems+=("state left: $d")
done
mounts=$(awk -v s="$USH_CLUSTER_STATE" 'index($5, s) == 1 {print $5}' /proc/self/mountinfo | tr '\n' ' ')
[ -z "$mounts" ] || problems+=("mounts left: $mounts")
# munged, slurmctld and slurmd name our state folder on their command
# line, mpirun names our rsh agent there
for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    cmdline=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
    case $cmdline in
        *"$USH_CLUSTER_STATE"*)
            case $cmdline in *check_clean.sh*) continue ;; esac
            problems+=("process left: ${p#/proc/} $cmdline") ;;
    esac
done

if [ ${#problems[@]} -gt 0 ]; then
    printf 'FAIL: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "clean: no namespace, bridge, mount, state or process of the cluster tests left"
