# Argument checks: each misuse in debug_checks.c, run on 2 PEs
# under oshrun, must end the job with status 1, print a message naming the
# routine and the argument, print no success line and leave nothing behind.
# The run and those assertions are test/launch/lib.sh's (run, expect_*),
# the mechanism of the launcher tests. Always-on checks run with
# SHMEM_DEBUG=1 and =0; SHMEM_DEBUG-only ones with 1.
#
#   ctest --test-dir build -R '^pe\.debugchk\.'
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/UshPeTest.cmake)

# debug_checks.c derives the heap's end from SHMEM_SYMMETRIC_SIZE=4M (all
# of it the user's, ending the heap segment).
set(USH_DEBUGCHK_ENV SHMEM_SYMMETRIC_SIZE=4M)

# Controls: every case with correct arguments passes.
ush_add_pe_test(NAME debug_checks SOURCES debug_checks.c NPES 1 2 TIMEOUT 60 ARGS ok
                ENV ${USH_DEBUGCHK_ENV} SHMEM_DEBUG=1
                COMPILE_OPTIONS -Wall -Wextra -Werror)
ush_add_pe_test(NAME debug_checks_nodebug TARGET pe_debug_checks NPES 1 2 TIMEOUT 60 ARGS ok
                ENV ${USH_DEBUGCHK_ENV} SHMEM_DEBUG=0)

if(NOT TARGET oshrun OR USH_PE_LAUNCHER)
    return()
endif()

# The script after `sh -c`: $0 names the test, $1 lib.sh, $2 the program,
# $3 the case, $4 the message's regular expression (grep -E, no ';': CMake
# would split the argument there), $5 the number of PEs (2 if not given).
set(USH_DEBUGCHK_SH [=[
. "$1"
run --bind-to none -n "${5:-2}" "$2" "$3"
expect_status 1
expect_grep "$err" "^ushmem: (PE [0-9]+: )?$4"
expect_no_grep "$out" "all checks passed|was accepted"
expect_clean
echo "PASS [$test_name]"
]=])

# ush_debugchk(<case> <routine: argument regex> <debug values>...)
function(ush_debugchk name regex)
    foreach(debug IN LISTS ARGN)
        set(test pe.debugchk.${name}.debug${debug})
        add_test(NAME ${test}
                 COMMAND ${CMAKE_COMMAND} -E env OSHRUN=$<TARGET_FILE:oshrun>
                         SHMEM_DEBUG=${debug} ${USH_DEBUGCHK_ENV}
                         sh -c "${USH_DEBUGCHK_SH}" ${test}
                         ${PROJECT_SOURCE_DIR}/test/launch/lib.sh
                         $<TARGET_FILE:pe_debug_checks> ${name} "${regex}")
        set_tests_properties(${test} PROPERTIES TIMEOUT 60 LABELS "pe;debugchk" PROCESSORS 2)
    endforeach()
endfunction()

set(hex "0x[0-9a-f]+")
# Without a ctx argument the message speaks of the job, not of a team.
ush_debugchk(pe_range        "shmem_long_put: pe 2 is out of range: this job has 2 PEs \\(0 to 1\\)$" 1 0)
ush_debugchk(ctx_pe_range    "shmem_ctx_long_put: pe 1 is out of range: the context's team has 1 PEs \\(0 to 0\\)" 1 0)
ush_debugchk(ptr_pe          "shmem_ptr: pe -1 is out of range" 1 0)
ush_debugchk(team_ptr_pe     "shmem_team_ptr: pe 2 is out of range: the team has 2 PEs" 1 0)
ush_debugchk(nonsymm_stack
    "shmem_long_put: dest \\(${hex}, 8 bytes\\) is not symmetric: it lies in no symmetric segment \\(the symmetric heap \\[${hex}, ${hex}\\), the static data \\[${hex}, ${hex}\\)\\)" 1 0)
ush_debugchk(null_dest       "shmem_long_put: dest is NULL: pass a symmetric object .* that allocation failed: check its result" 1 0)
ush_debugchk(past_heap
    "shmem_long_put: dest \\(${hex}, 8 bytes\\) is not symmetric: it is 24 bytes past the end of the symmetric heap \\[" 1 0)
ush_debugchk(len_past_heap
    "shmem_putmem: dest \\(${hex}, 4194305 bytes\\) starts in the symmetric heap .* the length \\(nelems.* runs 1 bytes past that end" 1 0)
ush_debugchk(nelems_overflow "shmem_long_put: nelems = [0-9]+ elements of 8 bytes overflows size_t" 1 0)
ush_debugchk(strided_span    "shmem_long_iput: dest \\(${hex}, [0-9]+ bytes\\) starts in the symmetric heap .* runs [0-9]+ bytes past" 1 0)
ush_debugchk(amo_nonsymm     "shmem_long_atomic_inc: dest \\(${hex}, 8 bytes\\) is not symmetric" 1 0)
ush_debugchk(wait_nonsymm    "shmem_long_wait_until: ivars? \\(${hex}, 8 bytes\\) is not symmetric" 1 0)
ush_debugchk(lock_nonsymm    "shmem_set_lock: lock \\(${hex}, 8 bytes\\) is not symmetric" 1 0)
ush_debugchk(signal_overflow "shmem_long_put_signal: nelems = [0-9]+ elements of 8 bytes overflows size_t" 1 0)
ush_debugchk(psync_short     "shmem_broadcast64: pSync \\(${hex}, [0-9]+ bytes\\) starts in the symmetric heap .* the array the routine needs runs [0-9]+ bytes past that end; declare pSync with the SHMEM_\\*_SYNC_SIZE constant" 1 0)
ush_debugchk(bcast_nonsymm   "shmem_long_broadcast: dest \\(${hex}, 32 bytes\\) is not symmetric" 1 0)
ush_debugchk(alltoall_span   "shmem_long_alltoalls: dest \\(${hex}, [0-9]+ bytes\\) starts in the symmetric heap" 1 0)
ush_debugchk(aset_past_job   "shmem_barrier: invalid active set PE_start=0 logPE_stride=0 PE_size=3" 1 0)
ush_debugchk(aset_stride     "shmem_barrier: invalid active set PE_start=0 logPE_stride=40 PE_size=2" 1 0)
ush_debugchk(team_destroyed  "shmem_team_n_pes: team \\(${hex}\\) is a team that was destroyed by shmem_team_destroy" 1 0)
ush_debugchk(team_destroyed_coll "shmem_team_sync: team \\(${hex}\\) is a team that was destroyed" 1 0)
ush_debugchk(team_bogus      "shmem_team_my_pe: team \\(${hex}\\) is not a team handle" 1 0)
ush_debugchk(free_not_heap   "shmem_free: ptr ${hex} is not in the symmetric heap" 1 0)
ush_debugchk(free_twice      "shmem_free: ptr ${hex} is free heap space: it was already freed" 1 0)
ush_debugchk(free_inside     "shmem_free: ptr ${hex} is 16 bytes inside a block" 1 0)
ush_debugchk(realloc_bad     "shmem_realloc: ptr ${hex} is 8 bytes inside a block" 1 0)
# Context handles: checked by address against the table of contexts, so
# without SHMEM_DEBUG too.
ush_debugchk(ctx_destroyed   "shmem_ctx_long_put: ctx \\(${hex}\\) was destroyed by shmem_ctx_destroy. use a live context" 1 0)
ush_debugchk(ctx_destroyed_quiet "shmem_ctx_quiet: ctx \\(${hex}\\) was destroyed by shmem_ctx_destroy" 1 0)
ush_debugchk(ctx_twice       "shmem_ctx_destroy: ctx \\(${hex}\\) was destroyed by shmem_ctx_destroy" 1 0)
ush_debugchk(ctx_bogus       "shmem_ctx_long_put: ctx \\(${hex}\\) is not a context handle" 1 0)
ush_debugchk(ctx_bogus_fence "shmem_ctx_fence: ctx \\(${hex}\\) is not a context handle" 1 0)
ush_debugchk(amo_misaligned  "shmem_long_atomic_add: dest = ${hex} is not aligned to 8 bytes" 1 0)
ush_debugchk(amo_misaligned_self "shmem_int_atomic_fetch: source = ${hex} is not aligned to 4 bytes" 1 0)
# Calls before shmem_init and after shmem_finalize say so,
# whichever check meets them first. (Before the first shmem_init a PE has
# no number: the line starts "ushmem: <routine>:".)
foreach(c before_put:shmem_long_put before_amo:shmem_long_atomic_inc
          before_team:shmem_team_n_pes before_signal:shmem_long_put_signal
          ctx_create_before:shmem_ctx_create)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 name)
    list(GET c 1 routine)
    ush_debugchk(${name} "${routine}: called before shmem_init. call shmem_init first$" 1 0)
endforeach()
foreach(c after_put_heap:shmem_long_put after_g:shmem_long_g
          after_amo:shmem_long_atomic_fetch_add after_team:shmem_team_my_pe
          after_barrier:shmem_barrier_all)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 name)
    list(GET c 1 routine)
    ush_debugchk(${name} "${routine}: called after shmem_finalize. OpenSHMEM routines may only be called between shmem_init and shmem_finalize$" 1 0)
endforeach()
# Costly checks: SHMEM_DEBUG=1 only.
ush_debugchk(aset_outsider   "shmem_long_sum_to_all: PE 1 is not in the active set PE_start=0 logPE_stride=0 PE_size=1" 1)
ush_debugchk(psync_dirty     "shmem_barrier: pSync\\[[0-9]+\\] is 42, not SHMEM_SYNC_VALUE" 1)
ush_debugchk(malloc_mismatch "shmem_malloc: this PE asked for 72 bytes .* but PE 0 for 64" 1)
ush_debugchk(realloc_mismatch "shmem_realloc: this PE asked for 136 bytes .* but PE 0 for 128" 1)
ush_debugchk(calloc_mismatch "shmem_calloc: this PE asked for 72 bytes .* but PE 0 for 64" 1)

# Accepted with a warning under SHMEM_DEBUG=1: what other implementations
# run runs here too, and the warning names what the spec asks instead.
# $1 lib.sh, $2 the program, $3 the warning's regular expression.
set(USH_DEBUGWARN_SH [=[
. "$1"
run --bind-to none -n 2 "$2"
expect_status 0
expect_grep "$err" "^ushmem: PE 0: $3"
expect_lines "$err" 1
expect_grep "$out" "^all checks passed on 2 PEs$"
expect_clean
echo "PASS [$test_name]"
]=])
# pWrk of SHMEM_REDUCE_SYNC_SIZE longs at the heap's end (pwrk_short.c),
# used at SHMEM_THREAD_MULTIPLE.
add_test(NAME pe.debugchk.pwrk_short.debug1
         COMMAND ${CMAKE_COMMAND} -E env OSHRUN=$<TARGET_FILE:oshrun> SHMEM_DEBUG=1
                 SHMEM_SYMMETRIC_SIZE=4M PE_TEST_THREAD=multiple
                 sh -c "${USH_DEBUGWARN_SH}" pe.debugchk.pwrk_short.debug1
                 ${PROJECT_SOURCE_DIR}/test/launch/lib.sh $<TARGET_FILE:pe_pwrk_short>
                 "shmem_long_sum_to_all: pWrk \\(${hex}\\) has room for 32 bytes before the end of its segment but the spec asks for 4008 \\(max\\(nreduce/2 \\+ 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE\\) elements\\). this library manages with less, other implementations may not \\(said once\\)$")
set_tests_properties(pe.debugchk.pwrk_short.debug1 PROPERTIES TIMEOUT 60 LABELS "pe;debugchk" PROCESSORS 2)

# Collectives whose members disagree (coll_mismatch.c, 4 PEs): under
# SHMEM_DEBUG=1 one line names both PEs and both calls, at once.
ush_add_pe_test(NAME coll_mismatch_ok SOURCES coll_mismatch.c NPES 1 2 3 4 TIMEOUT 60 ARGS ok
                ENV SHMEM_DEBUG=1 LABELS coll)
function(ush_mismatch name regex)
    set(test pe.debugchk.mismatch_${name}.debug1)
    add_test(NAME ${test}
             COMMAND ${CMAKE_COMMAND} -E env OSHRUN=$<TARGET_FILE:oshrun> SHMEM_DEBUG=1
                     sh -c "${USH_DEBUGCHK_SH}" ${test} ${PROJECT_SOURCE_DIR}/test/launch/lib.sh
                     $<TARGET_FILE:pe_coll_mismatch_ok> ${name} "PE [0-9]+: ${regex}" 4)
    set_tests_properties(${test} PROPERTIES TIMEOUT 60 LABELS "pe;debugchk;coll" PROCESSORS 2)
endfunction()
set(mm "the members of a collective disagree \\(SHMEM_DEBUG=1 compares each member's call with its neighbour's\\): PE [0-9] called")
set(mm_end "as its collective call [0-9]+ over these 4 PEs. every member must make the same collective calls, with the same arguments, in the same order$")
ush_mismatch(bcast_count "shmem_broadcast64: ${mm} shmem_broadcast64\\(nelems (16|2), PE_root 0\\) but this PE shmem_broadcast64\\(nelems (2|16), PE_root 0\\), ${mm_end}")
ush_mismatch(bcast_root "shmem_long_broadcast: ${mm} shmem_long_broadcast\\(nelems 2, PE_root (1|0)\\) but this PE shmem_long_broadcast\\(nelems 2, PE_root (0|1)\\), ${mm_end}")
ush_mismatch(barrier_skip "shmem_barrier_all: ${mm} shmem_finalize\\(\\) but this PE shmem_barrier_all\\(\\), ${mm_end}")
ush_mismatch(reduce_count "shmem_long_sum_to_all: ${mm} shmem_long_sum_to_all\\(nreduce (16|4)\\) but this PE shmem_long_sum_to_all\\(nreduce (4|16)\\), ${mm_end}")
ush_mismatch(team_reduce_count "shmem_long_sum_reduce: ${mm} shmem_long_sum_reduce\\(nelems (16|4)\\) but this PE shmem_long_sum_reduce\\(nelems (4|16)\\), ${mm_end}")
ush_mismatch(reduce_op "shmem_long_(sum|max)_reduce: ${mm} shmem_long_(max|sum)_reduce\\(nelems 4\\) but this PE shmem_long_(sum|max)_reduce\\(nelems 4\\), ${mm_end}")
ush_mismatch(alltoall_count "shmem_alltoall64: ${mm} shmem_alltoall64\\(nelems (4|2), dst 1, sst 1\\) but this PE shmem_alltoall64\\(nelems (2|4), dst 1, sst 1\\), ${mm_end}")
ush_mismatch(team_alltoall_count "shmem_long_alltoall: ${mm} shmem_long_alltoall\\(nelems (4|2), dst 1, sst 1\\) but this PE shmem_long_alltoall\\(nelems (2|4), dst 1, sst 1\\), ${mm_end}")
ush_mismatch(routine "shmem_(team_sync|long_broadcast): ${mm} shmem_(long_broadcast|team_sync)\\((nelems 2, PE_root 0)?\\) but this PE shmem_(team_sync|long_broadcast)\\((nelems 2, PE_root 0)?\\), ${mm_end}")
