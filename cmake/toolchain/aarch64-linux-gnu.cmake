# aarch64 with Debian's gcc-aarch64-linux-gnu: see debian-cross.cmake.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(USH_CROSS_TRIPLET aarch64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
