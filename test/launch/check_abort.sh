#!/bin/sh
# PMIx_Abort (what shmem_global_exit and fatal errors use) ends the job
# with the given status while the other PEs wait in a fence; a PE that
# leaves without PMIx_Finalize ends it with status 1.
# Usage: check_abort.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

run -n 3 "$pe" pmix-abort 1 7
expect_status 7
expect_faster 2500
expect_grep "$err" "^oshrun: PE 1 aborted the job with status 7: pe_behave: aborting on request$"
expect_clean

run -n 3 "$pe" pmix-abort 0 0
expect_status 0
expect_faster 2500
expect_clean

run -n 3 "$pe" pmix-nofinalize 2
expect_status 1
expect_faster 2500
expect_grep "$err" "^oshrun: PE 2 exited without finalizing"
expect_clean
echo "PASS [$test_name]"
