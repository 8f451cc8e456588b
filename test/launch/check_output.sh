#!/bin/sh
# Output of all PEs arrives, on the right stream, and --tag-output tags
# every line with its PE. Stdin goes to PE 0 only.
# Usage: check_output.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1
n=4

run -n $n "$pe" hello
expect_status 0
expect_lines "$out" $n
expect_lines "$err" $n
r=0
while [ $r -lt $n ]; do
    [ "$(grep -c "^hello from PE $r\$" "$out")" -eq 1 ] || fail "no single stdout line from PE $r"
    [ "$(grep -c "^note from PE $r\$" "$err")" -eq 1 ] || fail "no single stderr line from PE $r"
    r=$((r + 1))
done
expect_clean

run -n $n --tag-output "$pe" hello
expect_status 0
expect_lines "$out" $n
expect_lines "$err" $n
r=0
while [ $r -lt $n ]; do
    expect_grep "$out" "^\[PE $r\] hello from PE $r\$"
    expect_grep "$err" "^\[PE $r\] note from PE $r\$"
    r=$((r + 1))
done

# unterminated last lines stay whole, one per PE
run -n $n --tag-output "$pe" partial
expect_status 0
expect_lines "$out" $n
r=0
while [ $r -lt $n ]; do
    expect_grep "$out" "^\[PE $r\] partial from PE $r\$"
    r=$((r + 1))
done

# many lines written in pieces by several PEs at once: every line arrives
# whole, tagged with its own PE, in order within each PE
lines=3000
run -n $n --tag-output "$pe" lines $lines
expect_status 0
expect_lines "$out" $((n * lines))
bad=$(grep -Evc '^\[PE ([0-9]+)\] line \1 [0-9]+ of PE \1$' "$out")
[ "$bad" -eq 0 ] || fail "$bad relayed lines are torn or mis-tagged"
r=0
while [ $r -lt $n ]; do
    grep "^\[PE $r\] " "$out" | sed 's/.* line [0-9]* \([0-9]*\) of.*/\1/' >"$scratch/seq"
    seq 0 $((lines - 1)) | cmp -s - "$scratch/seq" || fail "lines of PE $r are missing or out of order"
    r=$((r + 1))
done

# stdin reaches PE 0 only
printf 'one\ntwo\n' >"$scratch/in"
run -n 2 "$pe" stdin <"$scratch/in"
expect_status 0
expect_lines "$out" 2
expect_grep "$out" "^got one$"
expect_grep "$out" "^got two$"
expect_clean
echo "PASS [$test_name]"
