#!/usr/bin/env bash
# coll.sh [--prefix DIR] [--runs N] [--np "2 4"] [--iters N]
# Runs coll_bench.c with ushmem (DIR/bin/oshcc, oshrun) and with Debian's
# Open MPI OSHMEM, alternating, RUNS times per library and PE count, and
# prints for each (collective, bytes, PEs) the median time per call of
# each library and the ratio ushmem / Open MPI. Times, never asserts.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${PREFIX:-$here/../build/install}
runs=5
nps="2 4"
iters=1000
ompi_args=(--allow-run-as-root --oversubscribe --mca spml_ucx_opal_mem_hooks 0)
while [ $# -gt 0 ]; do
    case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    *) echo "usage: coll.sh [--prefix DIR] [--runs N] [--np \"2 4\"] [--iters N]" >&2; exit 2 ;;
    esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$prefix/bin/oshcc" -O2 "$here/coll_bench.c" -o "$tmp/coll_ushmem"
/usr/bin/oshcc -O2 "$here/coll_bench.c" -o "$tmp/coll_ompi"

for np in $nps; do
    for r in $(seq "$runs"); do
        timeout 120 "$prefix/bin/oshrun" -n "$np" "$tmp/coll_ushmem" "$iters" |
            sed "s/^/ushmem $np /" >>"$tmp/results"
        timeout 120 /usr/bin/oshrun "${ompi_args[@]}" -np "$np" "$tmp/coll_ompi" "$iters" 2>/dev/null |
            sed "s/^/ompi $np /" >>"$tmp/results"
    done
done

echo "collectives: median microseconds per call over $runs runs (alternating), $iters iterations"
printf '%-10s %8s %4s %12s %12s %8s\n' collective bytes PEs ushmem "Open MPI" ratio
awk '
    { key = $3 " " $4 " " $2; v[$1, key, ++n[$1, key]] = $5; keys[key] = 1 }
    function median(lib, key,   m, i, j, t, a) {
        m = n[lib, key]
        if (m == 0) return -1
        for (i = 1; i <= m; i++) a[i] = v[lib, key, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        for (k in keys) {
            split(k, p, " ")
            u = median("ushmem", k); o = median("ompi", k)
            printf "%-10s %8s %4s %12.2f %12.2f %8s\n", p[1], p[2], p[3], u, o, (u > 0 && o > 0) ? sprintf("%.2f", u / o) : "-"
        }
    }' "$tmp/results" | sort -k1,1 -k3,3n -k2,2n
