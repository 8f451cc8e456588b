#!/bin/bash
# A job that succeeds prints only what its PEs printed: no UCX line, on
# stdout or stderr, whatever the skew between PEs reaching shmem_finalize
# (over TCP between nodes, closing endpoints one by one raced with peers
# tearing down theirs, and UCX printed "error during flush: Endpoint
# timeout" in 8 of 12 such jobs). And no stall: every run ends well
# within its time limit; one that does not is shown from inside first
# (gdb backtraces of every PE and launcher daemon), then ended. Under
# srun lines stay whole; Open MPI's mpirun may split them between PEs,
# so spew's stdout is checked byte for byte.
#
#   quiet.sh mpirun-netns|srun-netns NP PROGRAM RUNS
#
# PROGRAM is test/cluster's quiet.c. Each of RUNS rounds runs "late 3"
# (the last PE 3 s late to finalize) and "spew 100000" (NP x 100000 lines
# through the launcher's output forwarding), PEs spread evenly over the
# nodes.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3 runs=$4
cl_netns_launch "$launch" "$np"

work=$(mktemp -d -p "$USH_CLUSTER_STATE") || exit 1
trap 'rm -rf "$work"' EXIT

# A stalled job, seen from inside before it is ended: every PE's threads
# and every step daemon's (gdb, when installed), and how far each PE got.
stall_report() {
    local p
    cl_say "stalled after $1 s; lines so far: $(wc -l <"$work/out")"
    command -v gdb >/dev/null || { cl_say "(no gdb: no backtraces)"; return; }
    for p in $(pgrep -x "$(basename "$prog" | cut -c1-15)") $(pgrep -f 'slurmstepd: \[') \
             $(pgrep -x mpirun) $(pgrep -x orted); do
        echo "=== $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) (pid $p)"
        timeout 20 gdb -p "$p" -batch -ex 'thread apply all bt 16' 2>/dev/null | grep -E '^(#|Thread)'
    done >&2
}

run() {   # run LIMIT ARGS...: status in $status, stdout in $work/out, stderr in $work/err
    local limit=$1 attempt pid t
    shift
    for attempt in 1 2 3; do
        cl_say "run: ${cl_cmd[*]} $prog $*"
        "${cl_cmd[@]}" "$prog" "$@" >"$work/out" 2>"$work/err" </dev/null &
        pid=$!
        # the watchdog: backtraces first, then the end
        for ((t = 0; t < limit * 10; t++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            stall_report "$limit"
            kill "$pid"; sleep 2; kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            cl_die "$* did not end within $limit s (stalled; backtraces above)"
        fi
        wait "$pid"
        status=$?
        cl_slurm_launch_failed "$work/err" || break
        cl_say "Slurm failed to start the step (no PE ran): launching again"
    done
    [ "$status" -eq 0 ] || { head -n 20 "$work/err" >&2; cl_die "$* exited $status"; }
}

# Lines neither the PEs nor the launcher's own chatter printed: srun says
# when a step waits for resources, and Open MPI's rsh launcher warns when
# its setpgid loses the race with the agent it started, which has already
# exec'd (EPERM; seen once on a busy machine): both are the launcher's,
# not ushmem's.
foreign() {
    grep -Ev "$1" "$2" |
        grep -Ev '^srun: (job [0-9]+ (queued|has been allocated)|Step created)' |
        grep -Ev '^\[[^]]*\] plm:rsh: Warning: setpgid\([0-9]+,[0-9]+\) failed in parent with errno=Permission denied' ||
        true
}

# what "spew 100000" writes: "PE r line i <filler>\n" for every PE r and
# i < 100000 (quiet.c's filler: 51 characters)
spew_bytes=$(awk -v np="$np" 'BEGIN { for (i = 0; i < 100000; i++) d += length(i)
                                     for (r = 0; r < np; r++) t += 100000 * (10 + 52 + length(r)) + d
                                     print t }')

for ((r = 1; r <= runs; r++)); do
    run 60 late 3
    extra=$(foreign '^late: done$' "$work/out"; foreign '^$' "$work/err")
    [ -z "$extra" ] || cl_die "late, round $r: lines the program did not print:
$extra"
    [ "$(grep -c '^late: done$' "$work/out")" -eq 1 ] || cl_die "late, round $r: no 'late: done'"

    # Open MPI's mpirun forwards output in pieces that may split lines
    # between PEs, so stdout is judged by its bytes: exactly what the PEs
    # wrote, and nothing that names UCX or ushmem.
    run 60 spew 100000
    bytes=$(wc -c <"$work/out")
    [ "$bytes" -eq "$spew_bytes" ] ||
        cl_die "spew, round $r: $bytes bytes on stdout, the PEs wrote $spew_bytes$(
            grep -E 'UCX|ushmem' "$work/out" | head -n 5 | sed 's/^/\n  /')"
    extra=$(grep -E 'UCX|ushmem' "$work/out"; foreign '^$' "$work/err")
    [ -z "$extra" ] || cl_die "spew, round $r: lines the program did not print:
$(echo "$extra" | head -n 5)"
    cl_say "round $r: both jobs quiet"
done
cl_nodes_clean "$cl_allowed"
