# Cross builds with Debian 12's cross compilers: included by the
# per-architecture toolchain files here, which set USH_CROSS_TRIPLET.
#
#   cmake -S . -B build-aarch64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain/aarch64-linux-gnu.cmake \
#         -DUSHMEM_CROSS_OVERLAY=<dir made by scripts/cross-sysroot.sh arm64 <dir>>
#
# The compiler is Debian's gcc-<triplet> (its C library from
# libc6-dev-<arch>-cross); UCX, PMIx, hwloc and Criterion come from the
# overlay of unpacked target packages (scripts/cross-sysroot.sh says why
# they are not installed), found through its pkg-config files only.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${USH_CROSS_TRIPLET}-gcc)

if(NOT USHMEM_CROSS_OVERLAY)
    set(USHMEM_CROSS_OVERLAY "$ENV{USHMEM_CROSS_OVERLAY}")
endif()
if(NOT USHMEM_CROSS_OVERLAY OR NOT EXISTS "${USHMEM_CROSS_OVERLAY}/usr/lib/${USH_CROSS_TRIPLET}")
    message(FATAL_ERROR "cross build for ${USH_CROSS_TRIPLET}: -DUSHMEM_CROSS_OVERLAY=<dir> "
                        "must name an overlay made by scripts/cross-sysroot.sh")
endif()
# try_compile projects read this file again: hand them the overlay too.
set(ENV{USHMEM_CROSS_OVERLAY} "${USHMEM_CROSS_OVERLAY}")

set(_ush_lib ${USHMEM_CROSS_OVERLAY}/usr/lib/${USH_CROSS_TRIPLET})
# pkg-config sees the overlay's modules and nothing of the host's.
set(ENV{PKG_CONFIG_LIBDIR} "${_ush_lib}/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
# Multiarch headers (hwloc's autogen/config.h, ...) sit in
# include/<triplet>, which only the host's copy is searched for.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${USHMEM_CROSS_OVERLAY}/usr/include/${USH_CROSS_TRIPLET})
# The libraries' own dependencies (libmunge for libpmix, libz for
# libgit2, ...) are in the overlay too: the linker looks there for them,
# in usr/lib/<triplet> and in lib/<triplet>, where Debian 12 still ships
# some (zlib1g, libcom-err2, libkeyutils1) and where cross-sysroot.sh also
# links the others. Nothing of the host's own root is searched, so a
# machine with arm64 libraries installed links as a fresh one does;
# cross-sysroot.sh checks these same directories.
foreach(kind EXE SHARED)
    set(CMAKE_${kind}_LINKER_FLAGS_INIT
        "-Wl,-rpath-link,${_ush_lib} -Wl,-rpath-link,${USHMEM_CROSS_OVERLAY}/lib/${USH_CROSS_TRIPLET} -Wl,-rpath-link,${_ush_lib}/pmix2/lib")
endforeach()

# Find programs on the host, everything else for the target.
set(CMAKE_FIND_ROOT_PATH /usr/${USH_CROSS_TRIPLET} ${USHMEM_CROSS_OVERLAY})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
