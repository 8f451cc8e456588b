#!/bin/bash
# osu.sh: OSU Micro-Benchmarks 7.4's OpenSHMEM programs on one node, built
# against ushmem and against Debian's Open MPI OSHMEM, run alternating.
#
#   osu.sh --osu TARBALL [--np "2 4 8"] [--rounds R] [--busy "0 2"] [options]
#
# It unpacks the OSU tarball (given, never looked for) twice, builds
# c/openshmem with each library's oshcc, and runs each program with each
# library's own launcher: ushmem's oshrun, Open MPI's oshrun. Rounds
# alternate (ushmem's run of a program, then Open MPI's, then the next
# program, PE count and round), so load from elsewhere falls on both.
# put, get and atomics run on 2 PEs (OSU's point-to-point programs take
# exactly two); barrier, broadcast, reduce, fcollect and collect at every
# PE count. --busy runs the whole set again beside that many busy loops
# (one process each spinning in the shell), a node shared with other work.
#
# The table gives, per series (busy loops), PE count, program and size:
# the median over rounds of OSU's latency for each library (us), their
# ratio, the rounds that gave a figure, each library's spread (smallest and
# largest) and the 1-minute load average over the series' runs. The script
# measures and never decides who must be faster.
#
# Exit status: 0 every run was correct; 1 some run failed; 2 usage, set-up
# or build error (a package missing, among others).

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
# shellcheck source=osu_lib.sh
. "$SCRIPT_DIR/osu_lib.sh"

BENCH_NAME=osu.sh
PREFIX=${PREFIX:-$SCRIPT_DIR/../build/install}
OSU=${OSU_TARBALL:-}
ROUNDS=3
MIN_ROUNDS=1
NPS="2 4 8"
BUSY="0"
P2P_PROGS="put get atomics"
COLL_PROGS="barrier broadcast reduce fcollect collect"
ALL_PROGS="$P2P_PROGS $COLL_PROGS"
ONLY=$ALL_PROGS
MIN_SIZE=8
MAX_SIZE=65536
ITERS=""
RUN_TIMEOUT=600
KEEP=0
OUT=$SCRIPT_DIR/../build/bench-results/osu.txt
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
# spml_ucx_opal_mem_hooks 0: Open MPI 4.1.4 otherwise dies in
# shmem_finalize (README.md); as suite.sh runs it.
OMPI_ARGS=(--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0)

usage() {
    cat <<EOF
usage: $(basename "$0") --osu TARBALL [options]

OSU Micro-Benchmarks' OpenSHMEM programs on this node, built with ushmem's
oshcc and with Open MPI's ($OMPI_OSHCC), each run under its library's
oshrun in alternating rounds; per program, PE count and size the median of
OSU's latency (us) of each library, the ratio ushmem / Open MPI, the rounds,
the spread and the load average.

  --osu TARBALL    OSU Micro-Benchmarks 7.4 source tarball (default:
                   \$OSU_TARBALL; required)
  --prefix DIR     the installed ushmem (DIR/bin/oshcc, DIR/bin/oshrun)
                   (default: \$PREFIX, else build/install of this tree)
  --np "LIST"      PE counts of the collectives (default "$NPS"); put, get
                   and atomics run on 2 PEs when 2 is in the list
  --rounds R       alternating rounds (default $ROUNDS)
  --busy "LIST"    a series per count of busy loops beside the PEs
                   (default "$BUSY": none)
  --only "LIST"    programs, of: $ALL_PROGS (default all)
  --sizes MIN:MAX  sizes in bytes the table shows, and OSU's -m for the
                   collectives (default $MIN_SIZE:$MAX_SIZE; k and m suffixes)
  --iters N        OSU's -i for the collectives (default: OSU's own counts)
  --timeout S      seconds before one run is killed and counted as failed
                   (default $RUN_TIMEOUT)
  --out FILE       the table, also printed (default build/bench-results/osu.txt)
  --keep           keep the work directory (OSU builds, logs) and print its path
  --self-test      check this script's parsing and arithmetic, then exit
  -h, --help       this text

UCX_* and SHMEM_* variables set in the caller's environment reach the PEs
of both libraries. Debian packages: openmpi-bin libopenmpi-dev autoconf
automake libtool (make -C bench osu installs them).
EOF
}

die() {
    echo "$BENCH_NAME: $*" >&2
    exit 2
}

# bytes VALUE: VALUE with a k or m suffix in bytes; empty if malformed.
bytes() {
    case $1 in
        *[kK]) is_uint "${1%?}" && echo $(( ${1%?} * 1024 )) ;;
        *[mM]) is_uint "${1%?}" && echo $(( ${1%?} * 1048576 )) ;;
        *)     is_uint "$1" && echo "$1" ;;
    esac
}

is_p2p() { case " $P2P_PROGS " in *" $1 "*) return 0 ;; esac; return 1; }

# osu_args PROG: OSU's arguments for PROG.
osu_args() {
    if is_p2p "$1"; then echo heap; return; fi
    [ "$1" = barrier ] || printf -- '-m %s ' "$MAX_SIZE"
    [ -z "$ITERS" ] || printf -- '-i %s' "$ITERS"
    echo
}

# shown PROG SIZE: the table shows this row (barrier: "-"; atomics: every
# operation; else sizes within MIN_SIZE..MAX_SIZE).
shown() {
    case $2 in
        -|shmem_*) return 0 ;;
    esac
    [ "$2" -ge "$MIN_SIZE" ] && [ "$2" -le "$MAX_SIZE" ]
}

self_test() {
    local fails=0 tmp
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks (run startup.sh --self-test)"; fails=1; }
    tmp=$(mktemp) || { echo "self-test: mktemp failed"; return 1; }
    xcheck() { if [ "$2" != "$3" ]; then echo "self-test FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi; }
    printf '# OSU OpenSHMEM Barrier Latency Test v7.4\n# Avg Latency(us)\n             12.39\n' >"$tmp"
    xcheck "parse_osu barrier" "- 12.39" "$(parse_osu "$tmp")"
    printf '# OSU OpenSHMEM Put Test v7.4\n# Size             Latency (us)\n1                       0.13\n4194304              1021.77\n' >"$tmp"
    xcheck "parse_osu put" "1 0.13|4194304 1021.77" "$(parse_osu "$tmp" | paste -sd'|')"
    printf '# OSU OpenSHMEM Atomic Operation Rate Test v7.4\n# Operation           Million ops/s     Latency (us)\nshmem_int_fadd                6.12             0.16\nshmem_longlong_cswap          5.01             0.20\n' >"$tmp"
    xcheck "parse_osu atomics" "shmem_int_fadd 0.16|shmem_longlong_cswap 0.20" "$(parse_osu "$tmp" | paste -sd'|')"
    xcheck "bytes" "8 65536 1048576" "$(bytes 8) $(bytes 64k) $(bytes 1m)"
    xcheck "bytes bad" "" "$(bytes 6x)"
    shown reduce 4; xcheck "shown below MIN_SIZE" 1 $?
    shown reduce 8; xcheck "shown MIN_SIZE" 0 $?
    shown reduce 131072; xcheck "shown above MAX_SIZE" 1 $?
    shown atomics shmem_int_fadd; xcheck "shown atomics" 0 $?
    xcheck "osu_args put" "heap" "$(osu_args put)"
    xcheck "osu_args reduce" "-m $MAX_SIZE" "$(osu_args reduce | sed 's/ *$//')"
    xcheck "osu_args barrier" "" "$(osu_args barrier)"
    printf '%s\n' "0 4 ushmem reduce 8 5.00 1.10" "0 4 ompi reduce 8 2.50 1.30" \
        "0 4 ushmem reduce 8 7.00 2.00" "0 4 ompi reduce 8 3.50 1.50" "0 4 ushmem reduce 8 6.00 1.20" \
        "2 4 ushmem barrier - 40.00 3.10" "2 4 ompi barrier - 20.00 3.00" >"$tmp"
    xcheck "table reduce" "0 4 reduce 8 6.00 3.00 2.00 3/2 5.00-7.00 2.50-3.50 1.1-2.0" \
        "$(ab_table "$tmp" | awk '$3 == "reduce" { print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }')"
    xcheck "table busy series" "2 4 barrier - 40.00 20.00 2.00 1/1" \
        "$(ab_table "$tmp" | awk '$3 == "barrier" { print $1, $2, $3, $4, $5, $6, $7, $8 }')"
    xcheck "table rows" 3 "$(ab_table "$tmp" | wc -l)"
    rm -f "$tmp"
    self_test_verdict "$fails"
}

# ---------------------------------------------------------------- options
SIZES=""
while [ $# -gt 0 ]; do
    case $1 in
        --osu)       OSU=${2-}; shift ;;
        --prefix)    PREFIX=${2-}; shift ;;
        --np)        NPS=${2-}; shift ;;
        --rounds)    ROUNDS=${2-}; shift ;;
        --busy)      BUSY=${2-}; shift ;;
        --only)      ONLY=${2-}; shift ;;
        --sizes)     SIZES=${2-}; shift ;;
        --iters)     ITERS=${2-}; shift ;;
        --timeout)   RUN_TIMEOUT=${2-}; shift ;;
        --out)       OUT=${2-}; shift ;;
        --keep)      KEEP=1 ;;
        --self-test) self_test; exit $? ;;
        -h|--help)   usage; exit 0 ;;
        *)           usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$ROUNDS" "$MIN_ROUNDS" || die "--rounds must be a whole number of at least $MIN_ROUNDS, not '$ROUNDS'"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
[ -z "$ITERS" ] || at_least "$ITERS" 1 || die "--iters must be a whole number of at least 1, not '$ITERS'"
for n in $NPS; do at_least "$n" 2 || die "--np takes PE counts of at least 2, not '$n'"; done
[ -n "${NPS// /}" ] || die "--np names no PE count"
for b in $BUSY; do is_uint "$b" || die "--busy takes counts of busy loops, not '$b'"; done
[ -n "${BUSY// /}" ] || die "--busy names no series (0: none)"
if [ -n "$SIZES" ]; then
    MIN_SIZE=$(bytes "${SIZES%%:*}"); MAX_SIZE=$(bytes "${SIZES#*:}")
    { [ -n "$MIN_SIZE" ] && [ -n "$MAX_SIZE" ] && [ "$MIN_SIZE" -le "$MAX_SIZE" ]; } ||
        die "--sizes takes MIN:MAX in bytes (k, m suffixes), not '$SIZES'"
fi
select_progs

[ -n "$OSU" ] || die "give the OSU Micro-Benchmarks 7.4 tarball: --osu TARBALL (or OSU_TARBALL=...)"
{ [ -f "$OSU" ] && [ -r "$OSU" ]; } || die "--osu '$OSU' is not a readable file"
OSU=$(cd "$(dirname "$OSU")" && pwd)/$(basename "$OSU")
{ [ -x "$PREFIX/bin/oshcc" ] && [ -x "$PREFIX/bin/oshrun" ]; } ||
    die "ushmem's '$PREFIX/bin/oshcc' and oshrun not found: make install first, or give --prefix DIR"
PREFIX=$(cd "$PREFIX" && pwd)
MISSING=""
for tool in timeout:coreutils tar:tar make:make gcc:gcc autoreconf:autoconf automake:automake \
            libtoolize:libtool; do
    command -v "${tool%%:*}" >/dev/null || MISSING="$MISSING ${tool#*:}"
done
[ -x "$OMPI_OSHCC" ] || MISSING="$MISSING libopenmpi-dev"
[ -x "$OMPI_OSHRUN" ] || MISSING="$MISSING openmpi-bin"
[ -z "$MISSING" ] ||
    die "missing Debian packages:$MISSING (apt-get install --no-install-recommends$MISSING;" \
        "or make -C bench osu, which installs them)"

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-osu.XXXXXX") || die "mktemp failed"
BUILD_PIDS=""
BUSY_PIDS=""
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    local rc=$? pid
    trap - EXIT INT TERM HUP
    for pid in $BUILD_PIDS; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null; done
    stop_busy
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

# ---------------------------------------------------------------- runs
FAILED=0
RESULTS=$WORKDIR/results   # lines "BUSY NP LIB PROG SIZE USEC LOAD"
: >"$RESULTS"

# run_osu BUSY NP LIB PROG TAG: one job; its figures to RESULTS unless TAG
# is warmup.
run_osu() {
    local busy=$1 np=$2 lib=$3 prog=$4 tag=$5 log rc load cmd
    log=$WORKDIR/$busy-$np-$lib-$prog-$tag.log
    if [ "$lib" = ushmem ]; then
        cmd=("$PREFIX/bin/oshrun" -n "$np" "$WORKDIR/osu-ushmem/c/openshmem/osu_oshm_$prog")
    else
        cmd=("$OMPI_OSHRUN" "${OMPI_ARGS[@]}" -np "$np" "$WORKDIR/osu-ompi/c/openshmem/osu_oshm_$prog")
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2046  # osu_args: arguments, split on purpose
    ab_job "$log" "$lib $prog on $np PEs beside $busy busy loops" "$tag" parse_osu \
        "${cmd[@]}" $(osu_args "$prog")
    rc=$?
    # What a run printed before it failed was measured all the same
    # (Open MPI 4.1.4's osu_oshm_atomics aborts at shmem_int_cswap).
    [ "$tag" = warmup ] && return "$rc"
    parse_osu "$log" | while read -r size usec; do
        shown "$prog" "$size" && echo "$busy $np $lib $prog $size $usec $load"
    done >>"$RESULTS"
    return "$rc"
}

T0=$(now_us)
for busy in $BUSY; do
    start_busy "$busy"
    echo "beside $busy busy loop(s): warm-up (untimed), then $ROUNDS round(s) at $NPS PEs: $PROGS ..."
    run_osu "$busy" 2 ushmem barrier warmup
    run_osu "$busy" 2 ompi barrier warmup
    for r in $(seq 1 "$ROUNDS"); do
        for np in $NPS; do
            for p in $PROGS; do
                if is_p2p "$p" && [ "$np" -ne 2 ]; then continue; fi
                run_osu "$busy" "$np" ushmem "$p" "$r"
                run_osu "$busy" "$np" ompi "$p" "$r"
            done
        done
    done
    stop_busy
done
T1=$(now_us)

# ---------------------------------------------------------------- report
mkdir -p "$(dirname "$OUT")"
{
    echo "OSU Micro-Benchmarks OpenSHMEM on one node ($(nproc) cores, $(uname -m)):"
    echo "median over $ROUNDS alternating round(s) of OSU's latency (us); put, get, atomics"
    echo "on 2 PEs ('osu_oshm_PROG heap'), collectives 'osu_oshm_PROG $(osu_args reduce | sed 's/ *$//')'"
    echo "(barrier: '$(osu_args barrier | sed 's/ *$//')'); the OSU builds took $(( (B1 - B0) / 1000000 )) s, the runs"
    echo "$(( (T1 - T0) / 1000000 )) s; $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "OSU:      $OSU"
    echo "ushmem:   $PREFIX/bin/oshrun -n NP"
    echo "Open MPI: $OMPI_OSHRUN ${OMPI_ARGS[*]} -np NP"
    echo
    ab_table "$RESULTS"
    echo
    echo "busy: busy loops beside the PEs; size in bytes (barrier: none; atomics: the operation);"
    echo "ratio = ushmem / Open MPI (above 1: ushmem slower, this time); runs: rounds with a"
    echo "figure, ushmem/Open MPI; load: the 1-minute load average before those runs."
} >"$OUT"
cat "$OUT"
if [ "$FAILED" != 0 ]; then
    echo
    echo "$BENCH_NAME: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
