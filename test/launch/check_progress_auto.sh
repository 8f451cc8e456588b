#!/bin/sh
# SHMEM_PROGRESS_THREAD=auto starts no progress thread on a node with more
# PEs than hardware threads. There each PE's waits already yield, and the
# second thread per PE stalled start-up for 20 to 150 s in about one run
# of three (4 emulated nodes x 8 PEs on 2 cores; see ush_decide_progress_thread
# in api/init.c). The PEs see the machine hwloc describes, so HWLOC_SYNTHETIC
# gives them a node of 1 or 4 hardware threads whatever this one has.
# SHMEM_SHARE_STATIC=0 asks for the thread on one node, as a job across
# nodes does; SHMEM_INFO=1 makes PE 0 say what was decided.
#
#   check_progress_auto.sh SHMEM_BEHAVE
. "$(dirname "$0")/lib.sh"
prog=$1
n=2

# decided PUS MODE EXPECT: a hello job of $n PEs on a node of PUS hardware
# threads with SHMEM_PROGRESS_THREAD=MODE; PE 0's job line must say EXPECT.
decided() {
    HWLOC_SYNTHETIC="pu:$1" SHMEM_PROGRESS_THREAD=$2 SHMEM_SHARE_STATIC=0 SHMEM_INFO=1 \
        run -n $n "$prog" hello
    expect_status 0
    expect_grep "$out" "^hello from PE $((n - 1)) of $n\$"
    expect_grep "$out" "^job: $n PEs on 1 node\\(s\\), $n on this node; .*; $3; wire-up data "
    expect_clean
    echo "  $n PEs on $1 hardware thread(s), SHMEM_PROGRESS_THREAD=$2: $3"
}

decided 1 auto "progress thread off; waits yield"
decided 4 auto "progress thread on; waits spin"
decided 1 on   "progress thread on; waits yield"
decided 4 off  "progress thread off; waits spin"
echo "PASS [$test_name]"
