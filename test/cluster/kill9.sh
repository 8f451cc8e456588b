#!/bin/bash
# A PE on a remote node is killed (kill -9) while every PE puts to its
# neighbours: the launcher's own line names the dead PE and its signal,
# the job's status is 137, and no PE adds UCX's lines or its own about the
# endpoint that stopped answering (each waits for the launcher to end it):
#
#   kill9.sh mpirun-netns|srun-netns|oshrun-mpirun NP SHMEM_BEHAVE
#
# oshrun-mpirun is oshrun --host, which hands the job to mpirun.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3
rank=$((np - 1))
piddir=$(mktemp -d) || exit 1
out=$(mktemp) || exit 1
trap 'rm -rf "$piddir" "$out"' EXIT
export LAUNCH_TEST_PIDDIR=$piddir

if [ "$launch" = oshrun-mpirun ]; then
    cl_netns_launch mpirun-netns "$np"
    hosts=$(printf '%s\n' "${cl_cmd[@]}" | grep -A1 -x -- --host | tail -1)
    cmd=("$USH_OSHRUN" -n "$np" --host "$hosts" --bind-to none -x LAUNCH_TEST_PIDDIR
         --mca plm_rsh_agent "$CL_RSH" --mca plm_rsh_no_tree_spawn 1
         --mca oob_tcp_if_include "$CL_NET" --mca btl_tcp_if_include "$CL_NET")
else
    cl_netns_launch "$launch" "$np"
    cmd=("${cl_cmd[@]}")
    [ "$launch" = mpirun-netns ] && cmd+=(-x LAUNCH_TEST_PIDDIR)
fi
allowed=$cl_allowed

cl_say "run: ${cmd[*]} $prog put-loop"
timeout -k 5 60 "${cmd[@]}" "$prog" put-loop >"$out" 2>&1 &
job=$!
for ((try = 0; try < 400; try++)); do
    [ "$(ls "$piddir" | grep -c '^ready\.')" -ge "$np" ] && break
    sleep 0.05
done
[ -f "$piddir/pe.$rank.pid" ] || cl_die "PE $rank never started"
sleep 0.5 # puts in full flight
victim=$(cat "$piddir/pe.$rank.pid")
t0=$(date +%s%N)
kill -9 "$victim"
wait "$job"
status=$?
elapsed=$((($(date +%s%N) - t0) / 1000000))
sed 's/^/  | /' "$out" | head -n 40
cl_say "exit status $status, $elapsed ms after kill -9 of PE $rank (pid $victim)"

case $launch in
    # srun joins tasks killed together: "tasks 2-3: Killed" names 3 too
    srun-netns) grep -Eq "tasks? ([0-9,-]*[-,])?$rank([-,][0-9,-]*)?: Killed" "$out" ||
        cl_die "srun did not name task $rank" ;;
    *) grep -Eq "process rank $rank with PID $victim on node .* exited on signal 9" "$out" ||
        cl_die "mpirun did not name rank $rank" ;;
esac
# UCX 1.13 aborts a process whose answer to an emulated put (TCP) finds
# the asker gone, as the launcher ends the PEs one by one: "Fatal:
# unexpected error: Endpoint timeout" from ucp_put_handler, then SIGABRT
# (134). Seen in 1 run of 3 beside 4 busy loops, never on a quiet
# machine; the library cannot intercept it (docs/launching.md). Anything
# else of UCX's or ours fails, as does another status.
ucx_abort='ucp_request.inl:[0-9]+ +Fatal: unexpected error: Endpoint timeout'
if grep -Eq "$ucx_abort" "$out"; then
    cl_say "UCX aborted a PE whose peer was already gone (known, see above)"
    [ "$status" -eq 137 ] || [ "$status" -eq 134 ] ||
        cl_die "exit status $status, expected 137 (or UCX's 134)"
    grep -Ev "$ucx_abort|^  *[0-9]+  .*\]$|==== backtrace|^=+$|^ushmem: PE [0-9]+: killed by SIGABRT; the job ends$" \
        "$out" | grep -Eq 'UCX +ERROR|^ushmem:' &&
        cl_die "lines of UCX or of the library about a death the launcher reports"
else
    [ "$status" -eq 137 ] || cl_die "exit status $status, expected 137 (the killed PE's)"
    grep -Eq 'UCX +ERROR|^ushmem:|Fatal' "$out" &&
        cl_die "lines of UCX or of the library about a death the launcher reports"
fi
cl_nodes_clean "$allowed"
