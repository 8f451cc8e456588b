#!/bin/sh
# run_emu.sh NAME BUILD OVERLAY QEMU_ARCH REGEX: run the tests of a cross
# build (BUILD, made by test/cross/) that match REGEX, on this machine,
# under QEMU user-mode emulation through binfmt_misc. Used by the emu.*
# tests (CMakeLists.txt here); exits 77 (skipped) where it cannot run.
#
# The cross build's own ctest runs them: its oshrun is the target's one,
# itself emulated, and every PE it starts goes through binfmt too.
# QEMU_LD_PREFIX makes the overlay the guests' root (scripts/
# cross-sysroot.sh says why it must hold the C library as well).
set -u
name=$1 build=$2 overlay=$3 qarch=$4 regex=$5

skip() { echo "$name: SKIPPED: $*"; exit 77; }

[ -f "$overlay/.done" ] ||
    skip "no sysroot overlay in $overlay (\`make check\` makes it, as root)"
[ -f "$build/CTestTestfile.cmake" ] && [ -x "$build/launcher/oshrun" ] ||
    skip "no cross build in $build (the cross test before this one makes it)"
# Registering an interpreter is root's (update-binfmts, or a container
# that shares the host's binfmt_misc); using a registered one is not.
entry=/proc/sys/fs/binfmt_misc/qemu-$qarch
[ -r "$entry" ] && grep -qx enabled "$entry" ||
    skip "binfmt_misc has no enabled qemu-$qarch (as root: apt-get install" \
         "qemu-user-static binfmt-support && update-binfmts --enable qemu-$qarch;" \
         "\`make check\` does it where the kernel lets it)"

export QEMU_LD_PREFIX="$overlay"
# One emulated program first: a broken set-up fails here, in one line,
# rather than as every test timing out.
if ! out=$(timeout 60 "$build/launcher/oshrun" --version 2>&1); then
    echo "$name: FAIL: the emulated $build/launcher/oshrun --version did not run: $out"
    exit 1
fi
echo "$name: emulated: $out"

t0=$(date +%s)
ctest --test-dir "$build" -R "$regex" --output-on-failure --no-tests=error \
      -j "$(nproc 2>/dev/null || echo 2)"
rc=$?
echo "$name: run: $(($(date +%s) - t0)) s"
exit $rc
