#!/bin/bash
# launch.sh: how long a 4-PE ushmem hello takes from launch to exit under
# each launcher that can start it: ushmem's own oshrun, Open MPI's mpirun
# (as PMIx server) and, when a Slurm answers, srun --mpi=pmix.
#
#   launch.sh [--prefix DIR | --oshrun PATH --exe PATH] [--runs N] [options]
#
# The same hello.c binary, linked with ushmem, is started by every launcher.
# Runs alternate (oshrun, mpirun, srun, oshrun, ...) after one untimed
# warm-up each, so a burst of load from elsewhere falls on all alike, and the
# table reports medians. It never starts Slurm: bring one up first (and
# export SLURM_CONF) to include srun. It measures; it never decides.
#
# Exit status: 0 every timed run was correct; 1 some run failed (exit status
# not 0, or not one hello line from each PE); 2 usage or build error.

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
BENCH_NAME=launch.sh

PREFIX=${PREFIX:-}
OSHRUN=""
EXE=""
RUNS=5
NP=4
RUN_TIMEOUT=60
WARMUP=1
ONLY=""
KEEP=0
# mpirun: root needs --allow-run-as-root; 4 PEs on a 2-core machine need
# --oversubscribe; --bind-to none matches oshrun's default (no binding), so
# the launchers differ in launching, not in placement.
MPIRUN_ARGS="--allow-run-as-root --oversubscribe --bind-to none"
SRUN_ARGS="--mpi=pmix"
MIN_RUNS=5

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

Times a ushmem hello on P PEs under oshrun, mpirun and (when a Slurm answers)
srun, alternating, and prints the median wall time of each launcher.

  --prefix DIR        ushmem install prefix: builds hello.c with DIR/bin/oshcc
                      and times DIR/bin/oshrun (default: \$PREFIX)
  --oshrun PATH, --exe PATH
                      time this oshrun and this hello binary instead (e.g.
                      build/launcher/oshrun and build/bench/bench_hello)
  --runs N            timed runs per launcher, at least $MIN_RUNS (default $RUNS)
  --np P              PEs per job (default $NP)
  --timeout S         seconds before one run is killed and counted as failed
                      (default $RUN_TIMEOUT)
  --no-warmup         skip the untimed first run of each launcher
  --only "L1 L2"      time only these of: oshrun mpirun srun
  --mpirun-args "A"   mpirun's options (default "$MPIRUN_ARGS")
  --srun-args "A"     srun's options (default "$SRUN_ARGS")
  --keep              keep the work directory (build, logs) and print its path
  --self-test         check this script's arithmetic and output checks, then exit
  -h, --help          this text

srun is timed when SLURM_CONF is set and 'sinfo' answers (e.g. after
'eval "\$(slurm-local env)"' with the cluster tooling's Slurm up).
EOF
}

die() {
    echo "launch.sh: $*" >&2
    exit 2
}

# slurm_reachable: a Slurm we may use: SLURM_CONF set, srun and sinfo
# installed, and the controller answering within 10 s.
slurm_reachable() {
    [ -n "${SLURM_CONF:-}" ] && command -v srun >/dev/null && command -v sinfo >/dev/null &&
        timeout 10 sinfo -h >/dev/null 2>&1
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)      PREFIX=${2-}; shift ;;
        --oshrun)      OSHRUN=${2-}; shift ;;
        --exe)         EXE=${2-}; shift ;;
        --runs)        RUNS=${2-}; shift ;;
        --np)          NP=${2-}; shift ;;
        --timeout)     RUN_TIMEOUT=${2-}; shift ;;
        --no-warmup)   WARMUP=0 ;;
        --only)        ONLY=${2-}; shift ;;
        --mpirun-args) MPIRUN_ARGS=${2-}; shift ;;
        --srun-args)   SRUN_ARGS=${2-}; shift ;;
        --keep)        KEEP=1 ;;
        --self-test)   bench_self_test; exit $? ;;
        -h|--help)     usage; exit 0 ;;
        *)             usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

check_run_options
command -v timeout >/dev/null || die "needs 'timeout' (Debian package coreutils)"

# Which launchers: asked for (--only) or all that are here.
LAUNCHERS=""
for l in ${ONLY:-oshrun mpirun srun}; do
    case $l in
        oshrun) ;;
        mpirun)
            if ! command -v mpirun >/dev/null; then
                [ -n "$ONLY" ] && die "mpirun not found (Debian package openmpi-bin)"
                echo "launch.sh: mpirun not found (Debian package openmpi-bin): not timed" >&2
                continue
            fi ;;
        srun)
            if ! slurm_reachable; then
                [ -n "$ONLY" ] && die "no Slurm answers (SLURM_CONF='${SLURM_CONF:-}', sinfo): start one first"
                echo "launch.sh: no Slurm answers (SLURM_CONF unset or sinfo fails): srun not timed" >&2
                continue
            fi ;;
        *) die "--only takes oshrun, mpirun and srun, not '$l'" ;;
    esac
    LAUNCHERS="$LAUNCHERS $l"
done
[ -n "$LAUNCHERS" ] || die "no launcher to time"

# The work directory is under /var/tmp, not /tmp: slurmds of the cluster
# tooling's netns mode run with a private /tmp and would not see the binary.
WORKDIR=$(mktemp -d "${TMPDIR:-/var/tmp}/ushmem-launch.XXXXXX") || die "mktemp failed"
if [ "$KEEP" = 1 ]; then
    echo "launch.sh: keeping build and logs in $WORKDIR"
else
    trap 'rm -rf "$WORKDIR"' EXIT
fi

# ---------------------------------------------------------------- build
if [ -n "$OSHRUN" ] || [ -n "$EXE" ]; then
    if [ -z "$OSHRUN" ] || [ -z "$EXE" ]; then
        die "--oshrun and --exe go together (or use --prefix)"
    fi
else
    [ -n "$PREFIX" ] || die "give --prefix DIR (an installed ushmem), or --oshrun PATH and --exe PATH"
    [ -x "$PREFIX/bin/oshcc" ] || die "'$PREFIX/bin/oshcc' not found: install ushmem there first (make install)"
    OSHRUN=$PREFIX/bin/oshrun
    EXE=$WORKDIR/hello
    "$PREFIX/bin/oshcc" -O2 "$SCRIPT_DIR/hello.c" -o "$EXE" >"$WORKDIR/build.log" 2>&1 ||
        { cat "$WORKDIR/build.log" >&2; die "building hello.c with $PREFIX/bin/oshcc failed"; }
fi
[ -x "$OSHRUN" ] || die "oshrun '$OSHRUN' not found or not executable"
[ -x "$EXE" ] || die "hello '$EXE' not found or not executable"
# Absolute paths: every run starts in the work directory.
abspath() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
OSHRUN=$(abspath "$OSHRUN")
EXE=$(abspath "$EXE")

# Command lines, as arrays so paths with spaces survive; the *_ARGS are
# split on blanks on purpose: they are lists of options. run_launcher reaches
# them by name (CMD_<launcher>), which shellcheck cannot see.
# shellcheck disable=SC2034
CMD_oshrun=("$OSHRUN" -n "$NP" "$EXE")
# shellcheck disable=SC2034,SC2206
CMD_mpirun=(mpirun $MPIRUN_ARGS -np "$NP" "$EXE")
# shellcheck disable=SC2034,SC2206
CMD_srun=(srun $SRUN_ARGS -n "$NP" "$EXE")

# ---------------------------------------------------------------- runs
FAILED=0
# run_once LAUNCHER TAG: lib.sh's run_once with the launcher's command.
run_launcher() {
    local -n cmd=CMD_$1
    run_once "$1" "$2" "${cmd[@]}"
}

for l in $LAUNCHERS; do : >"$WORKDIR/times-$l"; : >"$WORKDIR/fails-$l"; done
if [ "$WARMUP" = 1 ]; then
    # Not timed: the first start pays for reading libraries from disk.
    for l in $LAUNCHERS; do run_launcher "$l" warmup; done
fi
for i in $(seq 1 "$RUNS"); do
    for l in $LAUNCHERS; do run_launcher "$l" "$i"; done
done

# ---------------------------------------------------------------- report
echo
echo "launch of a ushmem hello on $NP PEs: wall time from launch to exit in ms,"
echo "$RUNS runs per launcher, alternating$([ "$WARMUP" = 1 ] && echo ", after one untimed warm-up run each")"
for l in $LAUNCHERS; do
    declare -n cmd=CMD_$l
    printf '%-7s %s\n' "$l:" "${cmd[*]}"
done
echo
printf '%-8s %7s %10s %10s %10s %11s\n' launcher ok median min max "vs oshrun"
base=n/a
[ -f "$WORKDIR/times-oshrun" ] && base=$(median <"$WORKDIR/times-oshrun")
for l in $LAUNCHERS; do
    ok=$(wc -l <"$WORKDIR/times-$l")
    nfail=$(wc -l <"$WORKDIR/fails-$l")
    med=$(median <"$WORKDIR/times-$l")
    read -r lo hi < <(min_max <"$WORKDIR/times-$l")
    printf '%-8s %7s %10s %10s %10s %11s\n' "$l" "$ok/$((ok + nfail))" "$med" "$lo" "$hi" "$(ratio "$med" "$base")"
done
echo
echo "vs oshrun: median / oshrun's median (above 1: slower to launch than oshrun, this time)"
if [ "$FAILED" != 0 ]; then
    echo
    echo "launch.sh: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
