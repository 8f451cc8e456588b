# Builds the library, the launcher and the threaded tests with
# -fsanitize=thread into BINARY_DIR and runs the threaded tests there.
#   cmake -DSOURCE_DIR=<src> -DBINARY_DIR=<build>/tsan -DTARGETS=a,b,...
#         -DSUPPRESSIONS=<file> [-DGENERATOR=<g>] [-DC_COMPILER=<cc>]
#         [-DTESTS=<ctest regex>] -P run_tsan.cmake
cmake_minimum_required(VERSION 3.18)

foreach(var SOURCE_DIR BINARY_DIR TARGETS SUPPRESSIONS)
    if(NOT ${var})
        message(FATAL_ERROR "run_tsan.cmake: -D${var}=... is required")
    endif()
endforeach()
if(NOT TESTS)
    # 8 PEs x 4 threads under TSan on 2 cores is slow and adds nothing the
    # 4-PE runs do not cover.
    set(TESTS "^pe\\.thread_.*\\.np[124]$")
endif()
string(REPLACE "," ";" TARGETS "${TARGETS}")

function(step what)
    string(TIMESTAMP t0 "%s")
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
    string(TIMESTAMP t1 "%s")
    math(EXPR dt "${t1} - ${t0}")
    message("tsan: ${what}: ${dt} s")
    if(NOT rc STREQUAL "0")
        message(FATAL_ERROR "tsan: ${what} failed (${rc})")
    endif()
endfunction()

set(gen_args "")
if(GENERATOR)
    list(APPEND gen_args -G ${GENERATOR})
endif()
if(C_COMPILER)
    list(APPEND gen_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
# Unit tests and benchmarks are not needed; the multi-PE tests are, and
# their registration needs the oshrun target.
step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} ${gen_args}
     -DCMAKE_BUILD_TYPE=RelWithDebInfo
     "-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer"
     -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
     -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread
     -DUSHMEM_TSAN_INNER=ON)

cmake_host_system_information(RESULT ncores QUERY NUMBER_OF_LOGICAL_CORES)
step(build ${CMAKE_COMMAND} --build ${BINARY_DIR} -j${ncores} --target ${TARGETS})

# halt_on_error: the first report ends the PE, and exitcode 66 makes that
# PE's exit status (so the launcher's, so the ctest test's) say why.
set(ENV{TSAN_OPTIONS}
    "halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=${SUPPRESSIONS}")
# UCX's memory hooks (libucm) intercept madvise, which glibc calls on a
# thread's stack as the thread exits, after TSan has torn down that
# thread's state; the hook's rwlock, intercepted by TSan, then crashes
# (SIGSEGV in __tsan::MutexPreReadLock from ucm_event_enter). UCX needs no
# memory events for what the tests do, so turn them off for this run only.
set(ENV{UCX_MEM_EVENTS} no)
step(run ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -R ${TESTS} --output-on-failure)
