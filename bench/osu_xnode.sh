#!/bin/bash
# osu_xnode.sh: OSU Micro-Benchmarks 7.4's OpenSHMEM collectives (barrier,
# broadcast, reduce, fcollect, collect) between two emulated nodes, one PE
# per node, built against ushmem and against Debian's Open MPI OSHMEM, in
# one session.
#
#   osu_xnode.sh --osu TARBALL [--prefix DIR] [--rounds R] [options]   (see --help)
#
# It unpacks the OSU tarball (given, never looked for) twice under /var/tmp,
# builds c/openshmem once with each library's oshcc, brings up a private
# two-node netns cluster (the project's shared tooling, netns-cluster, under
# names of its own: ushq0/ushq1 on bridge ushqbr0, 10.76.0.0/24) and tears
# it down on any exit. Rounds alternate: ushmem's run of a program, then
# Open MPI's run of the same program, then the next program, then the next
# round, so load from elsewhere falls on both. Both libraries run under one
# launcher, so the comparison is about the libraries:
#   mpirun  Open MPI's mpirun, its daemons started on the nodes through the
#           tooling's rsh agent (as xnode.sh does);
#   srun    srun --mpi=pmix of a private Slurm (slurm-local, one slurmd in
#           each node). Open MPI 4.1.4's OSHMEM runs there too (its finalize
#           workaround goes in as OMPI_MCA_spml_ucx_opal_mem_hooks=0).
# The table gives, per program and message size, the median over rounds of
# OSU's "Avg Latency(us)" for each library and their ratio. The script
# measures and never decides who must be faster.
#
# Exit status: 0 every run was correct; 1 some run failed; 2 usage, set-up
# or build error (also: not root, a package missing).

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
# shellcheck source=osu_lib.sh
. "$SCRIPT_DIR/osu_lib.sh"

BENCH_NAME=osu_xnode.sh
CLUSTER_TOOL=${CLUSTER_TOOL:-$SCRIPT_DIR/../test/cluster/tools/netns-cluster}
SLURM_TOOL=${SLURM_TOOL:-$SCRIPT_DIR/../test/cluster/tools/slurm-local}
PREFIX=${PREFIX:-$SCRIPT_DIR/../build/install}
OSU=${OSU_TARBALL:-}
ROUNDS=3
LAUNCHER=mpirun
ALL_PROGS="barrier broadcast reduce fcollect collect"
ONLY=$ALL_PROGS
# OSU's -i: timed iterations at every size (its defaults are 1000 up to
# 32 KiB and 100 above, and 100 for the barrier). Its untimed warm-up
# iterations (200, 10 above 32 KiB and for the barrier) have no option.
ITERS=1000
MIN_SIZE=8
MAX_SIZE=65536
RUN_TIMEOUT=180
KEEP=0
MIN_ROUNDS=1
OMPI_OSHCC=/usr/bin/oshcc
# See README.md: Open MPI 4.1.4 dies in shmem_finalize without it.
OMPI_MCA=(--mca spml_ucx_opal_mem_hooks 0)

# The cluster's names, subnet and Slurm ports: distinct from the tooling's
# defaults (node*, clbr0, 10.77.0), the cluster tests' (ushn*, 10.79.0,
# Slurm 6917), xnode.sh's (ushb*, 10.78.0) and startup-scale.sh's (ushs*,
# 10.80.0, Slurm 6937), so they can run at the same time.
export CLUSTER_PREFIX=ushq CLUSTER_SUBNET=10.76.0 CLUSTER_BRIDGE=ushqbr0
export CLUSTER_STATE_DIR=/tmp/ushq-cluster
# Names in /etc/hosts (a block of its own, removed by down) only for Slurm,
# which needs them; mpirun is given addresses.
export CLUSTER_ETC_HOSTS=0
export SLURM_LOCAL_STATE_DIR=/var/tmp/ushq-slurm SLURM_LOCAL_CLUSTER=ushqcl
export SLURM_LOCAL_CTLD_PORT=6957 SLURM_LOCAL_SLURMD_PORT=6958
NODE0_IP=$CLUSTER_SUBNET.10
NODE1_IP=$CLUSTER_SUBNET.11
LOCK_FILE=/tmp/ushq-osu-xnode.lock

usage() {
    cat <<EOF
usage: $(basename "$0") --osu TARBALL [options]

OSU Micro-Benchmarks' OpenSHMEM collectives (osu_oshm_barrier, _broadcast,
_reduce, _fcollect, _collect) between two emulated nodes, one PE per node:
built with ushmem's oshcc and with Open MPI's (/usr/bin/oshcc), run in
alternating rounds under one launcher; per program and size ($MIN_SIZE B to
$((MAX_SIZE / 1024)) KiB) the median of OSU's average latency (us) of each
library and the ratio ushmem / Open MPI. Needs root (network namespaces).

  --osu TARBALL    OSU Micro-Benchmarks 7.4 source tarball (default:
                   \$OSU_TARBALL; required)
  --prefix DIR     the installed ushmem whose bin/oshcc builds one copy
                   (default: \$PREFIX, else build/install of this tree)
  --rounds R       alternating rounds (default $ROUNDS)
  --launcher L     mpirun, srun or both (default $LAUNCHER): Open MPI's
                   mpirun through the cluster's rsh agent, or srun --mpi=pmix
                   of a private Slurm with one slurmd in each node; each is
                   a series of its own, both libraries under it
  --only "LIST"    programs to run, of: $ALL_PROGS
                   (default all)
  --iters N        OSU's -i, timed iterations per size (default $ITERS)
  --timeout S      seconds before one run is killed and counted as failed
                   (default $RUN_TIMEOUT)
  --keep           keep the work directory (OSU builds, logs) and print its path
  --self-test      check this script's parsing and arithmetic, then exit
  -h, --help       this text

UCX_* and SHMEM_* variables set in the caller's environment reach the PEs
of both libraries. The transports UCX picked are printed from an untimed
warm-up run of osu_oshm_barrier of each library (UCX_LOG_LEVEL=info).
Debian packages: openmpi-bin libopenmpi-dev iproute2 autoconf automake
libtool (OSU's build is regenerated with autoreconf -fi: the tarball's
libtool scripts do not match Debian 12's), and for srun slurmd slurmctld
slurm-client munge slurm-wlm-basic-plugins.
EOF
}

die() {
    echo "$BENCH_NAME: $*" >&2
    exit 2
}

# ---------------------------------------------------------------- parsing
# sizes_of PROG: the sizes the table shows for PROG ("-" for the barrier).
sizes_of() {
    local s
    if [ "$1" = barrier ]; then echo -; return; fi
    for ((s = MIN_SIZE; s <= MAX_SIZE; s *= 2)); do echo "$s"; done
}

# osu_ok PROG FILE: FILE holds one figure for every size of sizes_of PROG.
osu_ok() {
    local want got
    want=$(sizes_of "$1" | paste -sd' ')
    got=$(parse_osu "$2" | awk -v min="$MIN_SIZE" '$1 == "-" || $1 >= min { print $1 }' | paste -sd' ')
    [ -n "$want" ] && [ "$want" = "$got" ]
}

# transports FILE: UCX's "ep_cfg[...]: ..." lines, without the log prefix.
transports() {
    sed -n 's/.*\(ep_cfg\[[0-9]*\]: .*\)/\1/p' "$1" | sort -u
}

# table RESULTS SERIES PROGS: from lines "SERIES LIB PROG SIZE USEC"
# (LIB ushmem or ompi), one row per program and size: the median over
# rounds of each library and the ratio ushmem / Open MPI.
table() {
    local results=$1 series=$2 progs=$3 p s u o
    printf '%-10s %8s %12s %12s %8s\n' benchmark size ushmem "Open MPI" ratio
    for p in $progs; do
        for s in $(sizes_of "$p"); do
            u=$(awk -v r="$series" -v p="$p" -v s="$s" '$1 == r && $2 == "ushmem" && $3 == p && $4 == s { print $5 }' "$results" | median2)
            o=$(awk -v r="$series" -v p="$p" -v s="$s" '$1 == r && $2 == "ompi" && $3 == p && $4 == s { print $5 }' "$results" | median2)
            printf '%-10s %8s %12s %12s %8s\n' "$p" "$s" "$u" "$o" "$(ratio "$u" "$o")"
        done
    done
}

self_test() {
    local fails=0 tmp
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks (run startup.sh --self-test)"; fails=1; }
    tmp=$(mktemp) || { echo "self-test: mktemp failed"; return 1; }
    xcheck() { if [ "$2" != "$3" ]; then echo "self-test FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi; }
    # osu_oshm_barrier's output (one column, no size).
    printf '# OSU OpenSHMEM Barrier Latency Test v7.4\n# Avg Latency(us)\n             12.39\n' >"$tmp"
    xcheck "parse_osu barrier" "- 12.39" "$(parse_osu "$tmp")"
    osu_ok barrier "$tmp"; xcheck "osu_ok barrier" 0 $?
    # A sized program, with the 4-byte line the table leaves out, UCX noise
    # and an error line.
    {
        printf '# OSU OpenSHMEM Broadcast Latency Test v7.4\n# Size       Avg Latency(us)\n'
        printf '[1700000000.1] [ushq0:1:0] ucp_worker.c:1763 UCX  INFO  ep_cfg[0]: tag(tcp/eth0)\n'
        printf '4                       0.41\n'
        for s in 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
            printf '%-18d%18s\n' "$s" "$s.50"
        done
    } >"$tmp"
    xcheck "parse_osu broadcast first" "4 0.41|8 8.50" "$(parse_osu "$tmp" | head -n 2 | paste -sd'|')"
    xcheck "parse_osu broadcast last" "65536 65536.50" "$(parse_osu "$tmp" | tail -n 1)"
    xcheck "parse_osu broadcast count" 15 "$(parse_osu "$tmp" | wc -l)"
    osu_ok broadcast "$tmp"; xcheck "osu_ok broadcast" 0 $?
    osu_ok barrier "$tmp"; xcheck "osu_ok barrier on sized output" 1 $?
    # -f's columns (avg min max iterations): the average is the second.
    printf '# Size       Avg Latency(us)     Min Latency(us)     Max Latency(us)  Iterations\n8    20.00    10.00   30.00   1000\n' >"$tmp"
    xcheck "parse_osu full" "8 20.00" "$(parse_osu "$tmp")"
    # A run cut short (killed at 4 KiB) is not complete.
    printf '# Size       Avg Latency(us)\n4 1.0\n8 1.0\n16 1.0\n32 1.0\n64 1.0\n128 1.0\n256 1.0\n512 1.0\n1024 1.0\n2048 1.0\n4096 1.0\n' >"$tmp"
    osu_ok reduce "$tmp"; xcheck "osu_ok cut short" 1 $?
    : >"$tmp"
    osu_ok barrier "$tmp"; xcheck "osu_ok empty" 1 $?
    xcheck "sizes_of" "8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536" "$(sizes_of reduce | paste -sd' ')"
    xcheck "sizes_of barrier" "-" "$(sizes_of barrier)"
    printf '[1] [ushq0:1:0] ucp_worker.c:1763 UCX  INFO    ep_cfg[0]: rma_am(tcp/eth0) amo_am(tcp/eth0)\n' >"$tmp"
    xcheck "transports" "ep_cfg[0]: rma_am(tcp/eth0) amo_am(tcp/eth0)" "$(transports "$tmp")"
    xcheck "median2 even" "2.25" "$(printf '3.0\n1.5\n' | median2)"
    xcheck "median2 odd" "10.10" "$(printf '10.1\n9\n100\n' | median2)"
    xcheck "median2 none" "n/a" "$(printf '' | median2)"
    # The table: medians over rounds, ratio, a missing figure, another series.
    printf '%s\n' "mpirun ushmem barrier - 10.00" "mpirun ompi barrier - 20.00" \
        "mpirun ushmem barrier - 12.00" "mpirun ompi barrier - 40.00" "mpirun ushmem barrier - 11.00" \
        "mpirun ompi barrier - 30.00" "srun ushmem barrier - 99.00" \
        "mpirun ushmem reduce 8 5.00" "mpirun ompi reduce 8 2.50" "mpirun ushmem reduce 65536 7.00" >"$tmp"
    xcheck "table barrier" "barrier - 11.00 30.00 0.37" \
        "$(table "$tmp" mpirun barrier | awk '$1 == "barrier" { print $1, $2, $3, $4, $5 }')"
    xcheck "table reduce 8" "reduce 8 5.00 2.50 2.00" \
        "$(table "$tmp" mpirun reduce | awk '$2 == 8 { print $1, $2, $3, $4, $5 }')"
    xcheck "table reduce missing" "reduce 65536 7.00 n/a n/a" \
        "$(table "$tmp" mpirun reduce | awk '$2 == 65536 { print $1, $2, $3, $4, $5 }')"
    xcheck "table rows" 16 "$(table "$tmp" mpirun "barrier reduce" | wc -l)"
    xcheck "table series" "barrier - 99.00 n/a n/a" \
        "$(table "$tmp" srun barrier | awk '$1 == "barrier" { print $1, $2, $3, $4, $5 }')"
    rm -f "$tmp"
    self_test_verdict "$fails"
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --osu)       OSU=${2-}; shift ;;
        --prefix)    PREFIX=${2-}; shift ;;
        --rounds)    ROUNDS=${2-}; shift ;;
        --launcher)  LAUNCHER=${2-}; shift ;;
        --only)      ONLY=${2-}; shift ;;
        --iters)     ITERS=${2-}; shift ;;
        --timeout)   RUN_TIMEOUT=${2-}; shift ;;
        --keep)      KEEP=1 ;;
        --self-test) self_test; exit $? ;;
        -h|--help)   usage; exit 0 ;;
        *)           usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$ROUNDS" "$MIN_ROUNDS" || die "--rounds must be a whole number of at least $MIN_ROUNDS, not '$ROUNDS'"
at_least "$ITERS" 1 || die "--iters must be a whole number of at least 1, not '$ITERS'"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
case $LAUNCHER in
    mpirun|srun) SERIES=$LAUNCHER ;;
    both)        SERIES="mpirun srun" ;;
    *)           die "--launcher takes mpirun, srun or both, not '$LAUNCHER'" ;;
esac
has_series() { case " $SERIES " in *" $1 "*) return 0 ;; esac; return 1; }
select_progs

[ -n "$OSU" ] || die "give the OSU Micro-Benchmarks 7.4 tarball: --osu TARBALL (or OSU_TARBALL=...)"
{ [ -f "$OSU" ] && [ -r "$OSU" ]; } || die "--osu '$OSU' is not a readable file"
OSU=$(cd "$(dirname "$OSU")" && pwd)/$(basename "$OSU")
[ -x "$PREFIX/bin/oshcc" ] || die "ushmem's '$PREFIX/bin/oshcc' not found: install ushmem there first (make install), or give --prefix DIR"
PREFIX=$(cd "$PREFIX" && pwd)

[ "$(id -u)" -eq 0 ] || die "needs root: it creates network namespaces and a bridge"
# What is missing, as Debian packages, all at once.
MISSING=""
need() { # need TOOL PACKAGE
    PATH=$PATH:/usr/sbin:/sbin command -v "$1" >/dev/null && return 0
    case " $MISSING " in *" $2 "*) ;; *) MISSING=$MISSING${MISSING:+ }$2 ;; esac
}
for tool in ip:iproute2 nsenter:util-linux flock:util-linux timeout:coreutils tar:tar make:make gcc:gcc \
            mpirun:openmpi-bin autoreconf:autoconf automake:automake libtoolize:libtool; do
    need "${tool%%:*}" "${tool#*:}"
done
[ -x "$OMPI_OSHCC" ] || need "$OMPI_OSHCC" libopenmpi-dev
if has_series srun; then
    for tool in srun:slurm-client slurmd:slurmd slurmctld:slurmctld munged:munge; do
        need "${tool%%:*}" "${tool#*:}"
    done
    ls /usr/lib/*/slurm-wlm/mpi_pmix*.so >/dev/null 2>&1 ||
        case " $MISSING " in *" slurm-wlm-basic-plugins "*) ;; *) MISSING="$MISSING slurm-wlm-basic-plugins" ;; esac
fi
[ -z "$MISSING" ] ||
    die "missing Debian packages: $MISSING (apt-get install --no-install-recommends ${MISSING# };" \
        "or make -C bench osu-xnode, which installs them)"
[ -r "$CLUSTER_TOOL" ] || die "cluster tooling '$CLUSTER_TOOL' not found (set CLUSTER_TOOL to bin/netns-cluster)"
if has_series srun; then
    [ -r "$SLURM_TOOL" ] || die "Slurm tooling '$SLURM_TOOL' not found (set SLURM_TOOL to bin/slurm-local)"
fi

# One osu_xnode.sh at a time: a second would tear down the first one's cluster.
exec 8>"$LOCK_FILE"
flock -n 8 || die "another osu_xnode.sh holds $LOCK_FILE (its cluster is ushq0/ushq1); wait for it to end"

cluster() { bash "$CLUSTER_TOOL" "$@"; }

# Under /var/tmp, not /tmp: the nodes start the programs from here, and a
# node's slurmd may have a private /tmp.
WORKDIR=$(mktemp -d /var/tmp/ushmem-osu-xnode.XXXXXX) || die "mktemp failed"
BUILD_PIDS=""
CLUSTER_UP=0
SLURM_UP=0
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    local pid
    for pid in $BUILD_PIDS; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null; done
    for pid in $BUILD_PIDS; do wait "$pid" 2>/dev/null; done
    # Slurm first: its slurmds live in the nodes.
    if [ "$SLURM_UP" = 1 ]; then
        bash "$SLURM_TOOL" down >>"$WORKDIR/cluster.log" 2>&1 ||
            echo "$BENCH_NAME: stopping the private Slurm failed; see $WORKDIR/cluster.log and run" \
                 "SLURM_LOCAL_STATE_DIR=$SLURM_LOCAL_STATE_DIR bash $SLURM_TOOL down" >&2
    fi
    if [ "$CLUSTER_UP" = 1 ]; then
        # down ends whatever still runs inside the nodes, by PID; with the
        # /etc/hosts flag on it removes our block there, if any.
        CLUSTER_ETC_HOSTS=1 cluster down >>"$WORKDIR/cluster.log" 2>&1 ||
            echo "$BENCH_NAME: tearing down the cluster failed; see $WORKDIR/cluster.log and run" \
                 "CLUSTER_PREFIX=$CLUSTER_PREFIX CLUSTER_BRIDGE=$CLUSTER_BRIDGE CLUSTER_STATE_DIR=$CLUSTER_STATE_DIR" \
                 "CLUSTER_ETC_HOSTS=1 bash $CLUSTER_TOOL down" >&2
    fi
    if [ "$KEEP" = 1 ]; then echo "$BENCH_NAME: work directory kept in $WORKDIR"; else rm -rf "$WORKDIR"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- build
echo "building OSU's c/openshmem with ushmem ($PREFIX/bin/oshcc) and Open MPI ($OMPI_OSHCC) ..."
B0=$(now_us)
build_osu_both "$PREFIX/bin/oshcc" "$OMPI_OSHCC"
B1=$(now_us)
USH_DIR=$WORKDIR/osu-ushmem/c/openshmem
OMPI_DIR=$WORKDIR/osu-ompi/c/openshmem

# ---------------------------------------------------------------- cluster
# A leftover of an earlier run that was killed outright (the lock says no
# other run owns it): take it down before starting afresh.
[ -e "$SLURM_LOCAL_STATE_DIR" ] && bash "$SLURM_TOOL" down >>"$WORKDIR/cluster.log" 2>&1
[ -e "$CLUSTER_STATE_DIR" ] && CLUSTER_ETC_HOSTS=1 cluster down >>"$WORKDIR/cluster.log" 2>&1
CLUSTER_UP=1
# Slurm needs the node names: a block of our own in /etc/hosts.
has_series srun && CLUSTER_ETC_HOSTS=1
echo "bringing up two netns nodes ($CLUSTER_PREFIX""0, $CLUSTER_PREFIX""1) ..."
CLUSTER_ETC_HOSTS=$CLUSTER_ETC_HOSTS cluster up 2 >>"$WORKDIR/cluster.log" 2>&1 ||
    { tail -n 30 "$WORKDIR/cluster.log" >&2; die "bringing up the two-node cluster failed"; }
export CLUSTER_ETC_HOSTS=0
if has_series srun; then
    echo "starting a private Slurm with a slurmd in each node ..."
    SLURM_UP=1
    # 8>&-: the daemons must not inherit (and hold) the lock.
    SLURM_LOCAL_NETNS_NODES=2 SLURM_LOCAL_CPUS=1 bash "$SLURM_TOOL" up >>"$WORKDIR/cluster.log" 2>&1 8>&- ||
        { tail -n 30 "$WORKDIR/cluster.log" >&2; die "starting Slurm in the two nodes failed"; }
fi

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
# UCX_* and SHMEM_* settings reach the PEs through -x. srun passes the
# caller's environment on by itself.
FWD=()
while IFS='=' read -r name _; do
    case $name in UCX_*|SHMEM_*) FWD+=(-x "$name") ;; esac
done < <(env)

MPIRUN=(mpirun --allow-run-as-root -np 2 --host "$NODE0_IP:1,$NODE1_IP:1"
        --mca plm_rsh_agent "$AGENT" --mca plm_rsh_no_tree_spawn 1
        --mca oob_tcp_if_include "$CLUSTER_SUBNET.0/24" --mca btl_tcp_if_include "$CLUSTER_SUBNET.0/24"
        # Every node sees the same cores: bound, both PEs would share core 0.
        --bind-to none "${FWD[@]}")
SRUN=(env SLURM_CONF="$SLURM_LOCAL_STATE_DIR/etc/slurm.conf"
      srun --mpi=pmix --nodes=2 --ntasks=2 --ntasks-per-node=1)

# launch SERIES LIB [VAR=VALUE...]: the words that start a job of LIB in
# SERIES, with the variables set for its PEs.
launch() {
    local series=$1 lib=$2 v
    shift 2
    if [ "$series" = mpirun ]; then
        printf '%s\n' "${MPIRUN[@]}"
        for v in "$@"; do printf '%s\n' -x "$v"; done
        [ "$lib" = ompi ] && printf '%s\n' "${OMPI_MCA[@]}"
    else
        printf '%s\n' env
        for v in "$@"; do printf '%s\n' "$v"; done
        [ "$lib" = ompi ] && printf '%s\n' OMPI_MCA_spml_ucx_opal_mem_hooks=0
        printf '%s\n' "${SRUN[@]}"
    fi
}

# osu_args PROG: OSU's options for PROG.
osu_args() {
    if [ "$1" = barrier ]; then echo "-i $ITERS"; else echo "-m $MAX_SIZE -i $ITERS"; fi
}

# ---------------------------------------------------------------- runs
FAILED=0
RESULTS=$WORKDIR/results   # lines "<series> <lib> <prog> <size> <usec>"
: >"$RESULTS"

# run_osu SERIES LIB PROG TAG [VAR=VALUE...]: one job of osu_oshm_PROG;
# its figures to RESULTS unless TAG is warmup.
run_osu() {
    local series=$1 lib=$2 prog=$3 tag=$4 log dir rc cmd
    shift 4
    log=$WORKDIR/$series-$lib-$prog-$tag.log
    dir=$USH_DIR; [ "$lib" = ompi ] && dir=$OMPI_DIR
    mapfile -t cmd < <(launch "$series" "$lib" "$@")
    # shellcheck disable=SC2046  # osu_args: options, split on purpose
    (cd "$WORKDIR" && exec timeout -k 10 "$RUN_TIMEOUT" "${cmd[@]}" "$dir/osu_oshm_$prog" $(osu_args "$prog")) \
        </dev/null >"$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] || ! osu_ok "$prog" "$log"; then
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            echo "$BENCH_NAME: $lib $prog ($series), run $tag: killed after ${RUN_TIMEOUT}s; its output:" >&2
        else
            echo "$BENCH_NAME: $lib $prog ($series), run $tag: exit status $rc, or a size missing; its output:" >&2
        fi
        tail -n 20 "$log" | sed 's/^/    /' >&2
        [ "$tag" = warmup ] || FAILED=1
        return 1
    fi
    [ "$tag" = warmup ] ||
        parse_osu "$log" | awk -v min="$MIN_SIZE" -v pre="$series $lib $prog" \
            '$1 == "-" || $1 >= min { print pre, $1, $2 }' >>"$RESULTS"
}

# Untimed warm-up of each library in each series (the first start pays for
# reading the libraries from disk), with UCX saying which transports it chose.
T0=$(now_us)
for series in $SERIES; do
    echo "warm-up ($series, untimed), with UCX_LOG_LEVEL=info to show the transports chosen ..."
    run_osu "$series" ushmem barrier warmup UCX_LOG_LEVEL=info
    run_osu "$series" ompi barrier warmup UCX_LOG_LEVEL=info
done
for r in $(seq 1 "$ROUNDS"); do
    for series in $SERIES; do
        echo "round $r of $ROUNDS ($series): $PROGS ..."
        for p in $PROGS; do
            run_osu "$series" ushmem "$p" "$r"
            run_osu "$series" ompi "$p" "$r"
        done
    done
done
T1=$(now_us)

# ---------------------------------------------------------------- report
echo
echo "OSU Micro-Benchmarks OpenSHMEM collectives between two netns nodes ($NODE0_IP, $NODE1_IP),"
echo "one PE per node: median over $ROUNDS alternating round(s) of OSU's Avg Latency(us)"
echo "(osu_oshm_PROG $(osu_args reduce); barrier: $(osu_args barrier)); $(nproc) cores;"
echo "the OSU builds took $(( (B1 - B0) / 1000000 )) s, the runs $(( (T1 - T0) / 1000000 )) s (load average now $(cut -d' ' -f1-3 /proc/loadavg))"
echo "OSU:      $OSU"
echo "ushmem:   $PREFIX/bin/oshcc"
echo "Open MPI: $OMPI_OSHCC, with ${OMPI_MCA[*]} (finalize workaround)"
[ -n "${FWD[*]}" ] && echo "environment: ${FWD[*]}"
for series in $SERIES; do
    echo
    if [ "$series" = mpirun ]; then
        echo "series mpirun: both libraries under ${MPIRUN[*]}"
    else
        echo "series srun: both libraries under ${SRUN[*]:2} (private Slurm, a slurmd in each node)"
    fi
    echo "transports UCX chose (from the warm-up runs):"
    [ -f "$WORKDIR/$series-ushmem-barrier-warmup.log" ] &&
        transports "$WORKDIR/$series-ushmem-barrier-warmup.log" | sed 's/^/  ushmem:   /'
    [ -f "$WORKDIR/$series-ompi-barrier-warmup.log" ] &&
        transports "$WORKDIR/$series-ompi-barrier-warmup.log" | sed 's/^/  Open MPI: /'
    echo
    table "$RESULTS" "$series" "$PROGS"
done
echo
echo "size in bytes (barrier: none); ratio = ushmem / Open MPI (above 1: ushmem slower"
echo "on this path, this time). Compare figures of one invocation only."
if [ "$FAILED" != 0 ]; then
    echo
    echo "$BENCH_NAME: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
