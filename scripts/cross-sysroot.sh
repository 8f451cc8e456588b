#!/bin/sh
# cross-sysroot.sh ARCH DIR: unpack Debian 12's ARCH (arm64, ppc64el)
# builds of the libraries ushmem and its tests link against into DIR, a
# sysroot overlay for the cross builds (cmake/toolchain/, test/cross/).
#
# Why not `apt-get install libpmix-dev:arm64`: multiarch installs only
# packages whose whole dependency chain is Multi-Arch: same. UCX's and
# hwloc's are; PMIx's and Criterion's are not (libpmix2 needs libmunge2,
# libpmix-dev libevent-dev, libcriterion3 libnanomsg5, none of them
# Multi-Arch: same), so installing them for arm64 makes apt remove the
# amd64 PMIx, Open MPI, Slurm and Criterion this machine needs. Unpacking
# the .debs installs nothing: the foreign architecture is added to dpkg
# only so that apt knows its package lists, and the versions need not
# match the installed amd64 ones. The C library comes from the host's
# libc6-dev-ARCH-cross (the cross compiler's own).
#
# Idempotent: DIR/.done names the package list it holds. Needs apt-get
# and network access to the Debian mirror; the first run as root adds the
# architecture and updates apt's lists.
set -eu
arch=${1:?usage: cross-sysroot.sh ARCH DIR}
dir=${2:?usage: cross-sysroot.sh ARCH DIR}
case $arch in
    arm64) triplet=aarch64-linux-gnu ldso=lib/ld-linux-aarch64.so.1 ;;
    ppc64el) triplet=powerpc64le-linux-gnu ldso=lib64/ld64.so.2 ;;
    *) echo "cross-sysroot.sh: no cross build for '$arch' (arm64 or ppc64el)" >&2; exit 2 ;;
esac

# The build's libraries (UCX, hwloc, PMIx), the unit tests' (Criterion),
# and what their shared objects need at link and run time (checked below).
# Debian 12 has no Criterion for ppc64el: that build runs its unit tests
# on test/unit/mini/ instead.
pkgs="libucx-dev libucx0 libnuma1 libhwloc-dev libhwloc15 libudev1 libcap2
      libpmix-dev libpmix2 libmunge2 libevent-core-2.1-7 libevent-pthreads-2.1-7 zlib1g"
[ "$arch" = ppc64el ] || pkgs="$pkgs
      libcriterion-dev libcriterion3 libnanomsg5 libffi8 libgit2-1.5 libhttp-parser2.9
      libmbedtls14 libmbedx509-1 libmbedcrypto7 libpcre2-8-0 libssh2-1 libssl3
      libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1"
want=$(echo "$dir" $pkgs runtime-root-3) # moved or changed: made again
if [ -f "$dir/.done" ] && [ "$(cat "$dir/.done")" = "$want" ]; then
    echo "ushmem: $arch sysroot overlay in $dir is up to date"
    exit 0
fi

if ! dpkg --print-foreign-architectures | grep -qx "$arch" ||
   ! apt-cache show "libpmix2:$arch" >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "cross-sysroot.sh: apt knows no $arch packages; as root:" \
             "dpkg --add-architecture $arch && apt-get update" >&2
        exit 1
    fi
    dpkg --add-architecture "$arch"
    # A list that fails to download (a mirror mid-sync) leaves the old one
    # or none; the downloads below then say which package is missing.
    apt-get update -qq || echo "cross-sysroot.sh: apt-get update reported errors; going on" >&2
fi

debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
list=
for p in $pkgs; do list="$list $p:$arch"; done
# apt-get download runs as _apt when it can: give it a directory it may write.
chmod 777 "$debs"
(cd "$debs" && apt-get download -q $list)
rm -rf "$dir"
mkdir -p "$dir"
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$dir"; done

# The .pc files name /usr: point them into the overlay. Criterion's
# private requirements (for static linking) are left out: their .pc files
# would need their -dev packages, which are not Multi-Arch either.
for pc in "$dir/usr/lib/$triplet/pkgconfig/"*.pc; do
    sed -i -e "s|^\([a-z_]* *= *\)/usr|\1$dir/usr|" -e "s| -I/usr/include| -I$dir/usr/include|" \
        -e '/^Requires.private:/d' -e '/^Libs.private:/d' "$pc"
done

# UCX's InfiniBand modules need rdma-core: no InfiniBand here, and UCX
# loads its modules only if present.
rm -f "$dir/usr/lib/$triplet/ucx/"libuct_ib.so* "$dir/usr/lib/$triplet/ucx/"libuct_rdmacm.so*

# The overlay is also the root the emulated runs give QEMU
# (QEMU_LD_PREFIX, test/emu/): a guest's absolute paths are looked up
# there first, then on the host. It must hold the C library too, from the
# same build as the dynamic loader: the loader's default directories are
# then the overlay's, and an empty etc/ld.so.cache hides the host's, whose
# arm64 entries (a host with libc6:arm64 installed, say) would otherwise
# pair the cross loader with another libc.so.6: a private ABI between the
# two, and a mismatch corrupts its thread-stack list (the first
# pthread_create then loops for ever).
libc=/usr/$triplet/lib
mkdir -p "$dir/$(dirname $ldso)" "$dir/lib/$triplet" "$dir/etc"
ln -sf "$libc/$(basename $ldso)" "$dir/$ldso"
# QEMU falls back to the host file by file, and the loader searches
# /lib/<triplet> before /usr/lib/<triplet>: the overlay's usr/lib
# libraries are linked into its lib too, or a host's arm64 copy of one
# (libudev1:arm64, say) would come first.
for so in "$libc"/*.so.* "$dir/usr/lib/$triplet"/*.so.*; do
    [ -e "$dir/lib/$triplet/$(basename "$so")" ] || ln -s "$so" "$dir/lib/$triplet/"
done
: > "$dir/etc/ld.so.cache"

# Every library that a shared object of the overlay needs is found where
# the cross link looks for it (the -rpath-link directories of
# cmake/toolchain/debian-cross.cmake) or in the cross C library: anything
# else would be found only where earlier work left that architecture's
# libraries in the host's root, and fail the link on a fresh machine.
search="$dir/usr/lib/$triplet $dir/lib/$triplet $dir/usr/lib/$triplet/pmix2/lib $libc"
missing=
for so in $(find "$dir" -name '*.so*' -type f); do
    for need in $($triplet-readelf -d "$so" 2>/dev/null |
                  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        found=
        for d in $search; do [ -e "$d/$need" ] && found=1 && break; done
        [ -n "$found" ] || missing="$missing $need (for ${so#$dir/})"
    done
done
if [ -n "$missing" ]; then
    echo "cross-sysroot.sh: in the $arch overlay, these needed libraries are not where" \
         "the cross link looks ($search):$missing" >&2
    exit 1
fi
echo "$want" > "$dir/.done"
echo "ushmem: $arch sysroot overlay ready in $dir"
