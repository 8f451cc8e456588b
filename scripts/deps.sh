#!/bin/sh
# deps.sh PACKAGE...: make sure these Debian packages are installed (the
# top-level Makefile's targets call it with their own lists).
#
# Missing packages are installed with apt-get, as root or through sudo.
# Where that is impossible (no apt-get, or neither root nor sudo) it names
# them with the apt-get line to run and fails. On a system without dpkg it
# checks nothing: CMake's configure step names any library it cannot find.

missing=
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "ushmem: no dpkg-query, so not a Debian system: package check skipped" \
         "(README.md, 'Other distributions')"
    exit 0
fi
for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -Eq "^(install|hold) ok installed" ||
        missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "ushmem: the Debian packages needed here are installed"
    exit 0
fi

sudo=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo=sudo
fi
if ! command -v apt-get >/dev/null 2>&1 || { [ "$(id -u)" -ne 0 ] && [ -z "$sudo" ]; }; then
    echo "ushmem: missing Debian packages:$missing" >&2
    echo "ushmem: install them as root:" \
         "apt-get install --no-install-recommends$missing" >&2
    echo "ushmem: (or run make with DEPS=no to skip this check)" >&2
    exit 1
fi
echo "ushmem: installing missing Debian packages:$missing"
# A list that fails to download (a mirror in the middle of a sync, often a
# foreign architecture's) makes apt-get update fail although the lists
# this install needs are there: the install then says what is missing.
$sudo apt-get update -qq ||
    echo "ushmem: apt-get update reported errors; installing with the lists it has" >&2
# $missing unquoted: one word per package.
$sudo env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends $missing
