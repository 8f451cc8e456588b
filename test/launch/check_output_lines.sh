#!/bin/sh
# Output lines never mix. PEs, more of them than cores,
# write many 99-byte lines through fully buffered stdio to the relay pipe,
# so most writes end mid-line; a few times each PE also flushes half a line
# and pauses 300 ms (longer than the old relay's 0.2 s patience for a
# partial line). Every output line must be exactly one PE's line, whole,
# in order, with and without --tag-output. A line longer than the relay's
# documented bound (64 KiB) comes out in pieces of at most that size, each
# its own line and each tagged.
# Usage: check_output_lines.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1
n=6
lines=50000
len=99
stalls=3
max=65536

# check_lines TAGGED: every line of $out is "r:i:" + PE r's letter, LEN
# bytes, tagged "[PE r] " when TAGGED; i runs 0.. in order for each PE.
check_lines() {
    awk -v tagged="$1" -v len=$len -v n=$n -v lines=$lines '
    {
        l = $0
        if (tagged) {
            if (!match(l, /^\[PE [0-9]+\] /)) { bad++; next }
            tr = substr(l, 5, RLENGTH - 6)
            l  = substr(l, RLENGTH + 1)
        }
        r = l; sub(/:.*/, "", r)
        i = substr(l, length(r) + 2); sub(/:.*/, "", i)
        body = substr(l, length(r) + length(i) + 3)
        c = sprintf("%c", 97 + r % 26)
        if (length(l) != len || (tagged && tr != r) || r !~ /^[0-9]+$/ ||
            body !~ ("^" c "+$")) {
            if (bad++ < 3) print "torn line " NR ": " substr($0, 1, 120) > "/dev/stderr"
            next
        }
        if (i != next_i[r] + 0) {
            if (bad++ < 3) print "line " NR " out of order: " substr($0, 1, 40) > "/dev/stderr"
        }
        next_i[r] = i + 1; whole[r]++
    }
    END {
        for (r = 0; r < n; r++) if (whole[r] != lines) {
            print "PE " r ": " whole[r] + 0 " whole lines of " lines > "/dev/stderr"; bad++
        }
        exit bad > 0
    }' "$out"
}

for tag in "" --tag-output; do
    run -n $n --bind-to none $tag "$pe" stdio-lines $lines $len $stalls
    expect_status 0
    echo "  $n PEs x $lines lines ${tag:-untagged}: $elapsed_ms ms"
    [ -s "$err" ] && fail "unexpected stderr"
    check_lines "${tag:+1}" || fail "torn, mixed or missing lines ${tag:-without tags}"
    expect_lines "$out" $((n * lines))
done
expect_clean

# an over-long line: pieces of at most the bound, each tagged, all there
long=200000
run -n 2 --tag-output "$pe" long-line $long
expect_status 0
awk -v max=$max -v long=$long '
    !match($0, /^\[PE [01]\] /) { bad++; next }
    {
        r = substr($0, 5, 1); body = substr($0, RLENGTH + 1)
        if (length(body) > max || body !~ ("^" (r == 0 ? "a" : "b") "+$")) bad++
        total[r] += length(body); pieces[r]++
    }
    END {
        for (r = 0; r < 2; r++) {
            print "  PE " r ": " pieces[r] " pieces, " total[r] " bytes"
            if (total[r] != long) bad++
        }
        exit bad > 0
    }' "$out" || fail "an over-long line came out wrong"
expect_clean
echo "PASS [$test_name]"
