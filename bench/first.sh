#!/bin/bash
# first.sh: the cost of the first put and get to each peer against the
# second and the steady state, ushmem and Open MPI's OSHMEM (a
# lazy wire-up may make the first access to a peer pay, later ones not).
#
#   first.sh [--prefix DIR] [--runs N] [--np "8 32"] [options]   (see --help)
#
# Builds bench/first_touch.c with both libraries' oshcc and runs it under
# their own oshrun, alternating, per PE count and operation. The script
# measures; it does not decide what "pays" means.
#
# Exit status: 0 every run was correct; 1 some run failed; 2 usage or build
# error.

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$SCRIPT_DIR/first_touch.c
BENCH_NAME=first.sh

PREFIX=${PREFIX:-}
RUNS=3
NPS="8 32"
ITERS=200
RUN_TIMEOUT=120
ONLY=""
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
# See startup.sh: Open MPI 4.1.4 dies in shmem_finalize without it.
OMPI_ARGS=(--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0)
MIN_RUNS=1

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

PE 0 times its first shmem_long_g (and, in another job, shmem_long_p +
shmem_quiet) to each other PE, the second one, and ITERS more to each peer
(steady state); per library, PE count and operation, the medians over runs
of: the median and largest first access over peers, the median second, the
steady median, and first / steady and second / steady.

  --prefix DIR       ushmem install prefix (default: \$PREFIX)
  --runs N           runs per library, PE count and operation (default $RUNS)
  --np "LIST"        PE counts (default "$NPS")
  --iters N          steady-state operations per peer (default $ITERS)
  --only ushmem|ompi one library
  --timeout S        seconds before a run is killed and counted as failed
                     (default $RUN_TIMEOUT)
  --self-test        check this script's parsing, then exit
  -h, --help         this text
EOF
}

die() {
    echo "$BENCH_NAME: $*" >&2
    exit 2
}

# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

# parse FILE NP OP: "first_med first_max second_med second_max steady_med"
# from first_touch's one result line for NP PEs and OP; nothing if absent.
parse() {
    awk -v np="$2" -v op="$3" '
        $1 == "first_touch" && $2 == op && $3 == "npes" && $4 == np && NF == 14 {
            print $6, $8, $10, $12, $14; n++
        }
        END { exit n == 1 ? 0 : 1 }' "$1"
}

# report RESULTS: the table; RESULTS lines are "lib np op" and parse's five.
report() {
    awk '
        function med(key, c,   m, i, j, t, a) {
            m = n[key]
            for (i = 1; i <= m; i++) a[i] = v[key, i, c]
            for (i = 2; i <= m; i++)
                for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        {
            key = $1 " " $2 " " $3
            if (!(key in n)) order[++nk] = key
            m = ++n[key]
            for (c = 4; c <= 8; c++) v[key, m, c] = $c
        }
        END {
            printf "%-8s %4s %-4s %5s %10s %10s %10s %10s %10s %8s %8s\n", "library", "PEs", "op", "runs",
                   "first", "first max", "second", "second max", "steady", "1st/std", "2nd/std"
            for (k = 1; k <= nk; k++) {
                key = order[k]; split(key, f, " ")
                s = med(key, 8); r1 = r2 = "n/a"
                if (s > 0) { r1 = sprintf("%.1f", med(key, 4) / s); r2 = sprintf("%.1f", med(key, 6) / s) }
                lib = f[1] == "ompi" ? "Open MPI" : f[1]
                printf "%-8s %4s %-4s %5d %10.2f %10.2f %10.2f %10.2f %10.2f %8s %8s\n", lib, f[2], f[3], n[key],
                       med(key, 4), med(key, 5), med(key, 6), med(key, 7), s, r1, r2
            }
        }' "$1"
}

self_test() {
    local fails=0 tmp
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks"; fails=1; }
    tmp=$(mktemp -d) || return 1
    xcheck() { if [ "$2" != "$3" ]; then printf 'self-test FAIL: %s:\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi; }
    printf 'noise\nfirst_touch get npes 8 first_med 40.00 first_max 90.00 second_med 2.00 second_max 3.00 steady_med 1.00\n' >"$tmp/out"
    xcheck "parse" "40.00 90.00 2.00 3.00 1.00" "$(parse "$tmp/out" 8 get)"
    parse "$tmp/out" 4 get >/dev/null; xcheck "parse other np" 1 $?
    parse "$tmp/out" 8 put >/dev/null; xcheck "parse other op" 1 $?
    printf 'ushmem 8 get 40 90 2 3 1\nushmem 8 get 60 80 4 5 2\nushmem 8 get 50 70 3 4 1.5\nompi 8 get 10 20 1 1 0\n' >"$tmp/res"
    xcheck "report" "ushmem 8 get 3 50.00 80.00 3.00 4.00 1.50 33.3 2.0|Open MPI 8 get 1 10.00 20.00 1.00 1.00 0.00 n/a n/a" \
        "$(report "$tmp/res" | tail -n +2 | sed 's/^Open MPI/Open_MPI/' | awk '{ $1 = $1; print }' | sed 's/^Open_MPI/Open MPI/' | paste -sd'|')"
    rm -rf "$tmp"
    self_test_verdict "$fails"
}

while [ $# -gt 0 ]; do
    case $1 in
        --prefix)    PREFIX=${2-}; shift ;;
        --runs)      RUNS=${2-}; shift ;;
        --np)        NPS=${2-}; shift ;;
        --iters)     ITERS=${2-}; shift ;;
        --only)      ONLY=${2-}; shift ;;
        --timeout)   RUN_TIMEOUT=${2-}; shift ;;
        --self-test) self_test; exit $? ;;
        -h|--help)   usage; exit 0 ;;
        *)           usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$RUNS" "$MIN_RUNS" || die "--runs must be a whole number of at least $MIN_RUNS, not '$RUNS'"
at_least "$ITERS" 1 || die "--iters must be a whole number of at least 1, not '$ITERS'"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
for n in $NPS; do at_least "$n" 2 || die "--np takes whole numbers of at least 2, not '$n'"; done
case $ONLY in ''|ushmem|ompi) ;; *) die "--only takes 'ushmem' or 'ompi', not '$ONLY'" ;; esac
LIBS="ushmem ompi"
[ -n "$ONLY" ] && LIBS=$ONLY
case " $LIBS " in *" ushmem "*)
    [ -n "$PREFIX" ] || die "give the ushmem install prefix: --prefix DIR (or PREFIX=DIR), or --only ompi"
    if [ ! -x "$PREFIX/bin/oshcc" ] || [ ! -x "$PREFIX/bin/oshrun" ]; then
        die "no ushmem oshcc and oshrun under '$PREFIX/bin' (run 'make install' first)"
    fi ;;
esac
case " $LIBS " in *" ompi "*)
    if [ ! -x "$OMPI_OSHCC" ] || [ ! -x "$OMPI_OSHRUN" ]; then
        die "Open MPI's oshcc and oshrun not found (Debian packages openmpi-bin, libopenmpi-dev), or use --only ushmem"
    fi ;;
esac

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-first.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORKDIR"' EXIT
for lib in $LIBS; do
    cc=$OMPI_OSHCC
    [ "$lib" = ushmem ] && cc=$PREFIX/bin/oshcc
    "$cc" -O2 "$SRC" -o "$WORKDIR/first_$lib" >"$WORKDIR/build.log" 2>&1 ||
        { cat "$WORKDIR/build.log" >&2; die "building first_touch.c with $cc failed"; }
done

FAILED=0
RESULTS=$WORKDIR/results
: >"$RESULTS"
for r in $(seq 1 "$RUNS"); do
    for np in $NPS; do
        for op in get put; do
            for lib in $LIBS; do
                log=$WORKDIR/$lib-$np-$op-$r.log
                if [ "$lib" = ushmem ]; then
                    cmd=("$PREFIX/bin/oshrun" -n "$np")
                else
                    cmd=("$OMPI_OSHRUN" "${OMPI_ARGS[@]}" -np "$np")
                fi
                timeout -k 5 "$RUN_TIMEOUT" "${cmd[@]}" "$WORKDIR/first_$lib" "$op" "$ITERS" \
                    </dev/null >"$log" 2>&1
                rc=$?
                if [ "$rc" -eq 0 ] && line=$(parse "$log" "$np" "$op"); then
                    echo "$lib $np $op $line" >>"$RESULTS"
                else
                    echo "$BENCH_NAME: $lib, $op on $np PEs, run $r: exit status $rc or no result; its output:" >&2
                    tail -n 20 "$log" | sed 's/^/    /' >&2
                    FAILED=1
                fi
            done
        done
    done
done

echo
echo "first access to each peer against later ones: PE 0's shmem_long_g, or"
echo "shmem_long_p + shmem_quiet, to every other PE, in usec; medians over $RUNS run(s)"
echo "  first:  median over peers of the first operation to that peer (max: the slowest peer)"
echo "  second: median over peers of the second (max: the slowest); steady: median of"
echo "          $ITERS more per peer, in round-robin after every peer was touched"
echo "  1st/std, 2nd/std: first and second over steady (a lazy wire-up may raise the"
echo "          first; the second should stay near 1)"
echo
report "$RESULTS"
if [ "$FAILED" != 0 ]; then
    echo "$BENCH_NAME: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
