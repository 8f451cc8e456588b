#!/bin/sh
# PEs on one node that cannot map one another's memory still start and
# synchronise: one PE runs in a PID namespace of its own, so it and PE 0
# cannot take each other's memory (their pids mean nothing to each other)
# and reach each other through UCX. shmem_init's closing agreement is
# central on one node, through PE 0: a PE that cannot map PE 0 asks PE 0
# to hand it the result. shmem_ptr first shows who maps PE 0; then the
# barrier program checks every barrier.
#
#   check_pidns.sh SHMEM_BEHAVE PE_COLL_BARRIER
. "$(dirname "$0")/lib.sh"
behave=$1 prog=$2

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
   ! unshare --pid --fork --mount-proc true 2>/dev/null; then
    echo "SKIP [$test_name]: needs root and unshare with PID namespaces"
    exit 77
fi

cat >"$scratch/pe.sh" <<'SH'
#!/bin/sh
if [ "$PMIX_RANK" = "$APART" ]; then
    # the pid it would record is its namespace's (1), not one the checks
    # for leftovers can look up
    unset LAUNCH_TEST_PIDDIR
    exec unshare --pid --fork --mount-proc "$@"
fi
exec "$@"
SH
chmod +x "$scratch/pe.sh"

# apart, then the PEs that must not map PE 0 (PE 0 always maps itself)
for case in "0 1 2 3" "2 2"; do
    set -- $case
    apart=$1
    shift
    APART=$apart run -n 4 "$scratch/pe.sh" "$behave" maps0
    expect_status 0
    expect_grep "$out" "^PE 0 maps PE 0: yes$"
    for pe in 1 2 3; do
        want=yes
        case " $* " in *" $pe "*) want=no ;; esac
        expect_grep "$out" "^PE $pe maps PE 0: $want$"
    done
    expect_clean

    APART=$apart run -n 4 "$scratch/pe.sh" "$prog"
    expect_status 0
    expect_grep "$out" "^all checks passed on 4 PEs$"
    expect_clean
    echo "  PE $apart in a PID namespace of its own (PEs $* do not map PE 0): started and synchronised"
done
