# build-tests: every program and library of the tree, that is what `all`
# builds and the test and benchmark programs (test/, bench/), which are
# left out of `all` so that `cmake --build` and `make install` build only
# what is installed. The targets are collected from every directory, so a
# test added anywhere is built without being listed here.
#
#   make build-tests                             (make check runs it first)
#   cmake --build build --target build-tests     (then ctest)
#
# Defined with the tests off too (it then builds the benchmark programs
# with the rest), so that `--target build-tests` always names a target.

# ush_collect_targets(<dir> <out>): the targets defined in <dir> and in the
# directories below it.
function(ush_collect_targets dir out)
    get_property(found DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
        ush_collect_targets(${sub} below)
        list(APPEND found ${below})
    endforeach()
    set(${out} ${found} PARENT_SCOPE)
endfunction()

ush_collect_targets(${PROJECT_SOURCE_DIR} _ush_targets)
set(_ush_build_deps)
# The file each program and library target makes, for tests.built below.
set(_ush_build_files)
foreach(t IN LISTS _ush_targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY)$")
        list(APPEND _ush_build_deps ${t})
        string(APPEND _ush_build_files "$<TARGET_FILE:${t}>\n")
    elseif(type MATCHES "^(OBJECT_LIBRARY|UTILITY)$")
        list(APPEND _ush_build_deps ${t})
    endif()
endforeach()
add_custom_target(build-tests)
add_dependencies(build-tests ${_ush_build_deps})

# tests.built: ctest run without build-tests first fails here, naming the
# programs that are missing, instead of leaving it to each test to fail
# (or to skip) on a missing program.
if(USH_TESTS)
    file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/build-tests.files CONTENT "${_ush_build_files}")
    add_test(NAME tests.built
             COMMAND ${CMAKE_COMMAND} -DLIST=${PROJECT_BINARY_DIR}/build-tests.files
                     -P ${PROJECT_SOURCE_DIR}/test/check_built.cmake)
    set_tests_properties(tests.built PROPERTIES TIMEOUT 30 LABELS unit)
endif()
