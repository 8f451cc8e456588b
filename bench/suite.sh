#!/bin/bash
# suite.sh: the microbenchmark suite (bench/suite/, "shbench") built with
# ushmem's oshcc and with Debian's Open MPI oshcc from the same sources, run
# alternately, compared per benchmark, target memory, PE count and size.
#
#   suite.sh [--prefix DIR] [--runs N] [--np "2 4 8"] [options]   (see --help)
#
# For each run r in 1..RUNS and each PE count: ushmem, then Open MPI, so a
# burst of load from other work falls on both. The tables are medians over
# runs; the ratio is ushmem / Open MPI from the same invocation. It
# measures; it never decides that one side must be faster (the "targets"
# summary at the end says met or missed, it does not fail the script).
#
# Exit status: 0 every run was correct; 1 some run failed (its output is
# shown; the points it printed before failing are kept, each one was
# checked); 2 usage or build error.

set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SUITE_SRC=("$SCRIPT_DIR"/suite/*.c)

PREFIX=${PREFIX:-$SCRIPT_DIR/../build/install}
RUNS=3
NPS="2 4 8"
MEM=both
ONLY=""
BENCHES=""
OUT=$SCRIPT_DIR/../build/bench-results
QUICK=0
BUSY=0
POINT_MS=20
RUN_TIMEOUT=900
STARTUP_LOG=""
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
# spml_ucx_opal_mem_hooks 0: Open MPI 4.1.4 otherwise dies in shmem_finalize
# (README.md, "Open MPI 4.1.4 crashes in shmem_finalize"). A run that still
# crashes after printing "# done" keeps its figures.
OMPI_ARGS="--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0"
MIN_RUNS=1
FAILED=0
SIZES=8:4m

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

Builds bench/suite/ with ushmem's and Open MPI's oshcc, runs both
alternately and prints, per benchmark, target, PE count and size, the median
time per operation of each (microseconds) and their ratio ushmem / Open MPI.

  --prefix DIR       ushmem install prefix (DIR/bin/oshcc, DIR/bin/oshrun)
                     (default \$PREFIX or build/install)
  --runs N           runs per library and PE count (default $RUNS)
  --np "LIST"        PE counts (default "$NPS")
  --mem T            heap, static or both (default $MEM)
  --bench LIST       comma-separated shbench benchmarks (default all;
                     \`shbench --help\` lists them)
  --sizes MIN:MAX    size range in bytes, powers of two, k/m suffixes
                     (default 8:4m)
  --only ushmem|ompi run one library (no ratios)
  --time MS          time per point shbench aims at (default $POINT_MS)
  --timeout S        seconds before one run is killed (default $RUN_TIMEOUT)
  --out DIR          results: all.csv, medians.csv, table.txt, latency.png,
                     raw/ (default build/bench-results)
  --startup-log FILE startup.sh output whose ratio goes into the targets
  --ompi-args "ARGS" Open MPI oshrun options (default "$OMPI_ARGS")
  --busy N           run beside N busy loops (processes that only spin, as
                     another job's would; default 0)
  --quick            smoke run: 1 run, 2 PEs, 8 B to 64 KiB, 5 ms per point
  --self-test        check this script's arithmetic on canned CSV
  -h, --help         this text
EOF
}

die() {
    echo "suite.sh: $*" >&2
    exit 2
}

# median, ratio, group_medians, now_us, bench_self_test, is_uint, at_least.
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

# ---------------------------------------------------------------- pieces
# Each reads files and writes stdout, so --self-test can run it on canned
# data.

# run_verdict LIB RC FILE: ok | crashed (Open MPI died after "# done": its
# figures stand) | timeout | failed.
run_verdict() {
    local lib=$1 rc=$2 file=$3 done=0
    grep -qx '# done' "$file" && done=1
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo timeout
    elif [ "$rc" -eq 0 ] && [ "$done" -eq 1 ]; then echo ok
    elif [ "$lib" = ompi ] && [ "$done" -eq 1 ] && [ "$rc" -ge 128 ]; then echo crashed
    else echo failed
    fi
}

# medians ALL_CSV: one line per (bench, target, npes, bytes) in first-seen
# order: bench,target,npes,bytes,ushmem_usec,ompi_usec,ratio,ushmem_n,ompi_n
medians() {
    local all=$1
    awk -F, 'NR > 1 { print $1 "|" $3 "," $4 "," $5 "," $6, $8 }' "$all" | group_medians >"$all.med"
    awk -F, 'NR > 1 { n[$1 "|" $3 "," $4 "," $5 "," $6]++ }
        END { for (k in n) print k, n[k] }' "$all" >"$all.cnt"
    awk '
        FILENAME ~ /\.cnt$/ { cnt[$1] = $2; next }
        {
            split($1, p, "|"); key = p[2]
            if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
            med[p[1], key] = $2
        }
        END {
            print "bench,target,npes,bytes,ushmem_usec,ompi_usec,ratio,ushmem_runs,ompi_runs"
            for (i = 1; i <= nk; i++) {
                k = order[i]
                u = ((("ushmem", k) in med)) ? med["ushmem", k] : ""
                o = ((("ompi", k) in med)) ? med["ompi", k] : ""
                r = (u != "" && o != "" && o + 0 > 0) ? sprintf("%.3f", u / o) : ""
                printf "%s,%s,%s,%s,%d,%d\n", k, u, o, r, cnt["ushmem|" k], cnt["ompi|" k]
            }
        }' "$all.cnt" "$all.med"
    rm -f "$all.med" "$all.cnt"
}

# table MEDIANS_CSV: the aligned comparison.
table() {
    awk -F, '
        function human(b) {
            if (b >= 1048576) return (b / 1048576) "M"
            if (b >= 1024) return (b / 1024) "K"
            return b
        }
        NR == 1 {
            printf "%-9s %-6s %3s %6s %12s %12s %7s\n", "bench", "target", "PEs", "bytes",
                   "ushmem us", "Open MPI us", "ratio"
            next
        }
        {
            printf "%-9s %-6s %3s %6s %12s %12s %7s\n", $1, $2, $3, human($4),
                   $5 == "" ? "-" : $5, $6 == "" ? "-" : $6, $7 == "" ? "-" : $7
        }' "$1"
}

# targets MEDIANS_CSV STARTUP_RATIO: the suite's targets, met or missed, with
# the figure. STARTUP_RATIO may be "n/a".
targets() {
    awk -F, -v startup="$2" '
        NR > 1 { r[$1, $2, $3, $4] = $7 }
        NR > 1 && $3 == 8 && $1 ~ /^(barrier|bcast|reduce|collect|fcollect|alltoall)$/ {
            if ($7 == "") { c8missing++; next }
            c8n++
            if ($7 + 0 < 1.0) c8met++
            if ($7 + 0 > c8worst) { c8worst = $7 + 0; c8where = $1 " " $2 " " $4 " B" }
        }
        # The worst ratio of b on t at np PEs over sizes lo..hi (powers of two).
        function range(label, b, t, np, lo, hi, limit,   sz, v, w, at, n, miss) {
            for (sz = lo; sz <= hi; sz *= 2) {
                v = r[b, t, np, sz]
                if (v == "") { miss++; continue }
                n++
                if (v + 0 > w) { w = v + 0; at = sz }
            }
            if (n == 0) printf "  %-44s <= %-4s %8s  n/a (not measured)\n", label, limit, "-"
            else printf "  %-44s <= %-4s %8s  %s (worst at %d B%s)\n", label, limit, w,
                        (w <= limit && !miss ? "met" : "missed"), at,
                        (miss ? ", " miss " sizes not measured" : "")
        }
        function one(label, b, t, np, bytes, limit,   v) {
            v = r[b, t, np, bytes]
            if (v == "") printf "  %-44s <= %-4s %8s  n/a (not measured)\n", label, limit, "-"
            else printf "  %-44s <= %-4s %8s  %s\n", label, limit, v, (v + 0 <= limit ? "met" : "missed")
        }
        END {
            print "targets (ratio ushmem / Open MPI, medians of this invocation):"
            one("2 PEs put 8 B, heap", "put", "heap", 2, 8, 0.8)
            one("2 PEs get 8 B, heap", "get", "heap", 2, 8, 0.8)
            one("2 PEs fetch-add, heap", "fadd", "heap", 2, 8, 0.8)
            one("2 PEs put 8 B, static", "put", "static", 2, 8, 0.1)
            one("2 PEs get 8 B, static", "get", "static", 2, 8, 0.1)
            one("2 PEs fetch-add, static", "fadd", "static", 2, 8, 0.1)
            one("2 PEs put 1 MiB, heap", "put", "heap", 2, 1048576, 1.0)
            one("2 PEs put 1 MiB, static", "put", "static", 2, 1048576, 0.5)
            one("2 PEs ping-pong 8 B, heap", "pingpong", "heap", 2, 8, 0.8)
            one("2 PEs barrier_all, heap", "barrier", "heap", 2, 8, 0.5)
            one("2 PEs broadcast 8 B, heap", "bcast", "heap", 2, 8, 0.5)
            one("2 PEs reduce 8 B, heap", "reduce", "heap", 2, 8, 0.5)
            range("2 PEs float sum 64 KiB-1 MiB, heap", "reduce_float", "heap", 2, 65536, 1048576, 0.9)
            range("2 PEs double sum 64 KiB-1 MiB, heap", "reduce_double", "heap", 2, 65536, 1048576, 0.9)
            range("4 PEs broadcast 512 B-64 KiB, heap", "bcast", "heap", 4, 512, 65536, 0.9)
            range("2 PEs put after a barrier 128 KiB-1 MiB, heap", "put_bar", "heap", 2, 131072, 1048576, 0.9)
            if (c8n == 0)
                printf "  %-44s <  %-4s %8s  n/a (not measured)\n", "8 PEs every collective, every size", "1.0", "-"
            else
                printf "  %-44s <  %-4s %8s  %s (%d of %d points below 1; worst: %s)\n",
                       "8 PEs every collective, every size", "1.0", c8worst,
                       (c8met == c8n && !c8missing ? "met" : "missed"), c8met, c8n, c8where
            if (startup == "n/a")
                printf "  %-44s <= %-4s %8s  n/a (no startup.sh result)\n", "startup, oshrun -n 4 hello", "0.3", "-"
            else
                printf "  %-44s <= %-4s %8s  %s\n", "startup, oshrun -n 4 hello", "0.3", startup,
                       (startup + 0 <= 0.3 ? "met" : "missed")
        }' "$1"
}

# floor_line FLOOR_TXT MEDIANS_CSV: the bare cache-line ping-pong (median
# of floor's runs) beside both libraries' 8-byte heap ping-pong.
floor_line() {
    local f
    f=$(sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
    awk -F, -v f="$f" -v n="$(wc -l <"$1")" '
        $1 == "pingpong" && $2 == "heap" && $3 == 2 && $4 == 8 { u = $5; o = $6 }
        END {
            printf "  floor: a bare cache-line ping-pong between two processes (bench/floor.c) takes %s us\n", f
            printf "         (median of %d); ping-pong 8 B: ushmem %s us, Open MPI %s us\n", n, u, o
        }' "$2"
}

# startup_ratio FILE: the ratio startup.sh printed, or n/a.
startup_ratio() {
    local v=""
    [ -n "$1" ] && [ -r "$1" ] &&
        v=$(sed -n 's/^ratio ushmem \/ Open MPI (medians): \([0-9.]*\).*/\1/p' "$1" | tail -n 1)
    echo "${v:-n/a}"
}

# plot MEDIANS_CSV NP PNG: latency against size, log-log, headline
# benchmarks at NP PEs (gnuplot script: plot.gp).
plot() {
    if ! command -v gnuplot >/dev/null; then
        echo "suite.sh: no gnuplot (apt-get install gnuplot-nox): no plot" >&2
        return 0
    fi
    gnuplot -e "infile='$1'; np=$2; outfile='$3'" "$SCRIPT_DIR/plot.gp" ||
        echo "suite.sh: gnuplot failed; no plot" >&2
}

suite_self_test() {
    local tmp fails=0 got
    tmp=$(mktemp -d) || return 1
    check() { # NAME EXPECTED GOT
        if [ "$2" != "$3" ]; then
            printf 'self-test FAIL: %s:\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"
            fails=$((fails + 1))
        fi
    }
    cat >"$tmp/all.csv" <<'EOF'
lib,run,bench,target,npes,bytes,iters,usec,mbps,usec_max
ushmem,1,put,heap,2,8,1000,0.0300,266.7,
ompi,1,put,heap,2,8,1000,0.0400,200.0,
ushmem,2,put,heap,2,8,1000,0.0100,800.0,
ompi,2,put,heap,2,8,1000,0.0500,160.0,
ushmem,3,put,heap,2,8,1000,0.0200,400.0,
ompi,3,put,heap,2,8,1000,0.0300,266.7,
ushmem,1,put,static,2,8,1000,0.0200,400.0,
ompi,1,put,static,2,8,1000,0.8000,10.0,
ushmem,1,bcast,heap,8,8,100,2.0000,,3.0000
ompi,1,bcast,heap,8,8,100,1.0000,,1.5000
ushmem,1,bcast,heap,8,16,100,1.0000,,1.5000
ompi,1,bcast,heap,8,16,100,4.0000,,5.0000
ushmem,1,get,heap,2,8,1000,0.0100,800.0,
EOF
    medians "$tmp/all.csv" >"$tmp/med.csv"
    got=$(paste -sd'|' "$tmp/med.csv")
    check "medians" "bench,target,npes,bytes,ushmem_usec,ompi_usec,ratio,ushmem_runs,ompi_runs|put,heap,2,8,0.0200,0.0400,0.500,3,3|put,static,2,8,0.0200,0.8000,0.025,1,1|bcast,heap,8,8,2.0000,1.0000,2.000,1,1|bcast,heap,8,16,1.0000,4.0000,0.250,1,1|get,heap,2,8,0.0100,,,1,0" "$got"

    got=$(table "$tmp/med.csv" | sed -n '2p;6p' | tr -s ' ' | paste -sd'|')
    check "table rows" "put heap 2 8 0.0200 0.0400 0.500|get heap 2 8 0.0100 - -" "$got"
    got=$(table "$tmp/med.csv" | awk 'NR == 5 { print $4 }')
    check "table bytes" "16" "$got"

    targets "$tmp/med.csv" 0.25 >"$tmp/targets"
    check "target met"     "met"    "$(awk '/put 8 B, heap/ { print $NF }' "$tmp/targets")"
    check "target static"  "met"    "$(awk '/put 8 B, static/ { print $NF }' "$tmp/targets")"
    check "target n/a"     "n/a (not measured)" "$(sed -n 's/.*get 8 B, heap.*- *//p' "$tmp/targets")"
    check "8-PE collectives" "missed (1 of 2 points below 1; worst: bcast heap 8 B)" \
        "$(sed -n 's/.*every size *< *1.0 *[0-9.]* *//p' "$tmp/targets")"
    check "startup met"    "met"    "$(awk '/startup/ { print $NF }' "$tmp/targets")"
    check "startup missing" "n/a (no startup.sh result)" \
        "$(targets "$tmp/med.csv" n/a | sed -n 's/.*startup.*- *//p')"

    printf 'ratio ushmem / Open MPI (medians): 0.35   (below 1...)\n' >"$tmp/startup.txt"
    printf '0.3\n0.1\n0.2\n' >"$tmp/floor.txt"
    printf 'bench,target,npes,bytes,ushmem_usec,ompi_usec\npingpong,heap,2,8,0.25,0.26\n' >"$tmp/pp.csv"
    check "floor" "0.2 3 0.25 0.26" \
        "$(floor_line "$tmp/floor.txt" "$tmp/pp.csv" | tr -d '();,' |
           awk '/floor:/ { f = $(NF - 1) } /median/ { print f, $3, $(NF - 5), $(NF - 1) }')"
    check "startup_ratio"  "0.35"   "$(startup_ratio "$tmp/startup.txt")"
    check "startup_ratio none" "n/a" "$(startup_ratio "")"

    printf 'a,b\n# done\n' >"$tmp/done.csv"
    printf 'a,b\n' >"$tmp/cut.csv"
    check "verdict ok"          ok      "$(run_verdict ushmem 0 "$tmp/done.csv")"
    check "verdict ushmem crash" failed "$(run_verdict ushmem 139 "$tmp/done.csv")"
    check "verdict ompi crash"  crashed "$(run_verdict ompi 139 "$tmp/done.csv")"
    check "verdict ompi cut"    failed  "$(run_verdict ompi 139 "$tmp/cut.csv")"
    check "verdict wrong value" failed  "$(run_verdict ompi 1 "$tmp/done.csv")"
    check "verdict no done"     failed  "$(run_verdict ushmem 0 "$tmp/cut.csv")"
    check "verdict timeout"     timeout "$(run_verdict ushmem 124 "$tmp/cut.csv")"
    rm -rf "$tmp"

    bench_self_test || fails=$((fails + 1))
    if [ "$fails" -ne 0 ]; then
        echo "suite self-test: $fails check(s) failed"
        return 1
    fi
    echo "suite self-test: all checks passed"
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)      PREFIX=${2-}; shift ;;
        --runs)        RUNS=${2-}; shift ;;
        --np)          NPS=${2-}; shift ;;
        --mem)         MEM=${2-}; shift ;;
        --bench)       BENCHES=${2-}; shift ;;
        --sizes)       SIZES=${2-}; shift ;;
        --only)        ONLY=${2-}; shift ;;
        --time)        POINT_MS=${2-}; shift ;;
        --timeout)     RUN_TIMEOUT=${2-}; shift ;;
        --out)         OUT=${2-}; shift ;;
        --startup-log) STARTUP_LOG=${2-}; shift ;;
        --ompi-args)   OMPI_ARGS=${2-}; shift ;;
        --busy)        BUSY=${2-}; shift ;;
        --quick)       QUICK=1 ;;
        --self-test)   suite_self_test; exit $? ;;
        -h|--help)     usage; exit 0 ;;
        *)             usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

if [ "$QUICK" -eq 1 ]; then
    RUNS=1; NPS=2; POINT_MS=5; SIZES=8:64k
fi
NP=${NPS%% *}
check_run_options
for np in $NPS; do at_least "$np" 1 || die "--np takes whole numbers, not '$np'"; done
at_least "$POINT_MS" 1 || die "--time takes whole milliseconds, not '$POINT_MS'"
case $MEM in heap|static|both) ;; *) die "--mem takes heap, static or both, not '$MEM'" ;; esac
is_uint "$BUSY" || die "--busy takes a count of busy loops, not '$BUSY'"
case $ONLY in ''|ushmem|ompi) ;; *) die "--only takes 'ushmem' or 'ompi', not '$ONLY'" ;; esac
LIBS="ushmem ompi"
[ -n "$ONLY" ] && LIBS=$ONLY

# ---------------------------------------------------------------- build
mkdir -p "$OUT/raw" || die "cannot create --out '$OUT'"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/raw/*
for lib in $LIBS; do
    if [ "$lib" = ushmem ]; then cc=$PREFIX/bin/oshcc; else cc=$OMPI_OSHCC; fi
    [ -x "$cc" ] || die "no $lib compiler wrapper at '$cc' (ushmem: make install, or --prefix; Open MPI: apt-get install openmpi-bin libopenmpi-dev; or --only)"
    "$cc" -O2 -o "$OUT/shbench-$lib" "${SUITE_SRC[@]}" >"$OUT/raw/build-$lib.log" 2>&1 ||
        { cat "$OUT/raw/build-$lib.log" >&2; die "building shbench with $cc failed"; }
done
# The machine's own ping-pong floor (floor.c): plain C, no library.
FLOOR=""
cc -O2 -o "$OUT/floor" "$SCRIPT_DIR/floor.c" >"$OUT/raw/build-floor.log" 2>&1 && FLOOR=$OUT/floor

ARGS=(--mem "$MEM" --sizes "$SIZES" --time "$POINT_MS")
[ -n "$BENCHES" ] && ARGS+=(--bench "$BENCHES")

echo "shbench: median time per operation in microseconds over $RUNS run(s), alternating"
echo "ushmem:   $PREFIX/bin/oshrun -n NP $OUT/shbench-ushmem ${ARGS[*]}"
echo "Open MPI: $OMPI_OSHRUN $OMPI_ARGS -np NP $OUT/shbench-ompi ${ARGS[*]}"
echo "point-to-point: PE 0's figure (PEs i < NP/2 target i + NP/2 at once);"
echo "collectives: mean over PEs of each PE's time per call (usec_max in all.csv)"

# run_one LIB NP RUN: one job; its verified points go to all.csv.
run_one() {
    local lib=$1 np=$2 r=$3 log rc verdict t0 t1
    local -a cmd
    log=$OUT/raw/$lib-np$np-run$r
    if [ "$lib" = ushmem ]; then
        cmd=("$PREFIX/bin/oshrun" -n "$np" "$OUT/shbench-ushmem")
    else
        # shellcheck disable=SC2206 # OMPI_ARGS is a list of words
        cmd=("$OMPI_OSHRUN" $OMPI_ARGS -np "$np" "$OUT/shbench-ompi")
    fi
    t0=$(now_us)
    rc=0
    timeout -k 5 "$RUN_TIMEOUT" "${cmd[@]}" "${ARGS[@]}" </dev/null >"$log.csv" 2>"$log.err" || rc=$?
    t1=$(now_us)
    verdict=$(run_verdict "$lib" "$rc" "$log.csv")
    printf '  run %s, %s PEs, %-6s %5.1f s  %s\n' "$r" "$np" "$lib" \
        "$(awk -v us=$((t1 - t0)) 'BEGIN { print us / 1e6 }')" "$verdict"
    # A point's line is printed only after its check passed: keep them all.
    awk -F, -v pre="$lib,$r," '/^[a-z_]+,(heap|static),/ { print pre $0 }' "$log.csv" >>"$OUT/all.csv"
    case $verdict in
        ok) ;;
        crashed) echo "    (Open MPI exited with status $rc after '# done': figures kept)" ;;
        *)  FAILED=1
            echo "    exit status $rc; last lines of its output:" >&2
            tail -n 15 "$log.err" "$log.csv" | sed 's/^/    /' >&2 ;;
    esac
}

echo "lib,run,bench,target,npes,bytes,iters,usec,mbps,usec_max" >"$OUT/all.csv"
T0=$(now_us)
: >"$OUT/floor.txt"
if [ "$BUSY" -gt 0 ]; then
    trap stop_busy EXIT
    start_busy "$BUSY"
    echo "beside $BUSY busy loop(s)"
fi
for r in $(seq "$RUNS"); do
    for np in $NPS; do
        for lib in $LIBS; do run_one "$lib" "$np" "$r"; done
        if [ "$np" = 2 ] && [ -n "$FLOOR" ]; then
            timeout 60 "$FLOOR" >>"$OUT/floor.txt" 2>/dev/null || true
        fi
    done
done
stop_busy
T1=$(now_us)

medians "$OUT/all.csv" >"$OUT/medians.csv"
echo
table "$OUT/medians.csv" | tee "$OUT/table.txt"
echo
plot "$OUT/medians.csv" "${NPS%% *}" "$OUT/latency.png"
[ -s "$OUT/latency.png" ] && echo "plot: $OUT/latency.png"
echo "CSV: $OUT/all.csv (every run), $OUT/medians.csv; logs: $OUT/raw/"
echo
targets "$OUT/medians.csv" "$(startup_ratio "$STARTUP_LOG")" | tee "$OUT/targets.txt"
if [ -s "$OUT/floor.txt" ]; then
    floor_line "$OUT/floor.txt" "$OUT/medians.csv" | tee -a "$OUT/targets.txt"
fi
echo
echo "suite.sh: $(awk -v us=$((T1 - T0)) 'BEGIN { printf "%.0f", us / 1e6 }') s of runs$([ "$FAILED" -eq 0 ] || echo '; SOME RUNS FAILED (above)')"
exit "$FAILED"
