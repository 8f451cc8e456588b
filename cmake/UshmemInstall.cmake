# Install layout and packaging: the libraries, the public headers, a
# pkg-config file and a CMake package, all relocatable (nothing records the
# install prefix, so a tree copied elsewhere still works).
# The launcher (oshrun, oshcc, oshc++) installs itself from launcher/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(USH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ushmem)
set(USH_PC_DIR    ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS ushmem ushmem_static
    EXPORT ushmemTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# shmem.h, shmemx.h, pshmem.h, mpp/shmem.h, mpp/shmemx.h and ushmem/*.h: every header
# under include/, listed file by file (install(DIRECTORY) would also create
# folders that hold no header).
file(GLOB_RECURSE USH_PUBLIC_HEADERS CONFIGURE_DEPENDS
     RELATIVE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/include/*.h)
foreach(header ${USH_PUBLIC_HEADERS})
    get_filename_component(subdir ${header} DIRECTORY)
    install(FILES ${PROJECT_SOURCE_DIR}/include/${header}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${subdir})
endforeach()
# Headers the build generates into <build>/include (on the library's
# include path too), if it ever does.
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    OPTIONAL
    FILES_MATCHING PATTERN "*.h")

# --- CMake package: find_package(ushmem) -> ushmem::ushmem, ushmem::ushmem_static
install(EXPORT ushmemTargets
    NAMESPACE ushmem::
    DESTINATION ${USH_CMAKE_DIR}
    FILE ushmemTargets.cmake)
configure_package_config_file(
    ${CMAKE_CURRENT_LIST_DIR}/ushmemConfig.cmake.in
    ${PROJECT_BINARY_DIR}/cmake/ushmemConfig.cmake
    INSTALL_DESTINATION ${USH_CMAKE_DIR})
# The soname carries the major version, so that is what must match.
write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/cmake/ushmemConfigVersion.cmake
    VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMajorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/cmake/ushmemConfig.cmake
    ${PROJECT_BINARY_DIR}/cmake/ushmemConfigVersion.cmake
    DESTINATION ${USH_CMAKE_DIR})

# --- pkg-config: the prefix is found from the .pc file's own location.
# How many levels the .pc directory sits below the prefix (lib/pkgconfig: 2,
# lib/x86_64-linux-gnu/pkgconfig: 3).
file(RELATIVE_PATH USH_PC_TO_PREFIX /ushmem-root/${USH_PC_DIR} /ushmem-root)
string(REGEX REPLACE "/$" "" USH_PC_TO_PREFIX "${USH_PC_TO_PREFIX}")
# ush_under_prefix(<out> <dir> <prefix>): installation directory dir as
# written in a file that calls the install prefix <prefix> (${prefix} in
# the .pc file, $ushmem_prefix in the modulefile): dir itself when
# absolute, <prefix>/dir otherwise.
function(ush_under_prefix out dir prefix)
    if(IS_ABSOLUTE "${dir}")
        set(${out} "${dir}" PARENT_SCOPE)
    else()
        set(${out} "${prefix}/${dir}" PARENT_SCOPE)
    endif()
endfunction()
foreach(dir LIBDIR INCLUDEDIR)
    ush_under_prefix(USH_PC_${dir} "${CMAKE_INSTALL_${dir}}" "\${prefix}")
endforeach()
# An rpath to libdir, as oshcc adds, so `cc $(pkg-config --cflags --libs
# ushmem) app.c` runs without LD_LIBRARY_PATH; ${libdir} is where the .pc was
# found, so the rpath follows a moved tree. Not for a libdir the linker
# searches anyway (a /usr install): the loader searches it too.
set(USH_PC_RPATH "-Wl,-rpath,\${libdir} ")
get_filename_component(USH_FULL_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}" ABSOLUTE)
if(USH_FULL_LIBDIR IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    set(USH_PC_RPATH "")
endif()
# Libs.private is for `pkg-config --static`, so take the static link lines
# of the dependencies, as pkg-config reported them when we were configured.
set(USH_PC_LIBS_PRIVATE)
foreach(dep UCX PMIX HWLOC)
    list(APPEND USH_PC_LIBS_PRIVATE ${${dep}_STATIC_LDFLAGS})
endforeach()
list(APPEND USH_PC_LIBS_PRIVATE -pthread)
list(JOIN USH_PC_LIBS_PRIVATE " " USH_PC_LIBS_PRIVATE)
configure_file(${CMAKE_CURRENT_LIST_DIR}/ushmem.pc.in ${PROJECT_BINARY_DIR}/ushmem.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ushmem.pc DESTINATION ${USH_PC_DIR})

# --- Modulefile: <prefix>/share/modulefiles/ushmem/<version>, for
# `module use <prefix>/share/modulefiles; module load ushmem` with
# environment-modules or Lmod (cmake/ushmem.modulefile.in). It finds the
# prefix from its own location, like the files above; the prefix it was
# installed into, its fallback for a copy kept elsewhere, is known only at
# install time (`cmake --install --prefix`), so it is configured twice:
# here for the version and the layout, at install time for that prefix.
set(USH_MODULE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles)
# The way up from <dir>/ushmem to the prefix (share/modulefiles/ushmem:
# ../../..); for an absolute datadir, the way there from this prefix.
if(IS_ABSOLUTE "${USH_MODULE_DIR}")
    file(RELATIVE_PATH USH_MODULE_TO_PREFIX ${USH_MODULE_DIR}/ushmem ${CMAKE_INSTALL_PREFIX})
else()
    file(RELATIVE_PATH USH_MODULE_TO_PREFIX /ushmem-root/${USH_MODULE_DIR}/ushmem /ushmem-root)
endif()
string(REGEX REPLACE "/$" "" USH_MODULE_TO_PREFIX "${USH_MODULE_TO_PREFIX}")
foreach(var BINDIR MANDIR PCDIR)
    if(var STREQUAL "PCDIR")
        set(dir ${USH_PC_DIR})
    else()
        set(dir ${CMAKE_INSTALL_${var}})
    endif()
    ush_under_prefix(USH_MODULE_${var} "${dir}" "$ushmem_prefix")
endforeach()
set(USH_INSTALLED_PREFIX "@USH_INSTALLED_PREFIX@")
configure_file(${CMAKE_CURRENT_LIST_DIR}/ushmem.modulefile.in
               ${PROJECT_BINARY_DIR}/modulefile/ushmem.in @ONLY)
install(CODE "
    set(USH_INSTALLED_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(${PROJECT_BINARY_DIR}/modulefile/ushmem.in
                   ${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION} @ONLY)")
install(FILES ${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION}
        DESTINATION ${USH_MODULE_DIR}/ushmem)
