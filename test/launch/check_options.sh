#!/bin/sh
# --help, --version, -x, --bind-to, --timeout, and the options job scripts
# pass to mpirun / mpiexec: -c, -N / --npernode / -ppn,
# --map-by, --wdir, --output-filename, -genv, --oversubscribe,
# --allow-run-as-root, and a program found in the current directory
# (more of binding in check_binding.sh, the hand-off options in
# check_handoff.sh).
# Usage: check_options.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

run --help
expect_status 0
for opt in -n -np -c -N --npernode -ppn --tag-output --output-filename --wdir -x -genv \
           --bind-to --report-bindings --launcher --host --hostfile --mca --map-by \
           --oversubscribe --allow-run-as-root --verbose --timeout --help --version; do
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

# count_lines N RE: $out has exactly N lines matching RE
count_lines() {
    _c=$(grep -Ec -- "$2" "$out")
    [ "$_c" -eq "$1" ] || fail "$_c lines match '$2', expected $1"
}

# -c and --np=N are -n; -N / --npernode / -ppn give the count without -n
for o in "-c 3" "--np=3" "-N 3" "--npernode 3" "-npernode 3" "-ppn 3" "-N=3"; do
    run $o "$pe" env SHMEM_LAUNCHER
    expect_status 0
    count_lines 3 '^SHMEM_LAUNCHER=oshrun$'
    [ -s "$err" ] && fail "oshrun $o: unexpected stderr"
done
# with -n they mean nothing more on one node: a note, -n's count
run -n 2 -N 4 "$pe" env SHMEM_LAUNCHER
expect_status 0
count_lines 2 '^SHMEM_LAUNCHER=oshrun$'
expect_grep "$err" "^oshrun: note: -N 4 \(PEs per node\) ignored"
run -N 0 "$pe" env SHMEM_LAUNCHER
expect_status 2
expect_grep "$err" "^oshrun: bad number of PEs '0' for -N"

# --map-by: accepted, ignored with a note; --oversubscribe and
# --allow-run-as-root: accepted (oshrun does both anyway), silently
run -n 2 --map-by ppr:1:core "$pe" env SHMEM_LAUNCHER
expect_status 0
count_lines 2 '^SHMEM_LAUNCHER=oshrun$'
expect_grep "$err" "^oshrun: note: --map-by ppr:1:core ignored"
run -n 2 --oversubscribe --allow-run-as-root -oversubscribe "$pe" env SHMEM_LAUNCHER
expect_status 0
count_lines 2 '^SHMEM_LAUNCHER=oshrun$'
[ -s "$err" ] && fail "--oversubscribe / --allow-run-as-root: unexpected stderr"

# -genv VAR VALUE is -x VAR=VALUE
run -n 2 -genv USH_LAUNCH_TEST_VAR "two words" "$pe" env USH_LAUNCH_TEST_VAR
expect_status 0
count_lines 2 '^USH_LAUNCH_TEST_VAR=two words$'
run -n 1 -genv USH_LAUNCH_TEST_VAR
expect_status 2
expect_grep "$err" "^oshrun: -genv needs a name and a value"

# --mca KEY VALUE: an option where the name should be is refused, not taken
# as the name (which would also swallow -np's count)
run --mca -np 2 "$pe" true
expect_status 2
expect_grep "$err" "^oshrun: --mca needs a name and a value \(--mca KEY VALUE\), not the option '-np'$"

# --wdir: the PEs start there, a relative program path still works
mkdir -p "$scratch/wd"
wd=$(cd "$scratch/wd" && pwd -P)
for o in --wdir -wdir -wd; do
    run -n 2 $o "$scratch/wd" "$pe" cwd
    expect_status 0
    count_lines 2 "^PE [01] cwd $wd\$"
done
pedir=$(dirname "$pe")
pename=$(basename "$pe")
here=$(pwd)
cd "$pedir" || fail "cd $pedir"
run -n 1 --wdir "$scratch/wd" "./$pename" cwd
cd "$here" || fail "cd $here"
expect_status 0
expect_grep "$out" "^PE 0 cwd $wd\$"
run -n 1 --wdir "$scratch/missing" "$pe" cwd
expect_status 2
expect_grep "$err" "^oshrun: --wdir $scratch/missing: No such file or directory"

# --output-filename DIR: DIR/1/rank.N/stdout and stderr as Open MPI names
# them (N padded to the digits of the PE count), output still relayed
run -n 10 --output-filename "$scratch/of" "$pe" hello
expect_status 0
expect_lines "$out" 10
expect_lines "$err" 10
r=0
while [ $r -lt 10 ]; do
    d=$scratch/of/1/rank.$(printf %02d $r)
    [ "$(cat "$d/stdout" 2>/dev/null)" = "hello from PE $r" ] || fail "$d/stdout is wrong or missing"
    [ "$(cat "$d/stderr" 2>/dev/null)" = "note from PE $r" ] || fail "$d/stderr is wrong or missing"
    r=$((r + 1))
done
[ "$(ls "$scratch/of/1" | wc -l)" -eq 10 ] || fail "--output-filename: not 10 rank directories"
run -n 2 --output-filename /proc/no/such "$pe" hello
[ "$status" -ne 0 ] || fail "--output-filename into /proc succeeded"
expect_grep "$err" "^oshrun: --output-filename: cannot create /proc/no/such"

# a program not on PATH but in the current directory runs, as with mpirun
cd "$pedir" || fail "cd $pedir"
PATH=/usr/bin:/bin run -n 2 "$pename" env SHMEM_LAUNCHER
cd "$here" || fail "cd $here"
expect_status 0
count_lines 2 '^SHMEM_LAUNCHER=oshrun$'
cd "$scratch" || fail "cd $scratch"
PATH=/usr/bin:/bin run -n 1 "$pename" env SHMEM_LAUNCHER
cd "$here" || fail "cd $here"
expect_status 127
expect_grep "$err" "^oshrun: $pename: command not found"

run --timeout 1 -n 2 "$pe" sleep
expect_status 124
expect_faster 3000
expect_grep "$err" "^oshrun: the job ran longer than --timeout 1 s"
expect_clean
echo "PASS [$test_name]"
