# Runs one multi-PE test:  cmake -DNP=<n> -DDEADLINE=<s> -DWATCHDOG=<s>
#                                -P run_pe_test.cmake -- <launcher command...>
# Passes only if the launcher exits 0, no PE reported a failed check, and PE 0
# printed "all checks passed on <NP> PEs" exactly once.  Exit status alone is
# not trusted: a launcher that loses a PE's status, or starts NP one-PE jobs,
# must not make a test pass.
cmake_minimum_required(VERSION 3.18)

set(cmd "")
set(seen_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
    if(seen_separator)
        list(APPEND cmd "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
        set(seen_separator TRUE)
    endif()
endforeach()
if(NOT cmd OR NOT NP)
    message(FATAL_ERROR "usage: cmake -DNP=<n> [-DDEADLINE=<s>] [-DWATCHDOG=<s>] "
                        "-P run_pe_test.cmake -- <launcher> ...")
endif()
if(NOT DEADLINE)
    set(DEADLINE 115)
endif()
if(WATCHDOG)
    set(ENV{PE_TEST_WATCHDOG} ${WATCHDOG})
endif()

string(REPLACE ";" " " shown "${cmd}")
message("run: ${shown}")
execute_process(COMMAND ${cmd}
                RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE
                ERROR_VARIABLE err ECHO_ERROR_VARIABLE
                TIMEOUT ${DEADLINE})

set(all "${out}\n${err}")
if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "FAIL: launcher exit status '${rc}' (PEs: ${NP})")
endif()
if(all MATCHES "PE [0-9]+: [^\n]*: expected [^\n]*, got ")
    message(FATAL_ERROR "FAIL: a PE reported a failed check, yet the launcher exited 0")
endif()
string(REGEX MATCHALL "all checks passed on [0-9]+ PEs" passed "${out}")
list(LENGTH passed npassed)
if(NOT npassed EQUAL 1)
    message(FATAL_ERROR "FAIL: expected one 'all checks passed on ${NP} PEs' line "
                        "from PE 0, found ${npassed}")
endif()
if(NOT passed STREQUAL "all checks passed on ${NP} PEs")
    message(FATAL_ERROR "FAIL: PE 0 reported '${passed}', the launcher was asked for ${NP} PEs")
endif()
