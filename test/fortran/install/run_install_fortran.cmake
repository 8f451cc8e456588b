# cmake -P script run by ctest (fortran.install): install the build into a
# scratch prefix, then build Fortran programs against it three ways --
# find_package(ushmem) with ushmem::ushmem_fortran, the installed oshfort,
# and pkg-config -- each once with INCLUDE 'mpp/shmem.fh' and once with
# use shmem, and run each as one PE without LD_LIBRARY_PATH.
include(${CMAKE_CURRENT_LIST_DIR}/../../install/install_lib.cmake)
ush_require(run_install_fortran.cmake USH_BUILD_DIR USH_WORK_DIR USH_SRC_DIR USH_GENERATOR
            USH_Fortran_COMPILER USH_LIBDIR)

set(prefix ${USH_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${USH_WORK_DIR})
file(MAKE_DIRECTORY ${USH_WORK_DIR})
ush_run("cmake --install" ${CMAKE_COMMAND} --install ${USH_BUILD_DIR} --prefix ${prefix})
foreach(f include/shmem.fh include/mpp/shmem.fh include/shmem.mod bin/oshfort)
    if(NOT EXISTS ${prefix}/${f})
        message(FATAL_ERROR "not installed: ${f}")
    endif()
endforeach()

# find_package
set(cbuild ${USH_WORK_DIR}/consumer)
ush_run("configuring the Fortran find_package consumer"
    ${CMAKE_COMMAND} -S ${USH_SRC_DIR} -B ${cbuild} -G ${USH_GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_Fortran_COMPILER=${USH_Fortran_COMPILER}
    -DCMAKE_BUILD_RPATH_USE_LINK_PATH=ON)
ush_run("building the Fortran find_package consumer" ${CMAKE_COMMAND} --build ${cbuild})
ush_run_consumer(${cbuild}/hello_fh)
ush_run_consumer(${cbuild}/hello_mod)

# the installed oshfort
foreach(src hello.f hello_mod.f90)
    ush_run("oshfort ${src}" ${prefix}/bin/oshfort ${USH_SRC_DIR}/${src}
            -J ${USH_WORK_DIR} -o ${USH_WORK_DIR}/oshfort_${src}.exe)
    ush_run_consumer(${USH_WORK_DIR}/oshfort_${src}.exe)
endforeach()

# pkg-config: the same ushmem.pc as for C (its -I holds shmem.fh and the module)
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/${USH_LIBDIR}/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ushmem OUTPUT_VARIABLE pc
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs ushmem failed")
endif()
separate_arguments(pc UNIX_COMMAND "${pc}")
ush_run("pkg-config Fortran consumer" ${USH_Fortran_COMPILER} ${USH_SRC_DIR}/hello_mod.f90
        ${pc} -J ${USH_WORK_DIR} -o ${USH_WORK_DIR}/pc_hello_mod)
ush_run_consumer(${USH_WORK_DIR}/pc_hello_mod)
message(STATUS "Fortran: installed shmem.fh, shmem.mod, oshfort, ushmem::ushmem_fortran and pkg-config: OK")
