# shellcheck shell=bash
# lib.sh: helpers shared by the bench scripts (startup.sh, launch.sh,
# xnode.sh, suite.sh); source it, do not run it. They are pure functions of their
# input (but for now_us) so each script's --self-test can check them with
# bench_self_test.


# median [DECIMALS]: median of the numbers on stdin, one per line, to
# DECIMALS places (default 1); "n/a" if there are none. An even count
# averages the two middle values.
# shellcheck disable=SC2120 # callers in other files pass DECIMALS
median() {
    sort -n | awk -v d="${1:-1}" '{ v[NR] = $1 }
        END {
            if (NR == 0) { print "n/a"; exit }
            if (NR % 2) m = v[(NR + 1) / 2]
            else        m = (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.*f\n", d, m
        }'
}

# smallest and largest of the numbers on stdin: "min max", or "n/a n/a".
min_max() {
    sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 }
        END { if (NR == 0) print "n/a n/a"; else printf "%.1f %.1f\n", lo, hi }'
}

# ratio A B: A / B to two places, or "n/a" if either is missing or B is 0.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a"
        else printf "%.2f\n", a / b }'
}

# hello_ok NP FILE: true if FILE holds exactly one "hello from PE k of NP"
# line for every k in 0..NP-1 and no other hello line. Exit status alone is
# not trusted: a launcher that starts NP one-PE jobs exits 0 too.
hello_ok() {
    local np=$1 file=$2
    awk -v np="$np" '
        /^hello from PE / {
            n++
            if ($4 !~ /^[0-9]+$/ || $5 != "of" || $6 != np || $4 >= np || seen[$4]++) bad = 1
        }
        END { exit (bad || n != np) ? 1 : 0 }' "$file"
}

# group_medians: "KEY VALUE" lines on stdin (KEY without blanks), one
# "KEY MEDIAN" line per key out, keys in order of first appearance; values
# keep 4 decimals (microsecond figures go down to nanoseconds). The median of
# an even count averages the two middle values, as median() does.
group_medians() {
    awk '
        !($1 in n) { order[++nk] = $1 }
        { v[$1, ++n[$1]] = $2 + 0 }
        END {
            for (k = 1; k <= nk; k++) {
                key = order[k]; m = n[key]
                for (i = 1; i <= m; i++) a[i] = v[key, i]
                for (i = 2; i <= m; i++)       # insertion sort: a few runs per key
                    for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
                med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
                printf "%s %.4f\n", key, med
            }
        }'
}

# is_uint VALUE: VALUE is a whole number.
is_uint() { case $1 in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }
# at_least VALUE MIN: VALUE is a whole number >= MIN.
at_least() { is_uint "$1" && [ "$1" -ge "$2" ]; }

# The options every timing script takes: RUNS (at least MIN_RUNS), NP and
# RUN_TIMEOUT; die() comes from the script.
check_run_options() {
    at_least "$RUNS" "$MIN_RUNS" ||
        die "--runs must be a whole number of at least $MIN_RUNS (a median of fewer says little), not '$RUNS'"
    at_least "$NP" 1 || die "--np must be a whole number of at least 1, not '$NP'"
    at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
}

# ---- Two libraries measured in alternating runs (osu.sh, exchange.sh).

# ab_table RESULTS: from lines "BUSY NP LIB PROG SIZE VALUE LOAD" (LIB ushmem
# or ompi; SIZE any word), one row per series, PE count, program and size in order of first
# appearance: medians, ratio, rounds with a figure (ushmem/Open MPI), each
# library's smallest-largest, and the load average's smallest-largest.
ab_table() {
    printf '%-5s %-3s %-10s %-20s %10s %10s %6s %6s %-19s %-19s %s\n' busy PEs benchmark size \
        ushmem "Open MPI" ratio runs "ushmem min-max" "Open MPI min-max" load
    awk '{ k = $1 " " $2 " " $4 " " $5; if (!(k in seen)) { seen[k] = 1; print k } }' "$1" |
    while read -r b n p s; do
        local u o ur or lr
        u=$(awk -v b="$b" -v n="$n" -v p="$p" -v s="$s" '$1 == b && $2 == n && $3 == "ushmem" && $4 == p && $5 == s { print $6 }' "$1")
        o=$(awk -v b="$b" -v n="$n" -v p="$p" -v s="$s" '$1 == b && $2 == n && $3 == "ompi" && $4 == p && $5 == s { print $6 }' "$1")
        lr=$(awk -v b="$b" -v n="$n" -v p="$p" -v s="$s" '$1 == b && $2 == n && $4 == p && $5 == s { print $7 }' "$1" | min_max)
        ur=$(printf '%s\n' "$u" | grep . | spread)
        or=$(printf '%s\n' "$o" | grep . | spread)
        u=$(printf '%s\n' "$u" | grep . | median 2)
        o=$(printf '%s\n' "$o" | grep . | median 2)
        printf '%-5s %-3s %-10s %-20s %10s %10s %6s %6s %-19s %-19s %s\n' "$b" "$n" "$p" "$s" "$u" "$o" \
            "$(ratio "$u" "$o")" "$(count_of "$1" "$b" "$n" ushmem "$p" "$s")/$(count_of "$1" "$b" "$n" ompi "$p" "$s")" \
            "$ur" "$or" "${lr/ /-}"
    done
}

# spread: "MIN-MAX" of the numbers on stdin to two places, or n/a.
spread() {
    sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 }
        END { if (NR == 0) print "n/a"; else printf "%.2f-%.2f\n", lo, hi }'
}

count_of() { # count_of RESULTS BUSY NP LIB PROG SIZE
    awk -v b="$2" -v n="$3" -v l="$4" -v p="$5" -v s="$6" \
        '$1 == b && $2 == n && $3 == l && $4 == p && $5 == s { c++ } END { print c + 0 }' "$1"
}

# ab_job LOG WHAT TAG PARSER CMD...: one job of an alternating run, in
# WORKDIR, killed after RUN_TIMEOUT s, its output in LOG. It failed if it
# exited non-zero or PARSER (a function of LOG) prints nothing: then its
# output is shown under WHAT (BENCH_NAME first) and, unless TAG is warmup,
# FAILED is set. Returns 0, or the job's status (1 for no figure).
ab_job() {
    local log=$1 what=$2 tag=$3 parser=$4 rc
    shift 4
    (cd "$WORKDIR" && exec timeout -k 10 "$RUN_TIMEOUT" "$@") </dev/null >"$log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && [ -n "$("$parser" "$log")" ] && return 0
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "$BENCH_NAME: $what, run $tag: killed after ${RUN_TIMEOUT}s; its output:" >&2
    else
        echo "$BENCH_NAME: $what, run $tag: exit status $rc, or no figure; its output:" >&2
    fi
    tail -n 20 "$log" | sed 's/^/    /' >&2
    # shellcheck disable=SC2034  # the calling script reads it
    [ "$tag" = warmup ] || FAILED=1
    [ "$rc" -ne 0 ] || rc=1
    return "$rc"
}

# start_busy N: N processes that only spin, as another job's would; their
# pids in BUSY_PIDS, for stop_busy (which a script's exit trap calls too).
BUSY_PIDS=""
start_busy() {
    local i
    for ((i = 0; i < $1; i++)); do
        sh -c 'while :; do :; done' &
        BUSY_PIDS="$BUSY_PIDS $!"
    done
}
# (Safe under set -e, as suite.sh runs: a loop killed is not a failure.)
stop_busy() {
    local pid
    for pid in $BUSY_PIDS; do kill "$pid" 2>/dev/null || true; done
    for pid in $BUSY_PIDS; do wait "$pid" 2>/dev/null || true; done
    BUSY_PIDS=""
}


# now_us: wall clock in microseconds.
now_us() {
    local ns
    ns=$(date +%s%N)
    echo $((ns / 1000))
}

bench_self_test() {
    local fails=0 tmp got t0 t1
    check() { # check NAME EXPECTED GOT
        if [ "$2" != "$3" ]; then
            echo "self-test FAIL: $1: expected '$2', got '$3'"
            fails=$((fails + 1))
        fi
    }
    check "median odd"      "3.0"   "$(printf '5\n1\n3\n' | median)"
    check "median even"     "2.5"   "$(printf '4\n1\n3\n2\n' | median)"
    check "median numeric"  "10.0"  "$(printf '9\n10\n100\n' | median)"
    check "median one"      "7.5"   "$(printf '7.5\n' | median)"
    check "median none"     "n/a"   "$(printf '' | median)"
    check "min_max"         "1.0 100.0" "$(printf '9\n100\n1\n' | min_max)"
    check "min_max none"    "n/a n/a"   "$(printf '' | min_max)"
    check "ratio"           "0.50"  "$(ratio 100 200)"
    check "ratio above 1"   "1.33"  "$(ratio 400 300)"
    check "ratio missing"   "n/a"   "$(ratio n/a 200)"
    check "ratio zero"      "n/a"   "$(ratio 100 0)"
    check "group_medians"   "b 2.0000|a 0.0150" \
        "$(printf 'b 1\na 0.02\nb 3\na 0.01\nb 2\n' | group_medians | paste -sd'|')"
    check "group_medians even" "k 2.5000" "$(printf 'k 4\nk 1\nk 3\nk 2\n' | group_medians)"

    tmp=$(mktemp) || { echo "self-test: mktemp failed"; return 1; }
    printf 'hello from PE 2 of 4\nhello from PE 0 of 4\nnoise\nhello from PE 3 of 4\nhello from PE 1 of 4\n' >"$tmp"
    hello_ok 4 "$tmp"; check "hello all PEs" 0 $?
    printf 'hello from PE 0 of 4\nhello from PE 1 of 4\nhello from PE 2 of 4\n' >"$tmp"
    hello_ok 4 "$tmp"; check "hello one PE missing" 1 $?
    printf 'hello from PE 0 of 2\nhello from PE 0 of 2\n' >"$tmp"
    hello_ok 2 "$tmp"; check "hello duplicate PE" 1 $?
    printf 'hello from PE 0 of 1\nhello from PE 0 of 1\n' >"$tmp"
    hello_ok 2 "$tmp"; check "hello two one-PE jobs" 1 $?
    printf 'hello from PE 0 of 2\nhello from PE 2 of 2\n' >"$tmp"
    hello_ok 2 "$tmp"; check "hello PE out of range" 1 $?
    printf 'hello from PE 0 of 2\nhello from PE x of 2\n' >"$tmp"
    hello_ok 2 "$tmp"; check "hello PE not a number" 1 $?
    rm -f "$tmp"

    # A 0.2 s sleep must read as at least 0.15 s and (even on a loaded
    # machine) well under a minute: catches a clock read in the wrong unit.
    t0=$(now_us); sleep 0.2; t1=$(now_us); got=$((t1 - t0))
    if [ "$got" -lt 150000 ] || [ "$got" -gt 60000000 ]; then
        echo "self-test FAIL: a 0.2 s sleep measured $got us"
        fails=$((fails + 1))
    fi

    self_test_verdict "$fails"
}

# The last line of a script's self-test, from its count of failed checks;
# the status is the verdict.
self_test_verdict() { # self_test_verdict FAILS
    if [ "$1" -ne 0 ]; then
        echo "self-test: $1 check(s) failed"
        return 1
    fi
    echo "self-test: all checks passed"
    return 0
}

# run_once LABEL TAG CMD...: one job, timed (in WORKDIR, killed after
# RUN_TIMEOUT s; BENCH_NAME prefixes its messages); appends its time in ms to
# times-LABEL (correct runs) and counts failures in fails-LABEL.
run_once() {
    local label=$1 tag=$2 t0 t1 rc log
    shift 2
    log=$WORKDIR/run-$label-$tag.log
    t0=$(now_us)
    # -k: a launcher that ignores SIGTERM is killed outright; either way the
    # run counts as failed.
    (cd "$WORKDIR" && exec timeout -k 5 "$RUN_TIMEOUT" "$@") </dev/null >"$log" 2>&1
    rc=$?
    t1=$(now_us)
    if [ "$rc" -eq 0 ] && hello_ok "$NP" "$log"; then
        [ "$tag" = warmup ] ||
            awk -v us=$((t1 - t0)) 'BEGIN { printf "%.3f\n", us / 1000 }' >>"$WORKDIR/times-$label"
        return 0
    fi
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "$BENCH_NAME: $label run $tag: killed after ${RUN_TIMEOUT}s" >&2
    else
        echo "$BENCH_NAME: $label run $tag: exit status $rc, or not one hello line per PE; its output:" >&2
    fi
    sed 's/^/    /' "$log" | tail -n 20 >&2
    [ "$tag" = warmup ] || echo x >>"$WORKDIR/fails-$label"
    [ "$tag" = warmup ] || FAILED=1
    return 1
}
