#!/bin/sh
# envmodules-unpack.sh DIR: unpack Debian 12's environment-modules package
# into DIR, without installing it, for the modulefile test (test/modules/),
# which loads the installed modulefile with both environment-modules and
# Lmod. Prints the path of the unpacked modulecmd.tcl.
#
# Why unpacked: Debian's environment-modules and lmod packages conflict
# (both provide the `module` command), so one machine cannot have both.
# `make check` installs lmod (PKG_TEST in the Makefile) and this script
# unpacks the other; its modulecmd.tcl is a Tcl script that runs from
# anywhere under tclsh8.6 (package tcl8.6, in PKG_TEST too); the test
# hands it its optional Tcl extension library with MODULES_TCL_EXT_LIB.
#
# Idempotent: DIR/.done names the package version it holds. Needs apt-get
# and the Debian mirror; apt's package lists are updated first if they do
# not know the package and we are root. Without apt-get it prints
# $MODULES_CMD, the modulecmd.tcl of an environment-modules installed
# some other way (its shell initialisation sets it). Otherwise it fails,
# saying what is missing.
set -eu
dir=${1:?usage: envmodules-unpack.sh DIR}
pkg=environment-modules

found() {
    for f in "$dir"/usr/lib/*/modulecmd.tcl "$dir"/usr/lib/modulecmd.tcl; do
        if [ -f "$f" ]; then echo "$f"; return 0; fi
    done
    return 1
}
fail() {
    echo "envmodules-unpack.sh: $*" >&2
    echo "envmodules-unpack.sh: the modules test needs environment-modules' modulecmd.tcl:" \
         "on Debian it is unpacked from the $pkg package, which needs apt-get and" \
         "access to the Debian mirror; elsewhere install environment-modules (4.x or 5.x)" \
         "and run the tests with MODULES_CMD naming its modulecmd.tcl (as its" \
         "initialisation of a shell sets it)" >&2
    exit 1
}

# Not Debian: the environment-modules the shell was set up with, if any.
if ! command -v apt-get >/dev/null 2>&1; then
    if [ -n "${MODULES_CMD:-}" ] && [ -f "$MODULES_CMD" ]; then
        echo "$MODULES_CMD"
        exit 0
    fi
    fail "no apt-get here, and MODULES_CMD names no modulecmd.tcl"
fi
want=
if ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p') &&
   [ -n "$ver" ] && [ "$ver" != "(none)" ]; then
    want="$pkg $ver"
fi
if [ -n "$want" ] && [ -f "$dir/.done" ] && [ "$(cat "$dir/.done")" = "$want" ] && found; then
    exit 0
fi
if [ -z "$want" ]; then
    [ "$(id -u)" -eq 0 ] || fail "apt knows no $pkg package; as root: apt-get update"
    # A list that fails to download (a mirror in the middle of a sync)
    # leaves the old one or none: the check below then says so.
    apt-get update -qq >&2 || echo "envmodules-unpack.sh: apt-get update reported errors" >&2
    ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    { [ -n "$ver" ] && [ "$ver" != "(none)" ]; } || fail "apt knows no $pkg package, even after apt-get update"
    want="$pkg $ver"
fi

debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
# apt-get download runs as _apt when it can: give it a directory it may write.
chmod 777 "$debs"
# Lists older than the mirror name a version it no longer has: as root,
# update them and try once more.
if ! (cd "$debs" && apt-get download -q "$pkg" >&2); then
    [ "$(id -u)" -eq 0 ] || fail "apt-get download $pkg failed"
    apt-get update -qq >&2 || echo "envmodules-unpack.sh: apt-get update reported errors" >&2
    ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    want="$pkg $ver"
    (cd "$debs" && apt-get download -q "$pkg" >&2) || fail "apt-get download $pkg failed"
fi
rm -rf "$dir"
mkdir -p "$dir"
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$dir"; done
found >/dev/null || fail "the $pkg package holds no modulecmd.tcl"
echo "$want" > "$dir/.done"
found
