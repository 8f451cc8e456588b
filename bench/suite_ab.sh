#!/bin/bash
# suite_ab.sh: two ushmem installs ("before" and "after" a change), each
# against Open MPI's OSHMEM, in alternating suite.sh invocations; per
# benchmark, PE count and size, the median over invocations of each one's
# ratio ushmem / Open MPI. Each ratio comes from one invocation, where
# ushmem and Open MPI ran back to back, so a burst of load from elsewhere
# falls on both sides of it; the order before/after alternates too.
#
#   suite_ab.sh BEFORE_PREFIX AFTER_PREFIX [PAIRS] [suite.sh options...]
#
# e.g. bench/suite_ab.sh /tmp/main-install build/install 10 \
#          --np "2 4" --mem heap --bench put,put_nbi --sizes 8:64k --time 40
# Output: a Markdown table on stdout; every invocation's results under
# OUT (default build/bench-ab, or $OUT), one directory each.

set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
BEFORE=$1 AFTER=$2
shift 2
PAIRS=5
if [ $# -gt 0 ] && is_uint "$1"; then PAIRS=$1; shift; fi
at_least "$PAIRS" 1 || { echo "suite_ab.sh: PAIRS must be at least 1" >&2; exit 2; }
OUT=${OUT:-$SCRIPT_DIR/../build/bench-ab}
mkdir -p "$OUT"

for i in $(seq "$PAIRS"); do
    order="before after"
    [ $((i % 2)) -eq 0 ] && order="after before"
    for side in $order; do
        prefix=$BEFORE
        [ "$side" = after ] && prefix=$AFTER
        "$SCRIPT_DIR/suite.sh" --prefix "$prefix" --runs 1 --out "$OUT/$side-$i" "$@" \
            >"$OUT/$side-$i.log" 2>&1 ||
            { echo "suite_ab.sh: $side run $i failed, see $OUT/$side-$i.log" >&2; exit 1; }
        echo "  pair $i: $side done" >&2
    done
done

# medians.csv: bench,target,npes,bytes,ushmem_usec,ompi_usec,ratio,...
for side in before after; do
    for i in $(seq "$PAIRS"); do
        awk -F, -v s="$side" 'NR > 1 && $7 != "" {
            k = $1 "|" $2 "|" $3 "|" $4
            print s "|ratio|" k, $7; print s "|us|" k, $5; print "ompi|us|" k, $6 }' \
            "$OUT/$side-$i/medians.csv"
    done
done | group_medians >"$OUT/ab.med"

echo "| bench | target | PEs | bytes | before: ratio (ushmem us) | after: ratio (ushmem us) | Open MPI us |"
echo "|---|---|---|---|---|---|---|"
awk '{ split($1, p, "|"); key = p[3] "|" p[4] "|" p[5] "|" p[6]
       if (!(key in seen)) { seen[key] = 1; order[++n] = key }
       v[p[1] "|" p[2] "|" key] = $2 }
     END {
       for (i = 1; i <= n; i++) {
           k = order[i]; split(k, f, "|")
           b = f[4] + 0; size = b >= 1048576 ? b / 1048576 "M" : b >= 1024 ? b / 1024 "K" : b
           printf "| %s | %s | %s | %s | %.2f (%.4f) | %.2f (%.4f) | %.4f |\n", f[1], f[2], f[3],
               size, v["before|ratio|" k], v["before|us|" k], v["after|ratio|" k],
               v["after|us|" k], v["ompi|us|" k]
       }
     }' "$OUT/ab.med"
