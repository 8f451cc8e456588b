#!/usr/bin/env bash
# lock.sh [--prefix DIR | --build DIR] [--runs N] [--np P] [--iters K]
# Times lock_bench.c (P PEs hammering one lock, K set/clear pairs each)
# with ushmem and with Debian's Open MPI OSHMEM, alternating, RUNS times
# each, and prints the median total time and time per acquisition of
# each library and the ratio ushmem / Open MPI. Times, never asserts; a
# run that fails (wrong count, crash, timeout) is reported and left out.
#
# ushmem's oshcc/oshrun come from DIR/bin of an install (--prefix, default
# ../build/install) or from DIR/launcher of a build tree (--build).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${PREFIX:-$here/../build/install}
build=
runs=5
np=8
iters=2000
ompi_args=(--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0)
usage() { echo "usage: lock.sh [--prefix DIR | --build DIR] [--runs N] [--np P] [--iters K]" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    *) usage ;;
    esac
done
if [ -n "$build" ]; then
    bin=$build/launcher
else
    bin=$prefix/bin
fi
for tool in "$bin/oshcc" "$bin/oshrun" /usr/bin/oshcc /usr/bin/oshrun; do
    [ -x "$tool" ] || { echo "lock.sh: '$tool' not found or not executable" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/oshcc" -O2 "$here/lock_bench.c" -o "$tmp/lock_ushmem"
/usr/bin/oshcc -O2 "$here/lock_bench.c" -o "$tmp/lock_ompi"

# run LABEL CMD...: one job; its "lock ..." line goes to results, prefixed.
run() {
    local label=$1
    shift
    if ! timeout -k 5 300 "$@" >"$tmp/out" 2>"$tmp/err" || ! grep -q '^lock ' "$tmp/out"; then
        echo "lock.sh: a $label run failed:" >&2
        tail -5 "$tmp/err" >&2
        return 0
    fi
    grep '^lock ' "$tmp/out" | sed "s/^/$label /" >>"$tmp/results"
}
: >"$tmp/results"
for r in $(seq "$runs"); do
    run ushmem "$bin/oshrun" -n "$np" "$tmp/lock_ushmem" "$iters"
    run ompi /usr/bin/oshrun "${ompi_args[@]}" -np "$np" "$tmp/lock_ompi" "$iters"
done

echo "lock: $np PEs, $iters set/clear pairs each, median of $runs runs (alternating)"
printf '%-10s %5s %12s %16s\n' library runs "total s" "us/acquisition"
awk '
    { n[$1]++; tot[$1, n[$1]] = $5; per[$1, n[$1]] = $6 }
    function median(a, lib,   m, i, j, t, v) {
        m = n[lib]
        if (m == 0) return -1
        for (i = 1; i <= m; i++) v[i] = a[lib, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    }
    END {
        split("ushmem ompi", libs, " ")
        for (l = 1; l <= 2; l++) {
            lib = libs[l]
            tm[lib] = median(tot, lib); pm[lib] = median(per, lib)
            printf "%-10s %5d %12s %16s\n", lib == "ompi" ? "Open MPI" : lib, n[lib],
                   tm[lib] < 0 ? "-" : sprintf("%.3f", tm[lib]), pm[lib] < 0 ? "-" : sprintf("%.2f", pm[lib])
        }
        if (pm["ushmem"] > 0 && pm["ompi"] > 0)
            printf "ratio ushmem / Open MPI: %.2f\n", pm["ushmem"] / pm["ompi"]
    }' "$tmp/results"
