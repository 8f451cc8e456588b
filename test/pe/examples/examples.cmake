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
        set(launcher $<TARGET_FILE:oshrun>)
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
# Signals and locks: written in parallel with these tests, so each example
# is added once the library defines its routines (until then it would stop
# the whole build).
file(GLOB ush_ex_srcs ${PROJECT_SOURCE_DIR}/src/*.c)
set(ush_ex_have_signal FALSE)
set(ush_ex_have_lock FALSE)
foreach(f IN LISTS ush_ex_srcs)
    file(STRINGS ${f} hit REGEX "shmem_put_signal|shmem_set_lock")
    if(hit MATCHES "shmem_put_signal")
        set(ush_ex_have_signal TRUE)
    endif()
    if(hit MATCHES "shmem_set_lock")
        set(ush_ex_have_lock TRUE)
    endif()
endforeach()
if(ush_ex_have_signal)
    ush_add_example(shmem_put_signal_example)
else()
    message(STATUS "examples: no shmem_put_signal in src/ yet; shmem_put_signal_example skipped")
endif()
if(ush_ex_have_lock)
    ush_add_example(shmem_lock_example NPES 2 4 8)
else()
    message(STATUS "examples: no shmem_set_lock in src/ yet; shmem_lock_example skipped")
endif()
