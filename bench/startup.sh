#!/bin/bash
# startup.sh: how long a whole OpenSHMEM job takes to start, say hello and
# shut down, with ushmem and with Open MPI's OSHMEM, on this machine.
#
#   startup.sh [--prefix DIR] [--runs N] [--np P] [options]   (see --help)
#
# Both libraries build the same bench/hello.c with their own oshcc and run it
# with their own oshrun. Runs alternate (ushmem, Open MPI, ushmem, ...) so a
# burst of load from someone else on a shared machine hits both alike, and
# the table reports medians, which one slow run cannot move. The script
# measures; it never decides that one side must be faster.
#
# Exit status: 0 every timed run was correct; 1 some run failed (exit status
# not 0, or not one hello line from each PE); 2 usage or build error.

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HELLO_SRC=$SCRIPT_DIR/hello.c

PREFIX=${PREFIX:-}
RUNS=7
NP=4
RUN_TIMEOUT=60
WARMUP=1
ONLY=""
KEEP=0
WORKDIR=""
USH_OSHRUN=""
USH_EXE=""
OMPI_EXE=""
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
# Open MPI 4.1.4's spml/ucx registers a memory-release callback that lives in
# libmca_common_ucx.so and never unregisters it; shmem_finalize unloads that
# library, and the next free() that unmaps memory calls into the hole
# (SIGSEGV after the program's own work is done). With this parameter spml/ucx
# leaves the callback out and relies on UCX's own memory hooks. README.md has
# the details.
OMPI_ARGS="--mca spml_ucx_opal_mem_hooks 0"
MIN_RUNS=5

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

Times 'oshrun -n P ./hello' for ushmem and for Open MPI's OSHMEM, alternating,
and prints the median wall time of each and their ratio (ushmem / Open MPI).

  --prefix DIR        ushmem install prefix (DIR/bin/oshcc, DIR/bin/oshrun);
                      default: \$PREFIX
  --runs N            timed runs per library, at least $MIN_RUNS (default $RUNS)
  --np P              PEs per job (default $NP)
  --timeout S         seconds before one run is killed and counted as failed
                      (default $RUN_TIMEOUT)
  --no-warmup         skip the untimed first run of each library
  --only ushmem|ompi  time one library only (no ratio)
  --ompi-args "ARGS"  extra Open MPI oshrun options
                      (default "$OMPI_ARGS"; "" reproduces the finalize crash)
  --ompi-oshcc PATH   Open MPI's compiler wrapper (default $OMPI_OSHCC)
  --ompi-oshrun PATH  Open MPI's launcher (default $OMPI_OSHRUN)
  --ushmem-oshrun PATH, --ushmem-exe PATH
                      run this launcher / an already built hello instead of
                      the ones under --prefix (used by the build-tree test)
  --workdir DIR       build and log here and keep it (default: a temporary
                      directory, removed at exit unless --keep)
  --keep              keep the temporary directory (its path is printed)
  --self-test         check this script's own arithmetic and output checks
  -h, --help          this text
EOF
}

die() {
    echo "startup.sh: $*" >&2
    exit 2
}

# ---------------------------------------------------------------- helpers
# median, min_max, ratio, hello_ok, now_us and bench_self_test.
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
BENCH_NAME=startup.sh

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)        PREFIX=${2-}; shift ;;
        --prefix=*)      PREFIX=${1#*=} ;;
        --runs)          RUNS=${2-}; shift ;;
        --runs=*)        RUNS=${1#*=} ;;
        --np)            NP=${2-}; shift ;;
        --np=*)          NP=${1#*=} ;;
        --timeout)       RUN_TIMEOUT=${2-}; shift ;;
        --timeout=*)     RUN_TIMEOUT=${1#*=} ;;
        --no-warmup)     WARMUP=0 ;;
        --only)          ONLY=${2-}; shift ;;
        --only=*)        ONLY=${1#*=} ;;
        --ompi-args)     OMPI_ARGS=${2-}; shift ;;
        --ompi-args=*)   OMPI_ARGS=${1#*=} ;;
        --ompi-oshcc)    OMPI_OSHCC=${2-}; shift ;;
        --ompi-oshrun)   OMPI_OSHRUN=${2-}; shift ;;
        --ushmem-oshrun) USH_OSHRUN=${2-}; shift ;;
        --ushmem-exe)    USH_EXE=${2-}; shift ;;
        --workdir)       WORKDIR=${2-}; shift ;;
        --keep)          KEEP=1 ;;
        --self-test)     bench_self_test; exit $? ;;
        -h|--help)       usage; exit 0 ;;
        *)               usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

check_run_options
case $ONLY in ''|ushmem|ompi) ;; *) die "--only takes 'ushmem' or 'ompi', not '$ONLY'" ;; esac
[ -r "$HELLO_SRC" ] || die "cannot read $HELLO_SRC"
command -v timeout >/dev/null || die "needs 'timeout' (Debian package coreutils)"

DO_USH=1; DO_OMPI=1
[ "$ONLY" = ompi ] && DO_USH=0
[ "$ONLY" = ushmem ] && DO_OMPI=0

if [ "$DO_USH" = 1 ]; then
    if [ -z "$USH_OSHRUN" ] || [ -z "$USH_EXE" ]; then
        [ -n "$PREFIX" ] || die "give the ushmem install prefix: --prefix DIR (or PREFIX=DIR), or --only ompi"
        abs=$(cd "$PREFIX" 2>/dev/null && pwd) || die "install prefix '$PREFIX' does not exist (run 'make install' first)"
        PREFIX=$abs
    fi
    [ -n "$USH_OSHRUN" ] || USH_OSHRUN=$PREFIX/bin/oshrun
    [ -x "$USH_OSHRUN" ] || die "ushmem launcher '$USH_OSHRUN' not found or not executable"
    if [ -z "$USH_EXE" ]; then
        [ -x "$PREFIX/bin/oshcc" ] || die "ushmem compiler wrapper '$PREFIX/bin/oshcc' not found or not executable"
    fi
fi
if [ "$DO_OMPI" = 1 ]; then
    for tool in "$OMPI_OSHCC" "$OMPI_OSHRUN"; do
        [ -x "$tool" ] ||
            die "Open MPI's '$tool' not found (Debian packages openmpi-bin, libopenmpi-dev), or use --only ushmem"
    done
fi

if [ -n "$WORKDIR" ]; then
    mkdir -p "$WORKDIR" || die "cannot create --workdir '$WORKDIR'"
    WORKDIR=$(cd "$WORKDIR" && pwd)
else
    WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-startup.XXXXXX") || die "mktemp failed"
    if [ "$KEEP" = 1 ]; then
        echo "startup.sh: keeping build and logs in $WORKDIR"
    else
        trap 'rm -rf "$WORKDIR"' EXIT
    fi
fi

# ---------------------------------------------------------------- build
build() { # build LABEL WRAPPER OUTPUT
    if ! "$2" -O2 "$HELLO_SRC" -o "$3" >"$WORKDIR/build-$1.log" 2>&1; then
        echo "startup.sh: building hello.c with $2 failed:" >&2
        cat "$WORKDIR/build-$1.log" >&2
        exit 2
    fi
}
if [ "$DO_USH" = 1 ]; then
    if [ -n "$USH_EXE" ]; then
        [ -x "$USH_EXE" ] || die "--ushmem-exe '$USH_EXE' is not an executable"
    else
        USH_EXE=$WORKDIR/hello_ushmem
        build ushmem "$PREFIX/bin/oshcc" "$USH_EXE"
    fi
fi
if [ "$DO_OMPI" = 1 ]; then
    OMPI_EXE=$WORKDIR/hello_ompi
    build ompi "$OMPI_OSHCC" "$OMPI_EXE"
fi

# The command lines, as arrays so paths with spaces survive. OMPI_ARGS is
# split on blanks on purpose: it is a list of options.
# shellcheck disable=SC2206
OMPI_CMD=("$OMPI_OSHRUN" --allow-run-as-root --oversubscribe -np "$NP" $OMPI_ARGS ${OMPI_EXE:+"$OMPI_EXE"})
USH_CMD=("$USH_OSHRUN" -n "$NP" ${USH_EXE:+"$USH_EXE"})

# ---------------------------------------------------------------- runs
FAILED=0

rm -f "$WORKDIR"/times-* "$WORKDIR"/fails-*
: >"$WORKDIR/times-ushmem"; : >"$WORKDIR/times-ompi"
: >"$WORKDIR/fails-ushmem"; : >"$WORKDIR/fails-ompi"

if [ "$WARMUP" = 1 ]; then
    # Not timed: the first start of each pays for loading libraries from
    # disk, which says more about the page cache than about the library.
    [ "$DO_USH" = 1 ]  && run_once ushmem warmup "${USH_CMD[@]}"
    [ "$DO_OMPI" = 1 ] && run_once ompi warmup "${OMPI_CMD[@]}"
fi
for i in $(seq 1 "$RUNS"); do
    [ "$DO_USH" = 1 ]  && run_once ushmem "$i" "${USH_CMD[@]}"
    [ "$DO_OMPI" = 1 ] && run_once ompi "$i" "${OMPI_CMD[@]}"
done

# ---------------------------------------------------------------- report
row() { # row LABEL NAME
    local ok nfail med lo hi
    ok=$(wc -l <"$WORKDIR/times-$1")
    nfail=$(wc -l <"$WORKDIR/fails-$1")
    med=$(median <"$WORKDIR/times-$1")
    read -r lo hi < <(min_max <"$WORKDIR/times-$1")
    printf '%-10s %7s %10s %10s %10s\n' "$2" "$ok/$((ok + nfail))" "$med" "$lo" "$hi"
}

echo
echo "start-up of hello.c on $NP PEs: wall time of 'oshrun ... ./hello' in ms,"
echo "$RUNS runs per library, alternating$([ "$WARMUP" = 1 ] && echo ", after one untimed warm-up run each")"
[ "$DO_USH" = 1 ]  && echo "ushmem:   ${USH_CMD[*]}"
[ "$DO_OMPI" = 1 ] && echo "Open MPI: ${OMPI_CMD[*]}"
echo
printf '%-10s %7s %10s %10s %10s\n' library ok median min max
[ "$DO_USH" = 1 ]  && row ushmem ushmem
[ "$DO_OMPI" = 1 ] && row ompi "Open MPI"
if [ "$DO_USH" = 1 ] && [ "$DO_OMPI" = 1 ]; then
    r=$(ratio "$(median <"$WORKDIR/times-ushmem")" "$(median <"$WORKDIR/times-ompi")")
    echo
    echo "ratio ushmem / Open MPI (medians): $r   (below 1: ushmem started faster on this machine, this time)"
fi
if [ "$FAILED" != 0 ]; then
    echo
    echo "startup.sh: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
