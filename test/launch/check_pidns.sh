#!/bin/sh
# PEs on one node that cannot map one another's memory still start and
# synchronise: PE 0 runs in a PID namespace of its own, so the others
# cannot take its memory (their pids mean nothing to each other) and
# reach it through UCX. shmem_init's closing agreement is central on one
# node, through PE 0: its peers then ask PE 0 to hand them the result.
# The barrier program checks every barrier; shmem_ptr shows who maps whom.
#
#   check_pidns.sh PE_COLL_BARRIER
. "$(dirname "$0")/lib.sh"
prog=$1

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
   ! unshare --pid --fork --mount-proc true 2>/dev/null; then
    echo "SKIP [$test_name]: needs root and unshare with PID namespaces"
    exit 77
fi

cat >"$scratch/pe.sh" <<'SH'
#!/bin/sh
if [ "$PMIX_RANK" = "$APART" ]; then
    exec unshare --pid --fork --mount-proc "$@"
fi
exec "$@"
SH
chmod +x "$scratch/pe.sh"

for apart in 0 2; do
    APART=$apart run -n 4 "$scratch/pe.sh" "$prog"
    expect_status 0
    expect_grep "$out" "^all checks passed on 4 PEs$"
    expect_clean
    echo "  PE $apart in a PID namespace of its own: started and synchronised"
done
