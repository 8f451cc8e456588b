# What the install tests (unit_install, fortran.install) share; included by
# their cmake -P scripts. Any failure is a FATAL_ERROR, which fails the test.

# Every variable named must have been given with -D.
function(ush_require script)
    foreach(v ${ARGN})
        if(NOT DEFINED ${v})
            message(FATAL_ERROR "${script}: -D${v}=... is required")
        endif()
    endforeach()
endfunction()

# Run a command; on failure show its output and fail the test.
function(ush_run what)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${what} failed (${rc}):\n  ${ARGN}\n${out}")
    endif()
endfunction()

# Run a consumer as a single PE (no launcher) with no LD_LIBRARY_PATH: the
# flags it was built with must find the library by themselves.
function(ush_run_consumer exe)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${exe}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 0 OR NOT out STREQUAL "PE 0 of 1\n")
        message(FATAL_ERROR "${exe}, run without LD_LIBRARY_PATH, exited '${rc}' "
                            "printing '${out}' (expected 'PE 0 of 1'):\n${err}")
    endif()
endfunction()
