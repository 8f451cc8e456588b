# Builds the library, the launcher and some tests with a sanitizer into
# BINARY_DIR (a separate configure of the same sources) and runs those
# tests there. Used by tsan.threads and asan.subset (CMakeLists.txt here).
#
#   cmake -DNAME=<tsan|asan> -DSOURCE_DIR=<src> -DBINARY_DIR=<build>/<name>
#         -DTARGETS=a,b,... -DTESTS=<ctest regex>
#         [-DFLAGS=<compile and link flags of everything, space-separated>]
#         [-DDEFINES=VAR=value|VAR=value...]      (cache variables)
#         [-DENVIRONMENT=VAR=value|VAR=value...]  (for the run)
#         [-DGENERATOR=<g>] [-DC_COMPILER=<cc>] -P run_sanitized.cmake
#
# Lists are '|'-separated because sanitizer options use ':' and ',' and a
# ';' would split the ctest argument.
cmake_minimum_required(VERSION 3.18)

foreach(var NAME SOURCE_DIR BINARY_DIR TARGETS TESTS)
    if(NOT ${var})
        message(FATAL_ERROR "run_sanitized.cmake: -D${var}=... is required")
    endif()
endforeach()
string(REPLACE "," ";" TARGETS "${TARGETS}")

function(step what)
    string(TIMESTAMP t0 "%s")
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
    string(TIMESTAMP t1 "%s")
    math(EXPR dt "${t1} - ${t0}")
    message("${NAME}: ${what}: ${dt} s")
    if(NOT rc STREQUAL "0")
        message(FATAL_ERROR "${NAME}: ${what} failed (${rc})")
    endif()
endfunction()

set(gen_args "")
if(GENERATOR)
    list(APPEND gen_args -G ${GENERATOR})
endif()
if(C_COMPILER)
    list(APPEND gen_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(FLAGS)
    list(APPEND gen_args "-DCMAKE_C_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}"
         "-DCMAKE_SHARED_LINKER_FLAGS=${FLAGS}")
endif()
if(DEFINES)
    string(REPLACE "|" ";" DEFINES "${DEFINES}")
    foreach(d IN LISTS DEFINES)
        list(APPEND gen_args "-D${d}")
    endforeach()
endif()
# USHMEM_SANITIZE_INNER: the inner build registers no sanitizer or fuzz
# tests of its own (test/sanitize/, test/fuzz/ return early).
step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} ${gen_args}
     -DCMAKE_BUILD_TYPE=RelWithDebInfo
     -DUSHMEM_SANITIZE_INNER=ON)

cmake_host_system_information(RESULT ncores QUERY NUMBER_OF_LOGICAL_CORES)
step(build ${CMAKE_COMMAND} --build ${BINARY_DIR} -j${ncores} --target ${TARGETS})

if(ENVIRONMENT)
    string(REPLACE "|" ";" ENVIRONMENT "${ENVIRONMENT}")
    foreach(kv IN LISTS ENVIRONMENT)
        string(FIND "${kv}" "=" eq)
        string(SUBSTRING "${kv}" 0 ${eq} var)
        math(EXPR eq "${eq} + 1")
        string(SUBSTRING "${kv}" ${eq} -1 value)
        set(ENV{${var}} "${value}")
        message("${NAME}: ${var}=${value}")
    endforeach()
endif()
step(run ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -R ${TESTS} --output-on-failure
     --no-tests=error)
