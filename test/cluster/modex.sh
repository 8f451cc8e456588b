#!/bin/bash
# Wire-up data on demand (direct modex) under a launcher that serves it:
#
#   modex.sh LAUNCH NP PROGRAM
#
# PROGRAM (a multi-PE test that reaches PEs on other nodes) must pass
# under run.sh LAUNCH NP with SHMEM_WIREUP_COLLECT=0 (a small job collects
# by default) and SHMEM_INFO=1, and PE 0's job line must say the wire-up's
# fence collected nothing: srun's PMIx plugin and mpirun both hand out a
# PE's blob from its own node when asked.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3
out=$(SHMEM_WIREUP_COLLECT=0 SHMEM_INFO=1 bash "$(dirname "$0")/run.sh" "$launch" "$np" 85 "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 77 ] && exit 77 # skipped: no tooling, not root
[ "$rc" -eq 0 ] || cl_die "the job failed (status $rc)"
line=$(grep -m1 '^job: ' <<<"$out") || cl_die "no SHMEM_INFO job line in the output"
case $line in
*"wire-up data on demand"*) echo "modex.sh: $launch: $line" ;;
*) cl_die "under $launch the wire-up collected every blob: $line" ;;
esac
