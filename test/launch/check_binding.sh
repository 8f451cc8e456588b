#!/bin/sh
# Binding of the embedded launcher, as the kernel reports it to each PE
# (Cpus_allowed_list in /proc/self/status) and as --report-bindings prints
# it: --bind-to core gives each PE one core (distinct ones while they fit),
# none gives all, socket gives PE i socket i mod sockets, the default binds
# to cores only while the PEs fit on them.
# Usage: check_binding.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

# "0-2,5" -> "0 1 2 5"
expand() {
    echo "$1" | tr ',' '\n' | awk -F- 'NF { lo = $1; hi = (NF > 1) ? $2 : $1;
        for (c = lo; c <= hi; c++) printf "%d ", c }'
}
# Cpus_allowed_list of PE $1 in the last run
pe_cpus() {
    sed -n "s/^PE $1 Cpus_allowed_list: //p" "$out"
}

# What this process may use, and (from lscpu) the cores and sockets of
# those CPUs: an independent view of what hwloc should find.
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
[ -n "$mine" ] || fail "no Cpus_allowed_list in /proc/self/status"
topo=$(lscpu -p=CPU,CORE,SOCKET 2>/dev/null | grep -v '^#') ||
    fail "lscpu -p failed (util-linux)"
allowed=" $(expand "$mine")"
cores=$(echo "$topo" | while IFS=, read -r cpu core sock; do
            case "$allowed " in *" $cpu "*) echo "$sock.$core" ;; esac
        done | sort -u | wc -l)
sockets=$(echo "$topo" | while IFS=, read -r cpu core sock; do
              case "$allowed " in *" $cpu "*) echo "$sock" ;; esac
          done | sort -u | wc -l)
[ "$cores" -ge 1 ] || fail "lscpu shows none of this process's CPUs ($mine)"
echo "this process: CPUs $mine, $cores cores, $sockets sockets"

# --- none: every PE keeps all of them ---------------------------------------
run -n 2 --bind-to none --report-bindings "$pe" cpus-allowed
expect_status 0
for r in 0 1; do
    [ "$(pe_cpus $r)" = "$mine" ] || fail "--bind-to none: PE $r has $(pe_cpus $r), not $mine"
    expect_grep "$err" "^oshrun: PE $r not bound$"
done

# --- core: one core each, distinct while they fit, matching the report ----
n=$(( cores < 2 ? 2 : cores ))
run -n $n --bind-to core --report-bindings "$pe" cpus-allowed
expect_status 0
expect_lines "$out" $n
r=0 seen=
while [ $r -lt $n ]; do
    l=$(pe_cpus $r)
    [ -n "$l" ] || fail "PE $r printed no Cpus_allowed_list"
    rep=$(sed -n "s/^oshrun: PE $r bound to core \([0-9]*\) (PUs \(.*\))$/\1 \2/p" "$err")
    [ -n "$rep" ] || fail "--report-bindings has no 'PE $r bound to core' line"
    [ "${rep#* }" = "$l" ] || fail "PE $r: report says PUs ${rep#* }, kernel says $l"
    pe_core=$(for c in $(expand "$l"); do
                  echo "$topo" | awk -F, -v c="$c" '$1 == c { print $3 "." $2 }'
              done | sort -u)
    [ "$(echo "$pe_core" | wc -l)" -eq 1 ] || fail "PE $r spans several cores: CPUs $l"
    for c in $(expand "$l"); do
        case "$allowed " in *" $c "*) ;; *) fail "PE $r bound to CPU $c outside $mine" ;; esac
    done
    if [ "$cores" -ge 2 ]; then
        case " $seen " in *" $pe_core "*) fail "PE $r shares core $pe_core with another PE" ;; esac
    fi
    seen="$seen $pe_core"
    r=$((r + 1))
done

# --- default: bound while the PEs fit on the cores ... ---------------------
run -n $cores --verbose --report-bindings "$pe" cpus-allowed
expect_status 0
expect_grep "$err" "^oshrun: binding: core \($cores PEs fit on $cores cores"
[ "$(grep -c '^oshrun: PE [0-9]* bound to core ' "$err")" -eq "$cores" ] ||
    fail "default with $cores PEs on $cores cores did not bind each to a core"
# ... and not when they outnumber them (8 PEs here, or one more than cores)
many=$(( cores < 8 ? 8 : cores + 1 ))
run -n $many --verbose --report-bindings "$pe" cpus-allowed
expect_status 0
expect_lines "$out" $many
expect_grep "$err" "^oshrun: binding: none \($many PEs on $cores cores"
[ "$(grep -c '^oshrun: PE [0-9]* not bound$' "$err")" -eq $many ] ||
    fail "default with $many PEs: not one 'not bound' line per PE"
r=0
while [ $r -lt $many ]; do
    [ "$(pe_cpus $r)" = "$mine" ] || fail "default with $many PEs: PE $r has $(pe_cpus $r), not $mine"
    r=$((r + 1))
done

# --- socket: PE i on socket i mod sockets, all of its CPUs ----------------
n=$(( sockets + 1 ))
run -n $n --bind-to socket --report-bindings "$pe" cpus-allowed
expect_status 0
r=0
while [ $r -lt $n ]; do
    l=$(pe_cpus $r)
    rep=$(sed -n "s/^oshrun: PE $r bound to socket \([0-9]*\) (PUs \(.*\))$/\1 \2/p" "$err")
    [ -n "$rep" ] || fail "--report-bindings has no 'PE $r bound to socket' line"
    [ "${rep%% *}" -eq $((r % sockets)) ] || fail "PE $r on socket ${rep%% *}, expected $((r % sockets))"
    [ "${rep#* }" = "$l" ] || fail "PE $r: report says PUs ${rep#* }, kernel says $l"
    r=$((r + 1))
done
[ "$sockets" -gt 1 ] || [ "$(pe_cpus 0)" = "$mine" ] ||
    fail "one socket: PE 0 should have all of $mine, has $(pe_cpus 0)"

run -n 1 --bind-to bogus "$pe" cpus-allowed
expect_status 2
expect_grep "$err" "^oshrun: bad --bind-to 'bogus': give core, socket or none"
expect_clean
echo "PASS [$test_name]"
