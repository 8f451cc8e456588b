# ppc64le with Debian's gcc-powerpc64le-linux-gnu: see debian-cross.cmake.
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(USH_CROSS_TRIPLET powerpc64le-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
