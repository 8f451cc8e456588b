#!/bin/sh
# binfmt.sh ARCH: make the kernel run ARCH (aarch64, ppc64le) executables
# through Debian's qemu-user-static, so that the emulated tests of the
# cross builds (test/emu/) can start them directly, and so can the
# emulated oshrun its PEs.
#
# qemu-user-static ships the binfmt_misc entries and binfmt-support's
# update-binfmts registers them; its postinst does so only where
# binfmt_misc was mounted then (not in most containers). Registering is
# root's, and a container may be refused it: then this says so and fails,
# and the tests are skipped. Idempotent.
set -eu
arch=${1:?usage: binfmt.sh ARCH}
entry=/proc/sys/fs/binfmt_misc/qemu-$arch

if [ -r "$entry" ] && grep -qx enabled "$entry"; then
    echo "ushmem: qemu-$arch is registered with binfmt_misc"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "binfmt.sh: qemu-$arch is not registered with binfmt_misc; as root:" \
         "update-binfmts --enable qemu-$arch" >&2
    exit 1
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || {
        echo "binfmt.sh: cannot mount binfmt_misc (a container without the privilege?)" >&2
        exit 1
    }
fi
# --import reads /usr/share/binfmts/qemu-$arch (a no-op when known already).
update-binfmts --import "qemu-$arch" >/dev/null 2>&1 || true
update-binfmts --enable "qemu-$arch" 2>/dev/null || true # "already enabled" after --import
if [ -r "$entry" ] && grep -qx enabled "$entry"; then
    echo "ushmem: qemu-$arch registered with binfmt_misc"
else
    echo "binfmt.sh: the kernel did not take the qemu-$arch entry" >&2
    exit 1
fi
