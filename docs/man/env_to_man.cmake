# cmake -DIN=docs/environment.md -DTEMPLATE=ushmem.7.in -DOUT=ushmem.7
#       -DVERSION=x.y.z -P env_to_man.cmake
#
# Writes ushmem(7) from its template and docs/environment.md, so the man
# page says what that file says (unit_env_docs keeps the file in step with
# the library's table): the part before the first "##" heading becomes
# @USH_MAN_ENVIRONMENT@, the "## Files and permissions" section
# @USH_MAN_FILES@. Markdown is the small subset environment.md uses:
# paragraphs, one table (variable | default | meaning), `code`, [links](x).
cmake_minimum_required(VERSION 3.20)
foreach(v IN ITEMS IN TEMPLATE OUT VERSION)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "env_to_man.cmake: -D${v}=... is required")
    endif()
endforeach()

# Inline markdown to roff: `code` in bold (with \- for its hyphens, so an
# option is typed as it reads), links as their text, dashes by name.
function(ush_md_inline text out)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REGEX MATCHALL "`[^`]+`" spans "${text}")
    foreach(span IN LISTS spans)
        string(REGEX REPLACE "^`(.*)`$" "\\1" code "${span}")
        string(REPLACE "-" "\\-" code "${code}")
        string(REPLACE "${span}" "\\fB${code}\\fR" text "${text}")
    endforeach()
    string(REGEX REPLACE "<sqb>([^<]*)<sqe>\\([^)]*\\)" "\\1" text "${text}")
    string(REPLACE "—" "\\(em" text "${text}")
    string(REPLACE "–" "\\(en" text "${text}")
    # Plain groff reads ASCII; name any other character here.
    if(text MATCHES "[^\t -~]")
        message(FATAL_ERROR "env_to_man.cmake: a character with no roff name in "
                            "${IN}: add it above:\n${text}")
    endif()
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

file(READ ${IN} md)
# One list item per line: keep ';' and '[' ']' (list syntax) out of the way.
string(REPLACE ";" "<semi>" md "${md}")
string(REPLACE "[" "<sqb>" md "${md}")
string(REPLACE "]" "<sqe>" md "${md}")
string(REPLACE "\n" ";" lines "${md}")
list(APPEND lines "")

set(section ENVIRONMENT)
set(USH_MAN_ENVIRONMENT "")
set(USH_MAN_FILES "")
set(para "")
set(in_table FALSE)
foreach(line IN LISTS lines)
    if(NOT line MATCHES "^\\|" AND in_table)
        set(in_table FALSE)
    endif()
    if(line STREQUAL "" OR line MATCHES "^#")
        if(NOT para STREQUAL "")
            ush_md_inline("${para}" para)
            string(APPEND USH_MAN_${section} ".PP\n\\&${para}\n")
            set(para "")
        endif()
        if(line MATCHES "^## (.*)")
            if(CMAKE_MATCH_1 STREQUAL "Files and permissions")
                set(section FILES)
            else()
                message(FATAL_ERROR "env_to_man.cmake: ${IN} has a section "
                                    "'${CMAKE_MATCH_1}' that ushmem.7 does not place")
            endif()
        endif()
    elseif(line MATCHES "^\\| *variable *\\|" OR line MATCHES "^\\|[-|]+\\|$")
        set(in_table TRUE)  # the header and its rule
    elseif(line MATCHES "^\\| *`([A-Z_]+)` *\\| *`([^`]*)` *\\| *(.*) *\\|$")
        set(name "${CMAKE_MATCH_1}")
        set(default "${CMAKE_MATCH_2}")
        ush_md_inline("${CMAKE_MATCH_3}" meaning)
        string(APPEND USH_MAN_${section}
               ".TP\n.BR ${name} \" (default \" \"${default}\" )\n\\&${meaning}\n")
    elseif(line MATCHES "^\\|")
        message(FATAL_ERROR "env_to_man.cmake: a table row of ${IN} this script "
                            "cannot read:\n${line}")
    else()
        string(STRIP "${line}" line)
        if(para STREQUAL "")
            set(para "${line}")
        else()
            string(APPEND para " ${line}")
        endif()
    endif()
endforeach()
if(USH_MAN_ENVIRONMENT STREQUAL "" OR USH_MAN_FILES STREQUAL "")
    message(FATAL_ERROR "env_to_man.cmake: ${IN} lost its variables or its "
                        "'Files and permissions' section")
endif()
foreach(s IN ITEMS ENVIRONMENT FILES)
    string(REPLACE "<semi>" ";" USH_MAN_${s} "${USH_MAN_${s}}")
    string(REPLACE "<sqb>" "[" USH_MAN_${s} "${USH_MAN_${s}}")
    string(REPLACE "<sqe>" "]" USH_MAN_${s} "${USH_MAN_${s}}")
    string(REGEX REPLACE "\n$" "" USH_MAN_${s} "${USH_MAN_${s}}")
endforeach()
set(PROJECT_VERSION ${VERSION})
configure_file(${TEMPLATE} ${OUT} @ONLY)
