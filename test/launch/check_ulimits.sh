#!/bin/sh
# Per-process limits a batch system or a shell sets: a job that fits runs,
# one that does not is refused or stopped with the limit named and the
# figure it needs.
#
#   check_ulimits.sh SHMEM_BEHAVE
. "$(dirname "$0")/lib.sh"
prog=$1

# Descriptors: oshrun holds three per PE (two relay pipes and its PMIx
# socket) and about 16 of its own; 4 PEs run under 64 (Open MPI's mpirun
# does too), 14 need about 66.
(ulimit -n 64 && run -n 4 "$prog" hello && echo "$status" >"$scratch/st") || fail "ulimit -n 64"
status=$(cat "$scratch/st")
expect_status 0
[ "$(grep -c '^hello from PE' "$out")" -eq 4 ] || fail "not 4 hellos under ulimit -n 64"
(ulimit -n 60 && run -n 14 "$prog" hello && echo "$status" >"$scratch/st") || fail "ulimit -n 60"
status=$(cat "$scratch/st")
expect_status 2
expect_grep "$err" "^oshrun: -n 14 needs about 66 file descriptors but the limit is 60 \(raise it with 'ulimit -n'\)$"
echo "  ulimit -n: 4 PEs run at 64, 14 refused at 60 with the figure"

# Address space: a PE maps the heap of each node-local PE it reaches;
# under ulimit -v the mapping that does not fit names the limit, what the
# PE uses and about what it needs, not a container or namespace problem.
(ulimit -v 800000 && run -n 4 "$prog" hello-all && echo "$status" >"$scratch/st") || fail "ulimit -v"
status=$(cat "$scratch/st")
expect_status 1
expect_grep "$err" "^ushmem: PE [0-3]: cannot map the symmetric memory of PE [0-3] \(segment 0, [0-9]+ KiB\), which runs on this node: the address-space limit \(ulimit -v\) is 800000 KiB and this PE already uses [0-9]+ KiB. each PE maps the segments of the node's 4 PEs: raise the limit to about [0-9]+ KiB or more \(ulimit -v unlimited\), or lower SHMEM_SYMMETRIC_SIZE$"
expect_no_grep "$err" "container"
need=$(sed -n 's/.*raise the limit to about \([0-9]*\) KiB.*/\1/p' "$err" | head -1)
expect_clean
(ulimit -v "$need" && run -n 4 "$prog" hello-all && echo "$status" >"$scratch/st") || fail "ulimit -v $need"
status=$(cat "$scratch/st")
expect_status 0
echo "  ulimit -v: 800000 KiB stopped with the figure; $need KiB runs"
echo "PASS [$test_name]"
