# Configures and builds the whole tree again into BINARY_DIR with another
# compiler, warnings as errors; used by build.clang, cross.aarch64 and
# cross.ppc64le (CMakeLists.txt here).
#
#   cmake -DNAME=<n> -DSOURCE_DIR=<src> -DBINARY_DIR=<dir> [-DC_COMPILER=<cc>]
#         [-DTOOLCHAIN=<file> -DOVERLAY=<dir>] [-DTESTS=ON|OFF] [-DPACKAGE=<p>]
#         [-DGENERATOR=<g>] -P run_build.cmake
#
# A build whose overlay (scripts/cross-sysroot.sh) or compiler is missing
# is skipped, saying what to run.
cmake_minimum_required(VERSION 3.20)

if(TOOLCHAIN AND NOT EXISTS "${OVERLAY}/.done")
    # ctest's SKIP_REGULAR_EXPRESSION matches this line.
    message("${NAME}: SKIPPED: no sysroot overlay in ${OVERLAY}: `make check` makes it "
            "(as root), or scripts/cross-sysroot.sh <arch> ${OVERLAY}")
    return()
endif()
if(C_COMPILER AND NOT IS_ABSOLUTE "${C_COMPILER}")
    find_program(cc_path ${C_COMPILER})
    if(NOT cc_path)
        message("${NAME}: SKIPPED: no ${C_COMPILER} (apt-get install ${PACKAGE})")
        return()
    endif()
endif()

set(args -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCMAKE_BUILD_TYPE=RelWithDebInfo
         -DCMAKE_C_FLAGS=-Werror -DUSHMEM_SANITIZE_INNER=ON)
if(GENERATOR)
    list(APPEND args -G ${GENERATOR})
endif()
if(C_COMPILER)
    list(APPEND args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()
if(TOOLCHAIN)
    list(APPEND args -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN} -DUSHMEM_CROSS_OVERLAY=${OVERLAY})
endif()
if(DEFINED TESTS)
    list(APPEND args -DUSHMEM_BUILD_TESTS=${TESTS})
endif()

foreach(step configure build)
    string(TIMESTAMP t0 "%s")
    if(step STREQUAL "configure")
        execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc)
    else()
        cmake_host_system_information(RESULT ncores QUERY NUMBER_OF_LOGICAL_CORES)
        # build-tests: `all` and the test programs, which `all` leaves out.
        execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} -j${ncores}
                                --target build-tests
                        RESULT_VARIABLE rc)
    endif()
    string(TIMESTAMP t1 "%s")
    math(EXPR dt "${t1} - ${t0}")
    message("${NAME}: ${step}: ${dt} s")
    if(NOT rc STREQUAL "0")
        message(FATAL_ERROR "${NAME}: ${step} failed (${rc})")
    endif()
endforeach()
