#!/bin/sh
# check_man.sh BUILD_DIR WORK_DIR BINDIR MANDIR SOURCE_DIR CMAKE
#
# Installs the build into WORK_DIR/prefix, then checks the man pages there:
#  * each of oshrun.1, oshcc.1, oshc++.1, oshfort.1, oshinfo.1 and ushmem.7 is
#    installed, configured (no @VAR@ left) and renders with groff -ww (every
#    warning on) without a warning; with `man --warnings` too where man-db
#    is installed, which also finds them by name through -M;
#  * every option `oshrun --help` and `oshinfo --help` list (read now, from
#    the installed programs, so new options are checked as they come) is in
#    its page, and so are the environment variables --help names;
#  * oshcc.1 has each --showme option and USHMEM_CC / USHMEM_CXX / USHMEM_FC the
#    installed wrappers read;
#  * ushmem.7 names every variable of the library's table (core/ush_env.h).
# Exit 77 (skipped) without groff: `make check` installs it (groff-base).

build=$1 work=$2 bindir=$3 mandir=$4 src=$5 cmake=${6:-cmake}
. "$(dirname "$0")/lib.sh"
need_groff

install_into "$build" "$work" "$cmake"
man=$prefix/$mandir

# Plain text of a page: ASCII, no bold or underline, no line-length breaks
# in the middle of an option.
render() {
    LC_ALL=C groff -man -Tascii -P-c -P-b -P-u -P-o "$1" 2>/dev/null
}
# Is word $2 (an option or variable) in the text of file $1, on its own?
has_word() {
    grep -Eq -- "(^|[^-A-Za-z0-9_])$(printf '%s' "$2" | sed 's/[][\.*^$+?(){}|]/\\&/g')([^-A-Za-z0-9_]|\$)" "$1"
}

for page in man1/oshrun.1 man1/oshcc.1 man1/oshc++.1 man1/oshfort.1 man1/oshinfo.1 man7/ushmem.7; do
    f=$man/$page
    if [ ! -f "$f" ]; then
        fail "$page is not installed under $mandir"
        continue
    fi
    if grep -n '@[A-Za-z_]*@' "$f"; then
        fail "$page has unconfigured @VARIABLES@"
    fi
    for dev in ascii utf8; do
        warn=$(LC_ALL=C.UTF-8 groff -man -T$dev -ww -z "$f" 2>&1)
        [ -z "$warn" ] || fail "$page: groff -T$dev -ww warns:
$warn"
    done
    render "$f" >"$work/$(basename "$page").txt"
    [ -s "$work/$(basename "$page").txt" ] || fail "$page renders as nothing"
    if command -v man >/dev/null 2>&1; then
        name=$(basename "$page"); sec=${name##*.}; name=${name%.*}
        warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -M "$man" "$sec" "$name" 2>&1 >/dev/null)
        [ -z "$warn" ] || fail "man --warnings $sec $name:
$warn"
        MANWIDTH=80 LC_ALL=C man -M "$man" "$sec" "$name" 2>/dev/null |
            grep -q "^NAME" || fail "man -M $mandir $sec $name finds no page"
    fi
done

# Options of a --help text: the words starting with '-' in the option
# column of lines that start with two spaces and a dash.
help_options() {
    sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/   .*//' |
        grep -oE -- '(^|[ ,])--?[A-Za-z][-A-Za-z0-9]*' | sed 's/^[ ,]*//' | sort -u
}
check_help() {
    prog=$1 page=$2
    "$prefix/$bindir/$prog" --help >"$work/$prog.help" 2>&1 ||
        fail "$prog --help exited $?"
    opts=$(help_options <"$work/$prog.help")
    [ "$(echo "$opts" | wc -w)" -ge 5 ] || fail "$prog --help: found only '$opts': its format changed"
    n=0
    for o in $opts; do
        n=$((n + 1))
        has_word "$work/$page.txt" "$o" || fail "$page lacks option $o (listed by $prog --help)"
    done
    echo "$page: $n options of $prog --help: $(echo $opts)"
}
check_help oshrun oshrun.1
check_help oshinfo oshinfo.1

# Environment variables oshrun --help names (from "Environment" on).
vars=$(sed -n '/^Environment/,$p' "$work/oshrun.help" | grep -oE '\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b' |
       grep -v '^PMIX_$' | sort -u)
[ -n "$vars" ] || fail "oshrun --help names no environment variable: its format changed"
for v in $vars; do
    has_word "$work/oshrun.1.txt" "$v" || fail "oshrun.1 lacks $v (named by oshrun --help)"
done
echo "oshrun.1: environment $(echo $vars)"

# The wrappers: their --showme options and the compiler variables.
for w in oshcc oshc++ oshfort; do
    for o in $(grep -oE '^ *--showme(:[a-z]+)?\)' "$prefix/$bindir/$w" | tr -d ' )'); do
        has_word "$work/oshcc.1.txt" "$o" || fail "oshcc.1 lacks $o (an option of $w)"
    done
    for v in $(grep -oE 'USHMEM_[A-Z]+' "$prefix/$bindir/$w" | sort -u); do
        has_word "$work/oshcc.1.txt" "$v" || fail "oshcc.1 lacks $v (read by $w)"
    done
done
has_word "$work/oshc++.1.txt" "oshc++" || fail "oshc++.1 does not describe oshc++"
has_word "$work/oshfort.1.txt" "oshfort" || fail "oshfort.1 does not describe oshfort"

# The library's variables, from its table.
n=0
for v in $(sed -n '/#define USH_ENV_TABLE/,/^$/p' "$src/core/ush_env.h" |
           sed -n 's/.*X(\([a-z_]*\), *\([A-Z_]*\),.*/SHMEM_\2/p'); do
    n=$((n + 1))
    has_word "$work/ushmem.7.txt" "$v" || fail "ushmem.7 lacks $v (core/ush_env.h)"
done
[ "$n" -ge 3 ] || fail "found only $n variables in core/ush_env.h: the table format changed"
echo "ushmem.7: $n variables of core/ush_env.h"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "PASS: man pages installed, render without warnings, cover the options"
