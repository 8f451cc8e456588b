#!/bin/bash
# xnode.sh: latency of 8-byte put, get and fetch-add between two emulated
# nodes, ushmem (latency.c under Open MPI's mpirun, one PE per node) against
# ucx_perftest over the same network path, in one session.
#
#   xnode.sh [--prefix DIR | --exe PATH] [--rounds R] [options]   (see --help)
#
# It brings up a private two-node netns cluster (the project's shared
# tooling, netns-cluster, under names of its own: ushb0/ushb1 on bridge
# ushbbr0, 10.78.0.0/24) and tears it down on any exit. Rounds alternate:
# one ushmem job, then ucp_put_lat, ucp_get and ucp_fadd, then the next
# round, so load from elsewhere falls on both sides. Every figure is a
# median; the script measures and never decides who must be faster.
#
# Exit status: 0 every run was correct; 1 some run failed; 2 usage, set-up
# or build error (also: not root, a package missing).

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

CLUSTER_TOOL=${CLUSTER_TOOL:-$SCRIPT_DIR/../test/cluster/tools/netns-cluster}
PREFIX=${PREFIX:-}
EXE=""
ROUNDS=3
ITERS=10000
BATCHES=""   # default: --iters, each operation timed alone
RUN_TIMEOUT=180
PORT=13478
KEEP=0
MIN_ROUNDS=1

# The cluster's names: distinct from the tooling's defaults (node*, clbr0,
# 10.77.0) so tests and other benchmarks can run a cluster at the same time.
export CLUSTER_PREFIX=ushb CLUSTER_SUBNET=10.78.0 CLUSTER_BRIDGE=ushbbr0
export CLUSTER_STATE_DIR=/tmp/ushb-cluster
# No /etc/hosts block: several clusters editing /etc/hosts at once could
# lose each other's lines. mpirun and ucx_perftest are given addresses.
export CLUSTER_ETC_HOSTS=0
NODE0_IP=$CLUSTER_SUBNET.10
NODE1_IP=$CLUSTER_SUBNET.11
LOCK_FILE=/tmp/ushb-xnode.lock

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

Latency of 8-byte put, get and fetch-add from one emulated node to another:
ushmem's latency.c (one PE per node, Open MPI's mpirun as PMIx server)
against ucx_perftest (ucp_put_lat, ucp_get, ucp_fadd) between the same two
nodes, and their ratio. Needs root, iproute2, openmpi-bin and ucx-utils.

  --prefix DIR     build latency.c with DIR/bin/oshcc (default: \$PREFIX)
  --exe PATH       run this latency binary instead (e.g. build/bench/bench_latency);
                   it must be outside a private /tmp, and is started on the nodes
  --rounds R       alternating rounds, each one ushmem job and the three
                   ucx_perftest runs (default $ROUNDS)
  --iters N        timed iterations per operation and run (default $ITERS)
  --batches B      ushmem's batches per run: it reports the median of the
                   batch means (default: one per iteration, so the median
                   operation, as ucx_perftest reports)
  --timeout S      seconds before one run is killed and counted as failed
                   (default $RUN_TIMEOUT)
  --port P         ucx_perftest's TCP port on the server node (default $PORT)
  --keep           keep the work directory (logs) and print its path
  --self-test      check this script's parsing and arithmetic, then exit
  -h, --help       this text

UCX_* and SHMEM_* variables set in the caller's environment reach both
sides (e.g. UCX_TLS=tcp,self to force TCP). The transports UCX picked are
printed from an untimed warm-up run of each side (UCX_LOG_LEVEL=info).
EOF
}

die() {
    echo "xnode.sh: $*" >&2
    exit 2
}

# ---------------------------------------------------------------- parsing
# parse_ushmem FILE: "op usec" for each result line of latency.c's output
# (lines "<op> <bytes> <median> <min> <max>"; '#' lines are comments).
parse_ushmem() {
    awk '!/^#/ && NF == 5 && $2 == 8 && $3 ~ /^[0-9.]+$/ { print $1, $3 }' "$1"
}

# parse_perftest FILE: the median latency (usec) of an `ucx_perftest -v`
# run: the second field of the final CSV line (no "[thread" prefix).
parse_perftest() {
    awk -F, '/^[0-9]+,[0-9.]+,/ { v = $2 } END { if (v != "") print v }' "$1"
}

# transports FILE: UCX's "ep_cfg[...]: ..." lines, without the log prefix.
transports() {
    sed -n 's/.*\(ep_cfg\[[0-9]*\]: .*\)/\1/p' "$1" | sort -u
}

self_test() {
    local fails=0 tmp
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks (run startup.sh --self-test)"; fails=1; }
    tmp=$(mktemp) || { echo "self-test: mktemp failed"; return 1; }
    xcheck() { if [ "$2" != "$3" ]; then echo "self-test FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi; }
    printf '# ushmem latency\n# operation bytes median min max\nput_pingpong      8      19.14      18.02      30.12\nget     8   21.50   20.00   40.00\nnoise\n' >"$tmp"
    xcheck "parse_ushmem" "put_pingpong 19.14|get 21.50" "$(parse_ushmem "$tmp" | paste -sd'|')"
    printf 'iterations,50.0_percentile_lat,avg_lat\n[thread 0] 216,19.479,2344.296\n[thread 0]1048,19.098,9092.904\n10000,18.830,277.813,1175.152\n' >"$tmp"
    xcheck "parse_perftest" "18.830" "$(parse_perftest "$tmp")"
    printf 'iterations,50.0_percentile_lat\n[thread 0] 216,19.479,2344.296\n' >"$tmp"
    xcheck "parse_perftest unfinished" "" "$(parse_perftest "$tmp")"
    printf '[1] [ushb0:1:0] ucp_worker.c:1763 UCX  INFO    ep_cfg[0]: rma_am(tcp/eth0) amo_am(tcp/eth0)\n' >"$tmp"
    xcheck "transports" "ep_cfg[0]: rma_am(tcp/eth0) amo_am(tcp/eth0)" "$(transports "$tmp")"
    rm -f "$tmp"
    self_test_verdict "$fails"
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)    PREFIX=${2-}; shift ;;
        --exe)       EXE=${2-}; shift ;;
        --rounds)    ROUNDS=${2-}; shift ;;
        --iters)     ITERS=${2-}; shift ;;
        --batches)   BATCHES=${2-}; shift ;;
        --timeout)   RUN_TIMEOUT=${2-}; shift ;;
        --port)      PORT=${2-}; shift ;;
        --keep)      KEEP=1 ;;
        --self-test) self_test; exit $? ;;
        -h|--help)   usage; exit 0 ;;
        *)           usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$ROUNDS" "$MIN_ROUNDS" || die "--rounds must be a whole number of at least $MIN_ROUNDS, not '$ROUNDS'"
BATCHES=${BATCHES:-$ITERS}
at_least "$BATCHES" 1 || die "--batches must be a whole number of at least 1, not '$BATCHES'"
at_least "$ITERS" 1 || die "--iters must be a whole number of at least 1, not '$ITERS'"
at_least "$ITERS" "$BATCHES" || die "--batches ($BATCHES) must not exceed --iters ($ITERS)"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
at_least "$PORT" 1024 || die "--port must be a port number above 1023, not '$PORT'"

[ "$(id -u)" -eq 0 ] || die "needs root: it creates network namespaces and a bridge"
for tool in ip nsenter flock timeout:coreutils mpirun:openmpi-bin ucx_perftest:ucx-utils; do
    command -v "${tool%%:*}" >/dev/null ||
        die "needs '${tool%%:*}'$([ "${tool#*:}" != "$tool" ] && echo " (Debian package ${tool#*:})")"
done
[ -r "$CLUSTER_TOOL" ] || die "cluster tooling '$CLUSTER_TOOL' not found (set CLUSTER_TOOL to bin/netns-cluster)"

# One xnode.sh at a time: a second would tear down the first one's cluster.
exec 8>"$LOCK_FILE"
flock -n 8 || die "another xnode.sh holds $LOCK_FILE (its cluster is ushb0/ushb1); wait for it to end"

cluster() { bash "$CLUSTER_TOOL" "$@"; }

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-xnode.XXXXXX") || die "mktemp failed"
SERVER_PID=""
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    # down ends whatever still runs inside the nodes, by PID.
    cluster down >>"$WORKDIR/cluster.log" 2>&1 ||
        echo "xnode.sh: tearing down the cluster failed; see $WORKDIR/cluster.log and run" \
             "CLUSTER_PREFIX=ushb CLUSTER_BRIDGE=ushbbr0 CLUSTER_STATE_DIR=$CLUSTER_STATE_DIR bash $CLUSTER_TOOL down" >&2
    if [ "$KEEP" = 1 ]; then echo "xnode.sh: logs kept in $WORKDIR"; else rm -rf "$WORKDIR"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- set-up
if [ -n "$EXE" ]; then
    [ -x "$EXE" ] || die "--exe '$EXE' is not an executable"
    EXE=$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")
else
    [ -n "$PREFIX" ] || die "give --prefix DIR (an installed ushmem) or --exe PATH (a built bench_latency)"
    [ -x "$PREFIX/bin/oshcc" ] || die "'$PREFIX/bin/oshcc' not found: install ushmem there first (make install)"
    EXE=$WORKDIR/latency
    "$PREFIX/bin/oshcc" -O2 "$SCRIPT_DIR/latency.c" -o "$EXE" >"$WORKDIR/build.log" 2>&1 ||
        { cat "$WORKDIR/build.log" >&2; die "building latency.c with $PREFIX/bin/oshcc failed"; }
fi

# A leftover of an earlier run that was killed outright (the lock says no
# other run owns it): take it down before starting afresh.
[ -e "$CLUSTER_STATE_DIR" ] && cluster down >>"$WORKDIR/cluster.log" 2>&1
cluster up 2 >>"$WORKDIR/cluster.log" 2>&1 ||
    { cat "$WORKDIR/cluster.log" >&2; die "bringing up the two-node cluster failed"; }

# Open MPI's plm_rsh_agent must be one executable file; the tooling is a
# multi-call script, so a two-line wrapper carries the cluster's names.
AGENT=$WORKDIR/rsh-agent
cat >"$AGENT" <<EOF
#!/bin/sh
export CLUSTER_PREFIX=$CLUSTER_PREFIX CLUSTER_SUBNET=$CLUSTER_SUBNET CLUSTER_BRIDGE=$CLUSTER_BRIDGE CLUSTER_STATE_DIR=$CLUSTER_STATE_DIR CLUSTER_ETC_HOSTS=0
exec bash '$CLUSTER_TOOL' rsh "\$@"
EOF
chmod +x "$AGENT"

# The agent starts remote processes with a clean environment, like ssh:
# UCX_* and SHMEM_* settings reach the PEs through -x.
FWD=()
while IFS='=' read -r name _; do
    case $name in UCX_*|SHMEM_*) FWD+=(-x "$name") ;; esac
done < <(env)

MPIRUN=(mpirun --allow-run-as-root -np 2 --host "$NODE0_IP:1,$NODE1_IP:1"
        --mca plm_rsh_agent "$AGENT" --mca plm_rsh_no_tree_spawn 1
        --mca oob_tcp_if_include "$CLUSTER_SUBNET.0/24" --mca btl_tcp_if_include "$CLUSTER_SUBNET.0/24"
        # Every node sees the same cores: bound, both PEs would share core 0.
        --bind-to none "${FWD[@]}")

# ---------------------------------------------------------------- runs
FAILED=0
RESULTS=$WORKDIR/results   # lines "<side> <operation> <usec>"
: >"$RESULTS"

# fail TAG LOG RC: report a failed run with the end of its output.
fail() {
    if [ "$3" -eq 124 ] || [ "$3" -eq 137 ]; then
        echo "xnode.sh: $1: killed after ${RUN_TIMEOUT}s" >&2
    else
        echo "xnode.sh: $1: exit status $3 or no result; its output:" >&2
    fi
    tail -n 20 "$2" | sed 's/^/    /' >&2
    FAILED=1
}

# run_ushmem TAG [VAR=VALUE...]: one latency.c job; results to RESULTS
# unless TAG is warmup.
run_ushmem() {
    local tag=$1 log=$WORKDIR/ushmem-$1.log rc
    shift
    timeout -k 10 "$RUN_TIMEOUT" "${MPIRUN[@]}" "$@" "$EXE" "$ITERS" "$BATCHES" >"$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] || [ "$(parse_ushmem "$log" | wc -l)" -ne 4 ]; then
        fail "ushmem run $tag" "$log" "$rc"
        return 1
    fi
    [ "$tag" = warmup ] || parse_ushmem "$log" | sed 's/^/ushmem /' >>"$RESULTS"
}

# run_perftest TAG TEST: ucx_perftest server on ushb1 (the target, as PE 1
# is for ushmem), client on ushb0, 8 bytes.
run_perftest() {
    local tag=$1 test=$2 log=$WORKDIR/perftest-$2-$1.log rc
    cluster exec ushb1 timeout -k 5 "$RUN_TIMEOUT" ucx_perftest -p "$PORT" >"$log.server" 2>&1 &
    SERVER_PID=$!
    # The client fails at once if nobody listens yet: wait for the port.
    for _ in $(seq 50); do
        ip netns exec ushb1 ss -ltn "sport = :$PORT" 2>/dev/null | grep -q ":$PORT" && break
        sleep 0.1
    done
    timeout -k 5 "$RUN_TIMEOUT" bash "$CLUSTER_TOOL" exec ushb0 ucx_perftest "$NODE1_IP" -p "$PORT" \
        -t "$test" -s 8 -n "$ITERS" -w $((ITERS / 10 + 1)) -v >"$log" 2>&1
    rc=$?
    wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
    if [ "$rc" -ne 0 ] || [ -z "$(parse_perftest "$log")" ]; then
        cat "$log.server" >>"$log"
        fail "ucx_perftest $test run $tag" "$log" "$rc"
        return 1
    fi
    [ "$tag" = warmup ] || echo "perftest $test $(parse_perftest "$log")" >>"$RESULTS"
}

PERFTESTS="ucp_put_lat ucp_get ucp_fadd"

# Untimed warm-up of each side, with UCX saying which transports it chose.
echo "warm-up (untimed), with UCX_LOG_LEVEL=info to show the transports chosen ..."
run_ushmem warmup -x UCX_LOG_LEVEL=info
UCX_LOG_LEVEL=info run_perftest warmup ucp_fadd
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r of $ROUNDS ..."
    run_ushmem "$r"
    for t in $PERFTESTS; do run_perftest "$r" "$t"; done
done

# ---------------------------------------------------------------- report
# med SIDE OP: median over the rounds of one side's figure for OP.
med() { awk -v s="$1" -v o="$2" '$1 == s && $2 == o { print $3 }' "$RESULTS" | median; }

echo
echo "latency between two netns nodes ($NODE0_IP -> $NODE1_IP), 8 bytes, usec per operation:"
echo "median over $ROUNDS alternating rounds of each side's median ($ITERS iterations per run)"
echo "ushmem:       ${MPIRUN[*]} $EXE $ITERS $BATCHES"
echo "ucx_perftest: server on ushb1, client on ushb0: ucx_perftest $NODE1_IP -t TEST -s 8 -n $ITERS -v"
[ -n "${FWD[*]}" ] && echo "environment:  ${FWD[*]}"
echo "transports UCX chose (from the warm-up runs):"
transports "$WORKDIR/ushmem-warmup.log" | sed 's/^/  ushmem:       /'
transports "$WORKDIR/perftest-ucp_fadd-warmup.log" | sed 's/^/  ucx_perftest: /'
echo
printf '%-13s %10s %13s %12s %8s\n' operation ushmem ucx_perftest "(test)" ratio
row() { # row OP PERFTEST-TEST
    local u p=n/a
    u=$(med ushmem "$1")
    [ "$2" != - ] && p=$(med perftest "$2")
    printf '%-13s %10s %13s %12s %8s\n' "$1" "$u" "$p" "$2" "$(ratio "$u" "$p")"
}
row put_pingpong ucp_put_lat
row put_quiet    -
row get          ucp_get
row fetch_add    ucp_fadd
echo
echo "ratio = ushmem / ucx_perftest (above 1: ushmem slower on this path, this time)."
echo "put_pingpong and ucp_put_lat are both half a put round trip; put_quiet is a"
echo "put completed at the target (put + quiet), a whole round trip: no perftest twin."
if [ "$FAILED" != 0 ]; then
    echo
    echo "xnode.sh: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
