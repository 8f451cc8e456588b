# Runs one of the spec's example programs and compares what it printed with
# what the spec says it prints:
#
#   cmake -DNP=<n> -DEXPECT=<name>.expect.cmake -DDEADLINE=<s>
#         -P run_example.cmake -- <launcher command...>
#
# <name>.expect.cmake is included with NP set, and sets (PE-count
# dependent values computed there):
#   expect_lines  every stdout line the program must print, in any order:
#                 the sorted lines must be equal, so a missing, extra or
#                 wrong line fails (PEs print concurrently, so order is not
#                 checked)
#   expect_regex  or: one regular expression per stdout line (anchored);
#                 each must match a different line, and the counts agree
#   expect_rc     exit status of the launcher (default 0)
# Empty lines and the launcher's own lines are not program output and are
# dropped before comparing.
cmake_minimum_required(VERSION 3.18)

set(cmd "")
set(sep FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
    if(sep)
        list(APPEND cmd "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
        set(sep TRUE)
    endif()
endforeach()
if(NOT cmd OR NOT NP OR NOT EXPECT)
    message(FATAL_ERROR "usage: cmake -DNP=<n> -DEXPECT=<file> -P run_example.cmake -- <cmd>")
endif()
if(NOT DEADLINE)
    set(DEADLINE 55)
endif()

set(expect_rc 0)
unset(expect_lines)
unset(expect_regex)
include(${EXPECT})

string(REPLACE ";" " " shown "${cmd}")
message("run: ${shown}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE
                ERROR_VARIABLE err ECHO_ERROR_VARIABLE
                TIMEOUT ${DEADLINE})
if(NOT rc STREQUAL "${expect_rc}")
    message(FATAL_ERROR "FAIL: launcher exit status '${rc}', expected ${expect_rc} (PEs: ${NP})")
endif()

# stdout as a list of lines. Semicolons would split list items, so they are
# replaced by a placeholder on both sides.
string(REPLACE ";" "<semicolon>" out "${out}")
string(REPLACE "\n" ";" got "${out}")
list(FILTER got EXCLUDE REGEX "^$")
list(FILTER got EXCLUDE REGEX "^oshrun:")
list(LENGTH got ngot)

if(DEFINED expect_lines)
    set(want ${expect_lines})
    list(SORT want)
    list(SORT got)
    if(NOT "${got}" STREQUAL "${want}")
        string(REPLACE ";" "\n  " w "${want}")
        string(REPLACE ";" "\n  " g "${got}")
        message(FATAL_ERROR "FAIL: output differs (sorted, PEs: ${NP})\nexpected:\n  ${w}\ngot:\n  ${g}")
    endif()
elseif(DEFINED expect_regex)
    list(LENGTH expect_regex nwant)
    if(NOT ngot EQUAL nwant)
        message(FATAL_ERROR "FAIL: ${ngot} output lines, expected ${nwant} (PEs: ${NP})")
    endif()
    set(left ${got})
    foreach(re IN LISTS expect_regex)
        set(hit -1)
        list(LENGTH left nleft)
        math(EXPR top "${nleft} - 1")
        foreach(k RANGE ${top})
            list(GET left ${k} line)
            if(line MATCHES "^${re}$")
                set(hit ${k})
                break()
            endif()
        endforeach()
        if(hit LESS 0)
            string(REPLACE ";" "\n  " l "${left}")
            message(FATAL_ERROR "FAIL: no output line matches '^${re}$' (PEs: ${NP}); unmatched:\n  ${l}")
        endif()
        list(REMOVE_AT left ${hit})
    endforeach()
else()
    message(FATAL_ERROR "${EXPECT} sets neither expect_lines nor expect_regex")
endif()
message("PASS: ${ngot} lines as the spec shows (PEs: ${NP})")
