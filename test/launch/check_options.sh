#!/bin/sh
# --help, --version, -x, --bind-to, --timeout (more of binding in
# check_binding.sh, the hand-off options in check_handoff.sh).
# Usage: check_options.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

run --help
expect_status 0
for opt in -n --tag-output -x --bind-to --report-bindings --launcher --host --hostfile \
           --mca --verbose --timeout --help --version; do
    grep -q -- " $opt" "$out" || fail "--help does not document $opt"
done

run --version
expect_status 0
expect_grep "$out" "^oshrun \(ushmem\) [0-9]"

run -n 2 -x USH_LAUNCH_TEST_VAR=hello "$pe" env USH_LAUNCH_TEST_VAR
expect_status 0
expect_lines "$out" 2
[ "$(grep -c '^USH_LAUNCH_TEST_VAR=hello$' "$out")" -eq 2 ] || fail "-x did not reach both PEs"

run -n 1 -x "1BAD=x" "$pe" env SHMEM_LAUNCHER
expect_status 2
expect_grep "$err" "^oshrun: bad -x '1BAD=x'"

run -n 1 "$pe" env SHMEM_LAUNCHER
expect_grep "$out" "^SHMEM_LAUNCHER=oshrun$"

# a PMIx contact address inherited from outside must not reach the PEs
PMIX_SERVER_URI41=bogus run -n 1 "$pe" env PMIX_SERVER_URI41
expect_status 0
expect_no_grep "$out" "=bogus$"

# --bind-to core: each PE may use the CPUs of one core; with two cores or
# more, two PEs get different ones and fewer than an unbound PE
run -n 2 --bind-to none "$pe" affinity
expect_status 0
all=$(sed -n 's/^PE 0 cpus \([0-9]*\) .*/\1/p' "$out")
cores=$(lscpu -p=CORE 2>/dev/null | grep -v '^#' | sort -u | wc -l)
run -n 2 --bind-to core "$pe" affinity
expect_status 0
expect_lines "$out" 2
l0=$(sed -n 's/^PE 0 cpus [0-9]* list //p' "$out")
l1=$(sed -n 's/^PE 1 cpus [0-9]* list //p' "$out")
[ -n "$l0" ] && [ -n "$l1" ] || fail "PEs report no cpus"
if [ "$cores" -ge 2 ] && [ "$all" -ge 2 ]; then
    [ "$l0" != "$l1" ] || fail "PE 0 and PE 1 are bound to the same cpus ($l0)"
    for r in 0 1; do
        c=$(sed -n "s/^PE $r cpus \([0-9]*\) .*/\1/p" "$out")
        [ "$c" -lt "$all" ] || fail "PE $r is not bound ($c of $all cpus)"
    done
fi

run --timeout 1 -n 2 "$pe" sleep
expect_status 124
expect_faster 3000
expect_grep "$err" "^oshrun: the job ran longer than --timeout 1 s"
expect_clean
echo "PASS [$test_name]"
