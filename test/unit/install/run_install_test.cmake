# cmake -P script run by ctest (unit_install): install the build into a
# scratch prefix, move the prefix (nothing may remember where it was
# installed), then build a consumer with find_package(ushmem) and one with
# pkg-config, and run each with LD_LIBRARY_PATH unset: the flags both give
# must find the library by themselves. Any failure is a FATAL_ERROR, which
# fails the test.
include(${CMAKE_CURRENT_LIST_DIR}/../../install/install_lib.cmake)
ush_require(run_install_test.cmake USH_BUILD_DIR USH_WORK_DIR USH_CONSUMER_DIR USH_GENERATOR
            USH_C_COMPILER USH_LIBDIR USH_VERSION)

set(staged ${USH_WORK_DIR}/staged)
set(prefix ${USH_WORK_DIR}/moved)
file(REMOVE_RECURSE ${USH_WORK_DIR})
file(MAKE_DIRECTORY ${USH_WORK_DIR})

ush_run("cmake --install" ${CMAKE_COMMAND} --install ${USH_BUILD_DIR} --prefix ${staged})
file(RENAME ${staged} ${prefix})

set(expected
    ${USH_LIBDIR}/libushmem.so
    ${USH_LIBDIR}/libushmem.a
    ${USH_LIBDIR}/pkgconfig/ushmem.pc
    ${USH_LIBDIR}/cmake/ushmem/ushmemConfig.cmake
    ${USH_LIBDIR}/cmake/ushmem/ushmemConfigVersion.cmake
    ${USH_LIBDIR}/cmake/ushmem/ushmemTargets.cmake
    include/shmem.h include/shmemx.h include/pshmem.h include/mpp/shmem.h include/mpp/shmemx.h
    include/ushmem/types.h)
foreach(f ${expected})
    if(NOT EXISTS ${prefix}/${f})
        message(FATAL_ERROR "not installed: ${f}")
    endif()
endforeach()
# The shared library comes with its soname link (libushmem.so.<major>).
string(REGEX MATCH "^[0-9]+" major ${USH_VERSION})
if(NOT EXISTS ${prefix}/${USH_LIBDIR}/libushmem.so.${major})
    message(FATAL_ERROR "not installed: ${USH_LIBDIR}/libushmem.so.${major}")
endif()
# Relocatable means the staging prefix is written nowhere.
file(GLOB_RECURSE texts ${prefix}/${USH_LIBDIR}/cmake/*.cmake ${prefix}/${USH_LIBDIR}/pkgconfig/*.pc)
foreach(f ${texts})
    file(READ ${f} content)
    string(FIND "${content}" "${staged}" at)
    if(NOT at EQUAL -1)
        message(FATAL_ERROR "${f} records the install prefix ${staged}")
    endif()
endforeach()

# --- find_package(ushmem) --------------------------------------------------
set(cbuild ${USH_WORK_DIR}/consumer-cmake)
ush_run("configuring the find_package consumer"
    ${CMAKE_COMMAND} -S ${USH_CONSUMER_DIR}/consumer -B ${cbuild} -G ${USH_GENERATOR}
        -DCMAKE_C_COMPILER=${USH_C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
        -DUSH_WANT_VERSION=${USH_VERSION})
ush_run("building the find_package consumer (shared and static)"
    ${CMAKE_COMMAND} --build ${cbuild} -j2)
foreach(exe hello_shared hello_static)
    if(NOT EXISTS ${cbuild}/${exe})
        message(FATAL_ERROR "consumer ${exe} was not built")
    endif()
    ush_run_consumer(${cbuild}/${exe})
endforeach()

# A version from another major must be refused (the version file works).
math(EXPR next_major "${major} + 1")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${USH_CONSUMER_DIR}/consumer
        -B ${USH_WORK_DIR}/consumer-wrong-version -G ${USH_GENERATOR}
        -DCMAKE_C_COMPILER=${USH_C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
        -DUSH_WANT_VERSION=${next_major}.0
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
    message(FATAL_ERROR "find_package(ushmem ${next_major}.0) accepted version ${USH_VERSION}")
endif()

# --- pkg-config ---------------------------------------------------------------
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/${USH_LIBDIR}/pkgconfig)
function(ush_pkg_config var)
    execute_process(COMMAND ${PKG_CONFIG} ${ARGN} ushmem RESULT_VARIABLE rc
        OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "pkg-config ${ARGN} ushmem failed: ${err}")
    endif()
    set(${var} "${out}" PARENT_SCOPE)
endfunction()

ush_pkg_config(pc_version --modversion)
if(NOT pc_version STREQUAL USH_VERSION)
    message(FATAL_ERROR "pkg-config reports version '${pc_version}', expected ${USH_VERSION}")
endif()
ush_pkg_config(pc_includedir --variable=includedir)
if(NOT EXISTS ${pc_includedir}/shmem.h)
    message(FATAL_ERROR "pkg-config includedir '${pc_includedir}' has no shmem.h")
endif()
ush_pkg_config(pc_static --static --libs)
foreach(lib -lucp -lpmix -lhwloc)
    string(FIND " ${pc_static} " " ${lib} " at)
    if(at EQUAL -1)
        message(FATAL_ERROR "pkg-config --static --libs lacks ${lib}: ${pc_static}")
    endif()
endforeach()
ush_pkg_config(pc_cflags --cflags)
ush_pkg_config(pc_libs --libs)
separate_arguments(pc_cflags UNIX_COMMAND "${pc_cflags}")
separate_arguments(pc_libs UNIX_COMMAND "${pc_libs}")
ush_run("compiling and linking the pkg-config consumer"
    ${USH_C_COMPILER} ${pc_cflags} ${USH_CONSUMER_DIR}/consumer/hello.c
        -o ${USH_WORK_DIR}/hello_pkgconfig ${pc_libs})
if(NOT EXISTS ${USH_WORK_DIR}/hello_pkgconfig)
    message(FATAL_ERROR "pkg-config consumer was not built")
endif()
ush_run_consumer(${USH_WORK_DIR}/hello_pkgconfig)
message(STATUS "install layout, find_package and pkg-config consumers built and run: OK")
