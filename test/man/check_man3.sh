#!/bin/sh
# check_man3.sh CHECK BUILD_DIR WORK_DIR MANDIR LIBDIR CC SHMEM_F90 CMAKE
#
# The section-3 pages (docs/man/man3/, written by docs/man/man3gen.c), as
# `cmake --install` puts them into WORK_DIR/prefix. CHECK is one of:
#
#  names     every routine has a page: `man -M <prefix>/MANDIR -w -s 3 NAME`
#            finds one for every function <shmem.h> declares (the installed
#            header through CC -E -P), every function-like shmem_* macro it
#            defines (the C11 generic routines, CC -dM -E), every function
#            the installed libushmem.so exports (nm -D) but the p-prefixed
#            profiling twins, ush_* internals, shmemx_* and the
#            underscore-mangled Fortran names, and every routine of the
#            shmem module (SHMEM_F90, without its _scalar twins; none when
#            the build has no such file). The names are read here, apart
#            from the generator, so that neither can hide a name from the
#            other. Prints the missing names and their count.
#  render    every page renders with no warning: groff -man -Tutf8 -ww -z
#            and man --warnings -l print nothing; no @MARKER@ is left and
#            every alias link leads to a page.
#  sections  every page has NAME, SYNOPSIS, DESCRIPTION, ERRORS,
#            ENVIRONMENT, EXAMPLE and SEE ALSO, and every `.BR name (3)` of
#            its SEE ALSO names an installed page.
#
# Exit 77 (skipped) without groff, or for `names` without man (man-db):
# `make check` installs both.

check=$1 build=$2 work=$3 mandir=$4 libdir=$5 cc=$6 f90=$7 cmake=${8:-cmake}
. "$(dirname "$0")/lib.sh"
need_groff
if ! command -v man >/dev/null 2>&1; then
    echo "SKIP: no man (apt-get install man-db)"
    exit 77
fi

install_into "$build" "$work" "$cmake"
man=$prefix/$mandir
[ -d "$man/man3" ] || { echo "FAIL: no $mandir/man3 installed"; exit 1; }

# The pages themselves (regular files), and the aliases (links).
pages=$(find "$man/man3" -name '*.3' -type f | sort)
npages=$(echo "$pages" | grep -c .)
naliases=$(find "$man/man3" -name '*.3' -type l | wc -l)
echo "$mandir/man3: $npages pages, $naliases aliases"

case $check in
names)
    printf '#include <shmem.h>\n' >"$work/h.c"
    "$cc" -E -P -I"$prefix/include" "$work/h.c" -o "$work/h.i" ||
        { echo "FAIL: $cc -E <shmem.h>"; exit 1; }
    "$cc" -dM -E -I"$prefix/include" "$work/h.c" -o "$work/macros.i" ||
        { echo "FAIL: $cc -dM -E <shmem.h>"; exit 1; }
    # Declarations: one per ';', attributes out, the identifier before the
    # first '(' of each that is not a typedef.
    tr '\n' ' ' <"$work/h.i" |
        sed -e 's/__attribute__ *(([^()]*\(([^()]*)[^()]*\)*))//g' | tr ';{}' '\n\n\n' |
        grep -v '^ *typedef' |
        sed -n 's/^[^(]*[^A-Za-z0-9_(]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' |
        grep -v '^__' | grep -v '^ush_' | sort -u >"$work/c-functions"
    sed -n 's/^#define \(shmem_[A-Za-z0-9_]*\)(.*/\1/p' "$work/macros.i" | sort -u >"$work/c-generic"
    lib=$(find "$prefix/$libdir" -name 'libushmem.so' | head -1)
    [ -n "$lib" ] || { echo "FAIL: no libushmem.so under $libdir"; exit 1; }
    nm -D --defined-only "$lib" | awk '$2 ~ /^[TWi]$/ {print $3}' | sed 's/@.*//' |
        sort -u >"$work/all-exports"
    # pX is a profiling twin where X is exported too.
    sed -n 's/^p//p' "$work/all-exports" | sort | comm -12 - "$work/all-exports" |
        sed 's/^/p/' >"$work/twins"
    comm -23 "$work/all-exports" "$work/twins" | grep -v '^ush_' | grep -v '^shmemx_' |
        grep -v '_$' >"$work/exports"
    : >"$work/fortran"
    if [ -f "$f90" ]; then
        sed -n 's/^ *\(subroutine\|function\) \([a-z0-9_]*\).*/\2/p' "$f90" |
            grep -v '_scalar$' | sort -u >"$work/fortran"
    fi
    for l in c-functions c-generic exports fortran; do
        echo "$l: $(grep -c . "$work/$l") names"
    done
    [ "$(grep -c . "$work/c-functions")" -ge 500 ] ||
        fail "found only $(grep -c . "$work/c-functions") functions in <shmem.h>: the reading above is broken"
    [ "$(grep -c . "$work/c-generic")" -ge 20 ] ||
        fail "found only $(grep -c . "$work/c-generic") generic macros in <shmem.h>"
    [ "$(grep -c . "$work/exports")" -ge 500 ] || fail "found only $(grep -c . "$work/exports") exports in $lib"
    sort -u "$work/c-functions" "$work/c-generic" "$work/exports" "$work/fortran" >"$work/names"
    # One man for many names: it says which it has no page for.
    LC_ALL=C xargs man -M "$man" -w -s 3 <"$work/names" >"$work/found" 2>"$work/man.err"
    sed -n 's/^No manual entry for \([^ ]*\).*/\1/p' "$work/man.err" | sort -u >"$work/missing"
    if grep -v '^No manual entry for ' "$work/man.err" | grep .; then
        fail "man -w said more than 'No manual entry'"
    fi
    n=$(grep -c . "$work/names")
    nmissing=$(grep -c . "$work/missing")
    if [ "$nmissing" -ne 0 ]; then
        echo "Names without a page:"
        for l in c-functions c-generic exports fortran; do
            m=$(comm -12 "$work/missing" "$work/$l" | tr '\n' ' ')
            [ -z "$m" ] || echo "$l: $m" | fold -s -w 100 | sed 's/^/  /'
        done
        fail "$nmissing of $n names have no page (man -w -s 3 NAME)"
    else
        echo "all $n names have a page"
    fi
    ;;
render)
    for f in $pages; do
        p=$(basename "$f")
        grep -n '@[A-Z_]*@' "$f" && fail "$p has a marker left"
        warn=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$f" 2>&1)
        [ -z "$warn" ] || fail "$p: groff -ww warns:
$warn"
        warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$f" 2>&1 >/dev/null)
        [ -z "$warn" ] || fail "$p: man --warnings:
$warn"
    done
    for l in $(find "$man/man3" -name '*.3' -type l); do
        [ -f "$l" ] || fail "$(basename "$l") links to $(readlink "$l"), which is no page"
    done
    ;;
sections)
    for f in $pages; do
        p=$(basename "$f")
        sed -n 's/^\.SH  *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$f" >"$work/sh"
        for s in NAME SYNOPSIS DESCRIPTION ERRORS ENVIRONMENT EXAMPLE "SEE ALSO"; do
            grep -qx "$s" "$work/sh" || fail "$p has no $s section"
        done
        for ref in $(sed -n '/^\.SH  *"\{0,1\}SEE ALSO/,/^\.SH/p' "$f" |
                     sed -n 's/^\.BR  *\([A-Za-z0-9_]*\)  *(3).*/\1/p'); do
            [ -e "$man/man3/$ref.3" ] || fail "$p: SEE ALSO $ref(3), which has no page"
        done
    done
    ;;
*)
    echo "usage: check_man3.sh names|render|sections ..."
    exit 2
    ;;
esac

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "PASS: section-3 pages: $check"
