#!/bin/bash
# exchange.sh: the buffered exchange (exchange.c) on one node, built
# against ushmem and against Debian's Open MPI OSHMEM, run alternating.
#
#   exchange.sh [--np "2 4"] [--busy "0 2"] [--rounds R] [options]
#
# exchange.c is the communication of bale-style applications: every PE
# streams small items through per-destination batches (putmem_nbi, fence,
# an atomic signal), and polls its inboxes with shmem_test while it goes on
# sending. It is where a library's waiting policy shows: a failed poll is
# not a wait, and the PE a poll waits for may need this core. Each round
# runs ushmem's build under its oshrun, then Open MPI's under its oshrun,
# for every PE count and mode (batched: one putmem_nbi per batch; per item:
# one per item); --busy repeats the set beside that many busy loops.
#
# The table gives, per series (busy loops), PE count and mode: each
# library's median over rounds of the program's own median time of one
# exchange (ms), their ratio, the rounds with a figure, each library's
# spread, and the 1-minute load average. It measures, never judges.
#
# Exit status: 0 every run was correct (the program checks what every PE
# received); 1 some run failed; 2 usage, set-up or build error.

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

BENCH_NAME=exchange.sh
PREFIX=${PREFIX:-$SCRIPT_DIR/../build/install}
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
OMPI_ARGS=(--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0)
ROUNDS=3
NPS="2 4"
BUSY="0"
MODES="batch item"
ITEMS=200000
BATCH=64
RUNS_IN=5
RUN_TIMEOUT=300
OUT=$SCRIPT_DIR/../build/bench-results/exchange.txt
KEEP=0

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

The buffered exchange of exchange.c on this node, built with ushmem's
oshcc and with Open MPI's ($OMPI_OSHCC), each run under its library's
oshrun in alternating rounds; per series, PE count and mode the median of
each library's time of one exchange (ms), the ratio ushmem / Open MPI, the
rounds, the spread and the load average.

  --prefix DIR     the installed ushmem (DIR/bin/oshcc, DIR/bin/oshrun)
                   (default: \$PREFIX, else build/install of this tree)
  --np "LIST"      PE counts (default "$NPS")
  --rounds R       alternating rounds (default $ROUNDS)
  --busy "LIST"    a series per count of busy loops beside the PEs
                   (default "$BUSY": none)
  --modes "LIST"   batch (one putmem_nbi per batch), item (one per item)
                   (default "$MODES")
  --items N        items each PE sends per exchange (default $ITEMS)
  --batch B        items per batch (default $BATCH)
  --runs N         timed exchanges per job, after one untimed (default $RUNS_IN)
  --timeout S      seconds before one job is killed and counted as failed
                   (default $RUN_TIMEOUT)
  --out FILE       the table, also printed (default build/bench-results/exchange.txt)
  --keep           keep the work directory (builds, logs) and print its path
  --self-test      check this script's parsing and arithmetic, then exit
  -h, --help       this text

UCX_* and SHMEM_* variables set in the caller's environment reach the PEs
of both libraries. Debian packages: openmpi-bin libopenmpi-dev.
EOF
}

die() {
    echo "$BENCH_NAME: $*" >&2
    exit 2
}

# parse_exchange LOG: the median time (ms) from exchange.c's summary line
# ("exchange npes N items N batch N ms MEDIAN MIN MAX mitems_s RATE").
parse_exchange() {
    awk '$1 == "exchange" && $2 == "npes" && $8 == "ms" && $9 ~ /^[0-9]+(\.[0-9]+)?$/ { print $9 }' "$1"
}

self_test() {
    local fails=0 tmp
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks (run startup.sh --self-test)"; fails=1; }
    tmp=$(mktemp) || { echo "self-test: mktemp failed"; return 1; }
    xcheck() { if [ "$2" != "$3" ]; then echo "self-test FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)); fi; }
    printf '# exchange: 4 PEs\nrun 1 ms 52.1\nexchange npes 4 items 200000 batch 64 ms 51.409 46.720 58.937 mitems_s 15.56\n' >"$tmp"
    xcheck "parse_exchange" "51.409" "$(parse_exchange "$tmp")"
    printf 'exchange: PE 1 row sum 3, expected 4\n' >"$tmp"
    xcheck "parse_exchange none" "" "$(parse_exchange "$tmp")"
    printf '%s\n' "0 4 ushmem exchange batch 50 0.5" "0 4 ompi exchange batch 6400 0.6" \
        "0 4 ushmem exchange batch 60 0.7" "0 4 ompi exchange batch 6500 0.8" >"$tmp"
    xcheck "table" "0 4 exchange batch 55.00 6450.00 0.01 2/2" \
        "$(ab_table "$tmp" | awk 'NR == 2 { print $1, $2, $3, $4, $5, $6, $7, $8 }')"
    rm -f "$tmp"
    self_test_verdict "$fails"
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)    PREFIX=${2-}; shift ;;
        --np)        NPS=${2-}; shift ;;
        --rounds)    ROUNDS=${2-}; shift ;;
        --busy)      BUSY=${2-}; shift ;;
        --modes)     MODES=${2-}; shift ;;
        --items)     ITEMS=${2-}; shift ;;
        --batch)     BATCH=${2-}; shift ;;
        --runs)      RUNS_IN=${2-}; shift ;;
        --timeout)   RUN_TIMEOUT=${2-}; shift ;;
        --out)       OUT=${2-}; shift ;;
        --keep)      KEEP=1 ;;
        --self-test) self_test; exit $? ;;
        -h|--help)   usage; exit 0 ;;
        *)           usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$ROUNDS" 1 || die "--rounds must be a whole number of at least 1, not '$ROUNDS'"
at_least "$ITEMS" 1 || die "--items must be a whole number of at least 1, not '$ITEMS'"
at_least "$BATCH" 1 || die "--batch must be a whole number of at least 1, not '$BATCH'"
at_least "$RUNS_IN" 1 || die "--runs must be a whole number of at least 1, not '$RUNS_IN'"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
for n in $NPS; do at_least "$n" 1 || die "--np takes PE counts of at least 1, not '$n'"; done
[ -n "${NPS// /}" ] || die "--np names no PE count"
for b in $BUSY; do is_uint "$b" || die "--busy takes counts of busy loops, not '$b'"; done
[ -n "${BUSY// /}" ] || die "--busy names no series (0: none)"
for m in $MODES; do case $m in batch|item) ;; *) die "--modes takes batch and item, not '$m'" ;; esac; done
[ -n "${MODES// /}" ] || die "--modes names no mode"

{ [ -x "$PREFIX/bin/oshcc" ] && [ -x "$PREFIX/bin/oshrun" ]; } ||
    die "ushmem's '$PREFIX/bin/oshcc' and oshrun not found: make install first, or give --prefix DIR"
PREFIX=$(cd "$PREFIX" && pwd)
MISSING=""
command -v timeout >/dev/null || MISSING="$MISSING coreutils"
[ -x "$OMPI_OSHCC" ] || MISSING="$MISSING libopenmpi-dev"
[ -x "$OMPI_OSHRUN" ] || MISSING="$MISSING openmpi-bin"
[ -z "$MISSING" ] ||
    die "missing Debian packages:$MISSING (apt-get install --no-install-recommends$MISSING)"

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-exchange.XXXXXX") || die "mktemp failed"
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    stop_busy
    if [ "$KEEP" = 1 ]; then echo "$BENCH_NAME: work directory kept in $WORKDIR"; else rm -rf "$WORKDIR"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- build
for lib in ushmem ompi; do
    cc=$OMPI_OSHCC
    [ "$lib" = ushmem ] && cc=$PREFIX/bin/oshcc
    "$cc" -O2 -I"$SCRIPT_DIR" "$SCRIPT_DIR/exchange.c" -o "$WORKDIR/exchange-$lib" \
        >"$WORKDIR/build-$lib.log" 2>&1 ||
        { sed 's/^/    /' "$WORKDIR/build-$lib.log" >&2; die "building exchange.c with $cc failed"; }
done

# ---------------------------------------------------------------- runs
FAILED=0
RESULTS=$WORKDIR/results   # lines "BUSY NP LIB exchange MODE MS LOAD"
: >"$RESULTS"

# run_exchange BUSY NP LIB MODE TAG: one job; its figure to RESULTS
# unless TAG is warmup.
run_exchange() {
    local busy=$1 np=$2 lib=$3 mode=$4 tag=$5 log load cmd args
    log=$WORKDIR/$busy-$np-$lib-$mode-$tag.log
    args=(-n "$ITEMS" -b "$BATCH" -r "$RUNS_IN")
    [ "$mode" = item ] && args+=(-i)
    if [ "$lib" = ushmem ]; then
        cmd=("$PREFIX/bin/oshrun" -n "$np")
    else
        cmd=("$OMPI_OSHRUN" "${OMPI_ARGS[@]}" -np "$np")
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    ab_job "$log" "$lib on $np PEs ($mode) beside $busy busy loops" "$tag" parse_exchange \
        "${cmd[@]}" "$WORKDIR/exchange-$lib" "${args[@]}" || return 1
    [ "$tag" = warmup ] || echo "$busy $np $lib exchange $mode $(parse_exchange "$log") $load" >>"$RESULTS"
}

T0=$(now_us)
for busy in $BUSY; do
    start_busy "$busy"
    echo "beside $busy busy loop(s): warm-up (untimed), then $ROUNDS round(s) at $NPS PEs: $MODES ..."
    read -r np _ <<<"$NPS"
    run_exchange "$busy" "$np" ushmem batch warmup
    run_exchange "$busy" "$np" ompi batch warmup
    for r in $(seq 1 "$ROUNDS"); do
        for np in $NPS; do
            for m in $MODES; do
                run_exchange "$busy" "$np" ushmem "$m" "$r"
                run_exchange "$busy" "$np" ompi "$m" "$r"
            done
        done
    done
    stop_busy
done
T1=$(now_us)

# ---------------------------------------------------------------- report
mkdir -p "$(dirname "$OUT")"
{
    echo "Buffered exchange (bench/exchange.c) on one node ($(nproc) cores, $(uname -m)):"
    echo "median over $ROUNDS alternating round(s) of each job's median time of one exchange (ms):"
    echo "$ITEMS items of 16 bytes per PE in batches of $BATCH, $RUNS_IN timed exchanges a job;"
    echo "the runs took $(( (T1 - T0) / 1000000 )) s; $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "ushmem:   $PREFIX/bin/oshrun -n NP"
    echo "Open MPI: $OMPI_OSHRUN ${OMPI_ARGS[*]} -np NP"
    echo
    ab_table "$RESULTS"
    echo
    echo "busy: busy loops beside the PEs; size: batch (one putmem_nbi per batch) or item"
    echo "(one per item); ratio = ushmem / Open MPI (above 1: ushmem slower, this time);"
    echo "runs: rounds with a figure, ushmem/Open MPI; load: the 1-minute load average."
} >"$OUT"
cat "$OUT"
if [ "$FAILED" != 0 ]; then
    echo
    echo "$BENCH_NAME: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
