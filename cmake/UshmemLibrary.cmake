# libushmem, one library from the layers, top down (docs/design.md, "Layers";
# test/layers checks that calls only go down): the Fortran routines
# (fortran/*.c: C code, built with or without a Fortran compiler), the public
# routines (api/), the collective algorithms (collectives/), the core
# (core/), the UCX/PMIx transport (transport/) and the CPU layer (arch/).
# Included from the top CMakeLists.txt, so the objects lie under the build's
# CMakeFiles/ushmem_obj.dir/ by their sources' paths, which the layer test
# reads.
# USH_LAYERS: the folders top down, one level after another (':'; folders
# of one level would be joined by ','); a folder may use only folders on
# lower levels.
set(USH_LAYERS "fortran:api:collectives:core:transport:arch")
string(REGEX REPLACE "[:,]" ";" _ush_layer_dirs "${USH_LAYERS}")
set(USH_SOURCES "")
foreach(layer IN LISTS _ush_layer_dirs)
    file(GLOB layer_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${layer}/*.c)
    list(APPEND USH_SOURCES ${layer_sources})
endforeach()

add_library(ushmem_obj OBJECT ${USH_SOURCES})
# The reduction operators are one loop each: -O3's vectoriser turns them into
# SIMD loops (-O2's "very cheap" model leaves most of them scalar), whatever
# the build type. Only that file: elsewhere -O3 only grows the code.
set_source_files_properties(${PROJECT_SOURCE_DIR}/collectives/reduce_ops.c
    PROPERTIES COMPILE_OPTIONS -O3)
set_target_properties(ushmem_obj PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(ushmem_obj PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(ushmem_obj PRIVATE _GNU_SOURCE
    USH_VERSION_STRING="${PROJECT_VERSION}")
# The job profile's hooks (api/ush_profile.h) are compiled in unless this is
# OFF; bench/profile_cost.sh builds such a library to show what they cost.
set(USHMEM_PROFILE_HOOKS ON CACHE BOOL "Compile in the job profile (SHMEM_PROFILE)")
if(NOT USHMEM_PROFILE_HOOKS)
    target_compile_definitions(ushmem_obj PRIVATE USH_PROF_NONE)
endif()
target_link_libraries(ushmem_obj PUBLIC PkgConfig::UCX PkgConfig::PMIX PkgConfig::HWLOC Threads::Threads)

# The exported names: the public routines' (api/libushmem.map).
set(USH_EXPORT_MAP ${PROJECT_SOURCE_DIR}/api/libushmem.map)
add_library(ushmem SHARED $<TARGET_OBJECTS:ushmem_obj>)
add_library(ushmem_static STATIC $<TARGET_OBJECTS:ushmem_obj>)
set_target_properties(ushmem_static PROPERTIES OUTPUT_NAME ushmem)
set_target_properties(ushmem PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    LINK_DEPENDS ${USH_EXPORT_MAP})
target_link_options(ushmem PRIVATE -Wl,--version-script=${USH_EXPORT_MAP})
foreach(lib ushmem ushmem_static)
    target_include_directories(${lib} PUBLIC
        $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${lib} PRIVATE PkgConfig::UCX PkgConfig::PMIX PkgConfig::HWLOC Threads::Threads)
endforeach()
add_library(ushmem::ushmem ALIAS ushmem)
