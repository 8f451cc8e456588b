#!/bin/sh
# check_module.sh SYSTEM BUILD_DIR WORK_DIR SOURCE_DIR VERSION EM_DIR
# (ctest modules.envmodules and modules.lmod)
#
# Installs the build into WORK_DIR/staged and moves it to WORK_DIR/prefix
# (the modulefile must follow a moved tree), then, in a clean environment
# (env -i: PATH=/usr/bin:/bin, nothing of ushmem's), with SYSTEM's module
# command (envmodules: environment-modules' modulecmd.tcl, unpacked into
# EM_DIR by scripts/envmodules-unpack.sh; lmod: Lmod's lmod, from its
# Debian package, or $LMOD_CMD):
#   module use WORK_DIR/prefix/share/modulefiles; module load ushmem
# and checks in that environment that its help and whatis work, that
# oshcc and oshrun are ours, that oshcc builds docs/examples/ring.c and
# `oshrun -n 2` runs it with the right output, that `man -w oshrun` and
# `pkg-config --modversion ushmem` find ours, that CMAKE_PREFIX_PATH names
# the prefix and LD_LIBRARY_PATH stays unset, that MANPATH keeps man's
# default path, that the load is refused while a module of another
# OpenSHMEM library is loaded, and that `module unload ushmem` restores
# the environment. Then the modulefile through a symbolic link (finds the
# moved prefix) and as a copy elsewhere (uses the prefix it was installed
# into). Any failure says what and exits 1.
set -u
sys=$1 build=$2 work=$3 src=$4 version=$5 emdir=$6

fail() { echo "modules.$sys: FAILED: $*" >&2; exit 1; }

case $sys in
    envmodules)
        modcmd=$(sh "$src/scripts/envmodules-unpack.sh" "$emdir") ||
            fail "no environment-modules (scripts/envmodules-unpack.sh said why, above)"
        tclsh=$(command -v tclsh8.6 || command -v tclsh) ||
            fail "no tclsh8.6 to run environment-modules' modulecmd.tcl: apt-get install tcl8.6" \
                 "(in the Makefile's PKG_TEST, which make check installs)"
        extlib=
        for f in "$(dirname "$modcmd")/libtclenvmodules.so" "$emdir"/usr/lib/*/libtclenvmodules.so; do
            [ -f "$f" ] && extlib=$f && break
        done
        module_cmd="$tclsh $modcmd" ;;
    lmod)
        lmod=${LMOD_CMD:-/usr/share/lmod/lmod/libexec/lmod}
        [ -x "$lmod" ] ||
            fail "no Lmod ($lmod): apt-get install lmod (in the Makefile's PKG_TEST," \
                 "which make check installs), or set LMOD_CMD to Lmod's libexec/lmod"
        extlib=
        module_cmd=$lmod ;;
    *) fail "unknown module system '$sys' (envmodules or lmod)" ;;
esac
command -v man >/dev/null 2>&1 ||
    fail "no man to look the man page up with: apt-get install man-db (in PKG_TEST)"
command -v pkg-config >/dev/null 2>&1 || fail "no pkg-config: apt-get install pkg-config"

rm -rf "$work"
mkdir -p "$work/home" "$work/run" "$work/other/sos" "$work/site/ushmem" "$work/linked/ushmem" ||
    fail "cannot make $work"
work=$(cd "$work" && pwd -P)
staged=$work/staged prefix=$work/prefix
out=$(${CMAKE:-cmake} --install "$build" --prefix "$staged" 2>&1) || fail "cmake --install failed:
$out"
mv "$staged" "$prefix" || fail "cannot move $staged to $prefix"
modfile=$prefix/share/modulefiles/ushmem/$version
[ -f "$modfile" ] || fail "not installed: share/modulefiles/ushmem/$version"
grep -q '@[A-Za-z_]*@' "$modfile" && fail "$modfile keeps an unconfigured @VARIABLE@"

# A module of another OpenSHMEM library, which ushmem's conflicts name.
printf '#%%Module1.0\nprepend-path PATH /nonexistent/sos/bin\n' > "$work/other/sos/1.0"
# The modulefile through a symbolic link, and a copy of it elsewhere.
ln -s "$modfile" "$work/linked/ushmem/$version"
cp "$modfile" "$work/site/ushmem/$version"

# What runs in the loaded environment: bash, as a user's login shell.
cat > "$work/in-module.sh" <<'EOF'
set -u
module() { eval "$($MODULE_CMD bash "$@")"; }
fail() { echo "modules.$SYS: FAILED: $*" >&2; exit 1; }
path0=$PATH

module use "$PREFIX/share/modulefiles"
# Its help and whatis lines (Tcl that a load does not run).
info=$(module help ushmem 2>&1; module whatis ushmem 2>&1)
case $info in
    *"ushmem $VERSION: "*"Version: $VERSION"*) ;;
    *) fail "module help and whatis ushmem print:
$info" ;;
esac
# With another OpenSHMEM library's module loaded, ushmem's is refused.
module use "$WORK/other"
module load sos
[ "${LOADEDMODULES:-}" = "sos/1.0" ] || fail "module load sos: LOADEDMODULES is '${LOADEDMODULES:-}'"
module load ushmem 2>/dev/null
case :${LOADEDMODULES:-}: in *:ushmem/*) fail "module load ushmem was not refused with sos loaded" ;; esac
[ "$(command -v oshrun)" != "$PREFIX/bin/oshrun" ] || fail "refused, but oshrun is on PATH"
module unload sos
module unuse "$WORK/other"

module load ushmem
[ "${LOADEDMODULES:-}" = "ushmem/$VERSION" ] ||
    fail "module load ushmem: LOADEDMODULES is '${LOADEDMODULES:-}', not ushmem/$VERSION"
for prog in oshcc oshc++ oshfort oshrun oshinfo; do
    [ "$(command -v $prog)" = "$PREFIX/bin/$prog" ] ||
        fail "$prog is '$(command -v $prog)', not $PREFIX/bin/$prog"
done
pcp=${PKG_CONFIG_PATH:-} cpp=${CMAKE_PREFIX_PATH:-}
[ "${pcp%%:*}" = "$PREFIX/$LIBDIR/pkgconfig" ] || fail "PKG_CONFIG_PATH is '$pcp'"
[ "${cpp%%:*}" = "$PREFIX" ] || fail "CMAKE_PREFIX_PATH is '$cpp'"
[ -z "${LD_LIBRARY_PATH+set}" ] || fail "LD_LIBRARY_PATH is set: '$LD_LIBRARY_PATH'"
# MANPATH was unset: ours first, then an empty element (man's own path).
case ${MANPATH:-} in
    "$PREFIX/share/man:"*) ;;
    *) fail "MANPATH is '${MANPATH:-}', not $PREFIX/share/man followed by an empty element" ;;
esac

cd "$WORK/run" || exit 1
oshcc "$SRC/docs/examples/ring.c" -o ring || fail "oshcc could not build docs/examples/ring.c"
got=$(oshrun -n 2 ./ring 2>&1) || fail "oshrun -n 2 ./ring exited $?:
$got"
want="PE 0 of 2: inbox holds 1 (from its left neighbour)
PE 1 of 2: inbox holds 0 (from its left neighbour)
PE 0: counter = 3 (1 + 2 + ... + 2 = 3)
ring: correct"
[ "$got" = "$want" ] || fail "oshrun -n 2 ./ring printed
$got
instead of
$want"
page=$(man -w oshrun 2>&1)
[ "$page" = "$PREFIX/share/man/man1/oshrun.1" ] || fail "man -w oshrun gives '$page'"
pcv=$(pkg-config --modversion ushmem 2>&1)
[ "$pcv" = "$VERSION" ] || fail "pkg-config --modversion ushmem gives '$pcv', not $VERSION"

module unload ushmem
[ -z "${LOADEDMODULES:-}" ] || fail "after module unload, LOADEDMODULES is '$LOADEDMODULES'"
[ "$PATH" = "$path0" ] || fail "after module unload, PATH is '$PATH', not '$path0'"
for v in MANPATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH; do
    eval "val=\${$v+set:\$$v}"
    [ -z "$val" ] || fail "after module unload, $v is still ${val#set:}"
done
module unuse "$PREFIX/share/modulefiles"

# Through a symbolic link the moved prefix is still found; a copy kept
# elsewhere uses the prefix it was installed into.
module use "$WORK/linked"
module load ushmem
[ "$(command -v oshrun)" = "$PREFIX/bin/oshrun" ] ||
    fail "through a symbolic link: oshrun is '$(command -v oshrun)', not $PREFIX/bin/oshrun"
module unload ushmem
module unuse "$WORK/linked"
module use "$WORK/site"
module load ushmem
case :$PATH: in
    *:"$STAGED/bin":*) ;;
    *) fail "a copy of the modulefile: PATH '$PATH' lacks $STAGED/bin, the prefix installed into" ;;
esac
module unload ushmem
echo "modules.$SYS: module load ushmem: oshcc, oshrun -n 2, man -w, pkg-config, conflict, unload: OK"
EOF

libdir=$(sed -n 's|^libdir=\${prefix}/||p' "$prefix"/lib*/pkgconfig/ushmem.pc "$prefix"/lib/*/pkgconfig/ushmem.pc 2>/dev/null | head -n 1)
[ -n "$libdir" ] || fail "no ushmem.pc with a libdir under \${prefix} in $prefix"

# Only what a fresh login has: no ushmem paths, no module system state.
set -- env -i HOME="$work/home" USER="$(id -un)" LOGNAME="$(id -un)" PATH=/usr/bin:/bin \
    LANG=C.UTF-8 SYS="$sys" MODULE_CMD="$module_cmd" PREFIX="$prefix" STAGED="$staged" \
    WORK="$work" SRC="$src" VERSION="$version" LIBDIR="$libdir"
[ -n "$extlib" ] && set -- "$@" MODULES_TCL_EXT_LIB="$extlib"
"$@" bash "$work/in-module.sh" || exit 1
