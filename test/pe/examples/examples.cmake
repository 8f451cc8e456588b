# The OpenSHMEM 1.6 specification's C example programs (example_code/ of
# openshmem-org/specification), retyped as our own tests. Each builds with
# -Wall -Wextra -pedantic -Werror and runs as pe.ex_<name>.np<N> (labels
# "pe;examples") through run_example.cmake, which compares its stdout with
# <name>.expect.cmake for that PE count.
#
#   ctest --test-dir build -L examples
include_guard(GLOBAL)
find_package(OpenMP COMPONENTS C)

function(ush_add_example name)
    cmake_parse_arguments(PARSE_ARGV 1 A "OPENMP" "TIMEOUT" "NPES;ENV")
    if(NOT A_NPES)
        set(A_NPES 2 4)
    endif()
    if(NOT A_TIMEOUT)
        set(A_TIMEOUT 60)
    endif()
    set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
    set(tgt ex_${name})
    add_executable(${tgt} ${dir}/${name}.c)
    target_link_libraries(${tgt} PRIVATE ${USH_PE_SHMEM_TARGET})
    target_compile_options(${tgt} PRIVATE -Wall -Wextra -pedantic -Werror)
    if(A_OPENMP)
        if(NOT OpenMP_C_FOUND)
            message(STATUS "example ${name}: no OpenMP, not built")
            return()
        endif()
        target_link_libraries(${tgt} PRIVATE OpenMP::OpenMP_C)
    endif()
    if(USH_PE_LAUNCHER)
        set(launcher ${USH_PE_LAUNCHER})
    elseif(TARGET oshrun)
        # Unbound: ctest runs several jobs at once, and oshrun's default
        # binding would put every job's PE 0 on the same core.
        set(launcher $<TARGET_FILE:oshrun> --bind-to none)
    else()
        return()
    endif()
    math(EXPR deadline "${A_TIMEOUT} - 5")
    foreach(np IN LISTS A_NPES)
        set(test pe.ex_${name}.np${np})
        add_test(NAME ${test}
                 COMMAND ${CMAKE_COMMAND} -DNP=${np} -DDEADLINE=${deadline}
                         -DEXPECT=${dir}/${name}.expect.cmake
                         -P ${dir}/run_example.cmake --
                         ${launcher} ${USH_PE_LAUNCHER_ARGS} ${USH_PE_NP_FLAG} ${np}
                         $<TARGET_FILE:${tgt}>)
        set_tests_properties(${test} PROPERTIES TIMEOUT ${A_TIMEOUT}
                             LABELS "pe;examples" PROCESSORS ${np})
        if(A_ENV)
            set_tests_properties(${test} PROPERTIES ENVIRONMENT "${A_ENV}")
        endif()
    endforeach()
endfunction()

# Contexts and sessions
ush_add_example(shmem_ctx OPENMP ENV OMP_NUM_THREADS=2)
ush_add_example(shmem_ctx_invalid OPENMP ENV OMP_NUM_THREADS=2)
ush_add_example(shmem_ctx_pipelined_reduce NPES 1 2 4)
ush_add_example(shmem_team_context NPES 4 15)
ush_add_example(shmem_ctx_session_example)
# Point-to-point synchronisation
ush_add_example(shmem_test_any_example NPES 1 2 4)
ush_add_example(shmem_test_example1)
ush_add_example(shmem_test_some_example NPES 1 2 4)
ush_add_example(shmem_wait_until_all NPES 1 2 4)
ush_add_example(shmem_wait_until_any_all2all_sum NPES 1 2 4)
ush_add_example(shmem_wait_until_any_vector NPES 1 2 4)
ush_add_example(shmem_wait_until_some_all2all_sum NPES 1 2 4)
ush_add_example(shmem_wait3_example)
# Ordering
ush_add_example(shmem_fence_example NPES 3 4)
ush_add_example(shmem_quiet_example NPES 3 4)
# Setup and query
ush_add_example(hello-openshmem NPES 1 2 4)
ush_add_example(shmem_init_example NPES 1 2 4)
ush_add_example(shmem_finalize_example NPES 1 2 4)
ush_add_example(shmem_mype_example NPES 1 2 4)
ush_add_example(shmem_npes_example NPES 1 2 4)
ush_add_example(shmem_global_exit_example)
ush_add_example(shmem_ptr_example)
# RMA
ush_add_example(shmem_p_example)
ush_add_example(shmem_g_example NPES 1 2 4)
ush_add_example(shmem_put_example)
ush_add_example(shmem_iput_example)
# Atomics, and the deprecated (1.4) names
ush_add_example(shmem_atomic_add_example)
ush_add_example(shmem_atomic_compare_swap_example NPES 1 2 4)
ush_add_example(shmem_atomic_fetch_add_example)
ush_add_example(shmem_atomic_fetch_inc_example)
ush_add_example(shmem_atomic_inc_example)
ush_add_example(shmem_atomic_swap_example)
ush_add_example(shmem_add_example)
ush_add_example(shmem_cswap_example NPES 1 2 4)
ush_add_example(shmem_fadd_example)
ush_add_example(shmem_finc_example)
ush_add_example(shmem_inc_example)
ush_add_example(shmem_swap_example)
ush_add_example(amo_scenario_1)
ush_add_example(amo_scenario_2)
ush_add_example(amo_scenario_3)
ush_add_example(amo_scenario_4)
# Synchronisation and collectives
ush_add_example(shmem_barrier_example)
ush_add_example(shmem_barrierall_example NPES 1 2 4)
ush_add_example(shmem_syncall_example NPES 1 2 4)
ush_add_example(shmem_sync_example NPES 4 7)
ush_add_example(shmem_broadcast_example NPES 1 2 4)
ush_add_example(shmem_reduce_example NPES 1 2 4)
ush_add_example(shmem_alltoall_example NPES 1 2 4)
ush_add_example(shmem_alltoalls_example NPES 1 2 4)
ush_add_example(shmem_scan_example NPES 1 2 4)
# Teams
ush_add_example(shmem_team_split_strided)
ush_add_example(shmem_team_translate_pe NPES 3 4)
ush_add_example(shmem_team_split_2D NPES 12 16 TIMEOUT 90)
# Signals and locks
ush_add_example(shmem_put_signal_example)
ush_add_example(shmem_lock_example NPES 2 4 8)
ush_add_example(shmem_collect_example NPES 1 2 4)
ush_add_example(writing_shmem_example)
