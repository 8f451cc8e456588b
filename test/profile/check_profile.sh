#!/bin/bash
# Runs test/profile/profile_counts.c with the job profile on and checks the
# report against the counts the program is known to make:
#
#   check_profile.sh NP DIR FILE -- COMMAND...
#
# COMMAND runs the job with the profile on (SHMEM_PROFILE=1 or oshrun
# --profile) and gives its own verdict on the program's checks; it runs in
# DIR, a new directory;
# FILE is the report's path (relative to DIR) when SHMEM_PROFILE_FILE is set
# by the caller, or "-" for the default, ushmem-profile.txt.
# It then checks the table (calls and bytes of every routine, exactly; no
# routine that the program did not call; the time columns' order), the
# PE x PE matrix (every cell), and the two PNG plots (gnuplot is one of
# the test packages, so a missing plot fails).
set -u
np=$1 dir=$2 file=$3
shift 3
[ "$1" = -- ] && shift

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

rm -rf "$dir"
mkdir -p "$dir" || fail "cannot make $dir"
cd "$dir" || fail "cannot enter $dir"
[ "$file" = - ] && file=ushmem-profile.txt
base=${file%.txt}

"$@" || fail "the job failed (status $?)"

[ -s "$file" ] || fail "no report $dir/$file"
[ -s "$base-matrix.csv" ] || fail "no matrix $dir/$base-matrix.csv"
echo "--- $file"
cat "$file"
echo "--- $base-matrix.csv"
head -n 20 "$base-matrix.csv"

# routine calls bytes, per PE; multiplied by NP below
expected="shmem_init 1 0
shmem_finalize 1 0
shmem_barrier_all 4 0
shmem_long_put 10 8000
shmem_getmem 5 320
shmem_long_atomic_fetch_add 3 24
shmem_putmem_signal 2 80
shmem_signal_wait_until 1 0
shmem_malloc 1 1024
shmem_long_sum_reduce 1 128
shmem_broadcastmem 1 256
shfree 1 0"

table=$(grep -v '^#' "$file" | awk 'NR > 1 && NF == 8')
[ -n "$table" ] || fail "$file has no rows of 8 columns"
grep -q "^# ushmem .* profile of a job of $np PEs\? on ${CHECK_PROFILE_NODES:-1} nodes\?\$" "$file" ||
    fail "$file does not say the job had $np PE(s) on ${CHECK_PROFILE_NODES:-1} node(s)"

bad=0
while read -r name calls bytes; do
    row=$(echo "$table" | awk -v n="$name" '$1 == n')
    if [ -z "$row" ]; then
        echo "missing routine $name" >&2
        bad=1
        continue
    fi
    set -- $row
    want_calls=$((calls * np)) want_bytes=$((bytes * np))
    if [ "$2" != "$want_calls" ] || [ "$3" != "$want_bytes" ]; then
        echo "$name: calls $2 bytes $3, expected calls $want_calls bytes $want_bytes" >&2
        bad=1
    fi
done <<<"$expected"
[ $bad = 0 ] || fail "wrong counts in $file"

# nothing else: not the shmem_free that shfree calls, not shmem_pcontrol
extra=$(echo "$table" | awk '{print $1}' | grep -vxF -f <(echo "$expected" | awk '{print $1}'))
[ -z "$extra" ] || fail "routines the program did not call directly: $extra"

# time: total >= max >= median >= min >= 0, per row
echo "$table" | awk '{ if (!($4 >= $7 - 1e-6 && $7 >= $6 && $6 >= $5 && $5 >= 0)) { print; bad = 1 } }
                     END { exit bad }' ||
    fail "a row's times are out of order (total, min, median, max)"

# the matrix: PE p moved 8000 + 80 bytes to its right neighbour, 320 from
# its left one and 24 to PE 0
awk -F, -v np="$np" '
    NR == 1 {
        if (NF != np + 1 || $1 != "pe") { print "bad header: " $0; bad = 1 }
        for (c = 2; c <= NF; c++) if ($c != c - 2) { print "bad header: " $0; bad = 1 }
        next
    }
    {
        p = NR - 2
        if ($1 != p || NF != np + 1) { print "bad row " NR ": " $0; bad = 1; next }
        for (q = 0; q < np; q++) want[q] = 0
        want[(p + 1) % np] += 8080; want[(p + np - 1) % np] += 320; want[0] += 24
        for (q = 0; q < np; q++)
            if ($(q + 2) != want[q]) {
                print "PE " p " to PE " q ": " $(q + 2) " bytes, expected " want[q]; bad = 1
            }
    }
    END { if (NR != np + 1) { print NR - 1 " rows, expected " np; bad = 1 } exit bad }
' "$base-matrix.csv" || fail "wrong matrix in $base-matrix.csv"

for png in "$base-matrix.png" "$base-time.png"; do
    [ -s "$png" ] || fail "no plot $dir/$png (gnuplot: $(command -v gnuplot || echo 'not installed'))"
    [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "$png is not a PNG"
done
echo "profile of $np PEs: every count and every cell as expected; plots written"
