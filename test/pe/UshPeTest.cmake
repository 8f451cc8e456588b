# ush_add_pe_test(): one multi-PE OpenSHMEM program, run by the launcher
# once per PE count, each run a ctest test named pe.<name>.np<N>.
#
#   ush_add_pe_test(NAME <name>
#                   [SOURCES <file>...]          # builds executable pe_<name>
#                   [TARGET <existing target>]   # or runs a target built elsewhere
#                   [NPES <n>...]                # default 1 2 4 8
#                   [TIMEOUT <seconds>]          # ctest TIMEOUT, default 120
#                   [ENV <VAR=value>...]         # environment of the launcher and PEs
#                   [ARGS <arg>...]              # program arguments
#                   [LAUNCHER_ARGS <arg>...]     # extra launcher options
#                   [LIBS <lib>...]
#                   [COMPILE_OPTIONS <opt>...] [COMPILE_DEFINITIONS <def>...]
#                   [LINK_OPTIONS <opt>...]
#                   [LABELS <label>...])         # added to the label "pe"
#
# Each test runs `<launcher> <launcher args> -n <N> <program> <args>` through
# run_pe_test.cmake, which passes only if the launcher exits 0 AND PE 0
# printed "all checks passed on <N> PEs" exactly once (see pe_test.h).
# Other folders reuse it with include(${PROJECT_SOURCE_DIR}/test/pe/UshPeTest.cmake).
#
# Cache variables:
#   USH_PE_LAUNCHER       launcher to use instead of the oshrun target (e.g. to
#                         validate the tests against another OpenSHMEM)
#   USH_PE_LAUNCHER_ARGS  options always given to the launcher (;-list)
#   USH_PE_NP_FLAG        how the launcher is told the PE count (default -n)
#   USH_PE_REQUIRE_SPEC   spec version shmem.h must declare, 100*major+minor
#                         (default 106); lower it only for another library
#   USH_PE_SHMEM_TARGET   library the programs link (default ushmem)
include_guard(GLOBAL)

set(USH_PE_LAUNCHER "" CACHE STRING
    "Launcher for the multi-PE tests; empty means the oshrun target")
set(USH_PE_LAUNCHER_ARGS "" CACHE STRING "Options always passed to the multi-PE test launcher")
set(USH_PE_NP_FLAG "-n" CACHE STRING "Launcher option that sets the number of PEs")
set(USH_PE_REQUIRE_SPEC 106 CACHE STRING
    "OpenSHMEM version (100*major+minor) the tested shmem.h must declare")
set(USH_PE_SHMEM_TARGET ushmem CACHE STRING "Library target the multi-PE tests link")

function(ush_add_pe_test)
    cmake_parse_arguments(PARSE_ARGV 0 A "" "NAME;TARGET;TIMEOUT"
        "SOURCES;NPES;ENV;ARGS;LAUNCHER_ARGS;LIBS;COMPILE_OPTIONS;COMPILE_DEFINITIONS;LINK_OPTIONS;LABELS")
    if(NOT A_NAME)
        message(FATAL_ERROR "ush_add_pe_test: NAME is required")
    endif()
    if(A_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "ush_add_pe_test(${A_NAME}): unknown arguments: ${A_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT A_NPES)
        set(A_NPES 1 2 4 8)
    endif()
    if(NOT A_TIMEOUT)
        set(A_TIMEOUT 120)
    endif()

    if(A_TARGET)
        set(tgt ${A_TARGET})
    elseif(A_SOURCES)
        set(tgt pe_${A_NAME})
        add_executable(${tgt} ${A_SOURCES})
        target_link_libraries(${tgt} PRIVATE ${USH_PE_SHMEM_TARGET} ${A_LIBS})
        # pe_test.h lives next to this file.
        target_include_directories(${tgt} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
        target_compile_definitions(${tgt} PRIVATE
            PE_TEST_REQUIRE_SPEC=${USH_PE_REQUIRE_SPEC} ${A_COMPILE_DEFINITIONS})
        if(A_COMPILE_OPTIONS)
            target_compile_options(${tgt} PRIVATE ${A_COMPILE_OPTIONS})
        endif()
        if(A_LINK_OPTIONS)
            target_link_options(${tgt} PRIVATE ${A_LINK_OPTIONS})
        endif()
    else()
        message(FATAL_ERROR "ush_add_pe_test(${A_NAME}): give SOURCES or TARGET")
    endif()

    if(USH_PE_LAUNCHER)
        set(launcher ${USH_PE_LAUNCHER})
    elseif(TARGET oshrun)
        # Unbound: ctest runs several jobs at once, and oshrun's default
        # binding would put every job's PE 0 on the same core.
        set(launcher $<TARGET_FILE:oshrun> --bind-to none)
    else()
        # The launcher is written in parallel; build the program anyway.
        message(STATUS "ush_add_pe_test(${A_NAME}): no oshrun target and no "
                       "USH_PE_LAUNCHER; program built, tests not registered")
        return()
    endif()

    # The runner's own deadline and the PEs' watchdog fire before ctest's
    # TIMEOUT, so a hang is reported with its section instead of a bare kill.
    math(EXPR deadline "${A_TIMEOUT} - 5")
    math(EXPR watchdog "${A_TIMEOUT} - 10")
    if(watchdog LESS 5)
        set(watchdog 5)
    endif()

    set(labels pe ${A_LABELS})
    foreach(np IN LISTS A_NPES)
        set(test pe.${A_NAME}.np${np})
        add_test(NAME ${test}
                 COMMAND ${CMAKE_COMMAND} -DNP=${np} -DDEADLINE=${deadline}
                         -DWATCHDOG=${watchdog}
                         -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_pe_test.cmake --
                         ${launcher} ${USH_PE_LAUNCHER_ARGS} ${A_LAUNCHER_ARGS}
                         ${USH_PE_NP_FLAG} ${np} $<TARGET_FILE:${tgt}> ${A_ARGS})
        set_tests_properties(${test} PROPERTIES
            TIMEOUT ${A_TIMEOUT}
            LABELS "${labels}"
            # ctest -jN counts the PEs, so parallel ctest does not pile
            # 8-PE jobs onto 2 cores.
            PROCESSORS ${np})
        if(A_ENV)
            set_tests_properties(${test} PROPERTIES ENVIRONMENT "${A_ENV}")
        endif()
    endforeach()
endfunction()
