#!/bin/sh
# check_man3gen.sh MAN3GEN INPUT_DIR SHMEM_F90 WORK_DIR
#
# man3gen (docs/man/man3gen.c) on small page sets made here, with the
# build's own inputs (INPUT_DIR holds man3_decls.i, man3_macros.i and
# man3_hpvm.i): what it must refuse (a name matched by two pages, a
# pattern that matches nothing, malformed directives and markers), and
# what it must write (markers replaced, aliases as links, the unmatched
# names listed, the same output twice).

gen=$1 in=$2 f90=$3 work=$4
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rm -rf "$work"
mkdir -p "$work"

# page NAME DIRECTIVES...: a minimal page with those directive lines.
page() {
    name=$1
    shift
    for d in "$@"; do printf '%s\n' "$d"; done >"$work/src/$name.3.in"
    cat >>"$work/src/$name.3.in" <<'EOF'
.TH X 3 "@DATE@" "ushmem @VERSION@" "OpenSHMEM Library Functions"
.SH NAME
@NAMES@ \- test
.SH SYNOPSIS
@C_SYNOPSIS@
EOF
}

fortran=
[ -f "$f90" ] && fortran=--fortran=$f90
run() {
    "$gen" --out="$work/out" --version=9.9 --date=2000-01-02 --decls="$in/man3_decls.i" \
        --macros="$in/man3_macros.i" --hpvm="$in/man3_hpvm.i" $fortran \
        --unmatched="$work/unmatched" "$work/src" >"$work/log" 2>&1
}

# expect_fail WHAT MESSAGE-REGEX: man3gen fails on $work/src and says so.
expect_fail() {
    if run; then
        fail "$1: man3gen accepted it"
    elif ! grep -Eq "$2" "$work/log"; then
        fail "$1: the message does not match '$2':"
        cat "$work/log"
    else
        echo "ok    refuses $1: $(grep -E "$2" "$work/log" | head -1)"
    fi
    rm -rf "$work/src"
    mkdir -p "$work/src"
}

mkdir -p "$work/src"
page a '.\" ushmem-names: shmem_init'
page b '.\" ushmem-names: shmem_ini.'
expect_fail "a name on two pages" "shmem_init is matched by two pages"

page a '.\" ushmem-names: shmem_no_such_routine'
expect_fail "a pattern that matches nothing" "pattern 'shmem_no_such_routine' matches no C name"

page a '.\" ushmem-name: shmem_init'
expect_fail "an unknown directive" "malformed directive"

page a '.\" ushmem-names:'
expect_fail "a directive without patterns" "directive without patterns"

page a '.\" ushmem-names: shmem_(init'
expect_fail "an invalid expression" "not an extended regular expression"

printf '.TH X 3\n.\\" ushmem-names: shmem_init\n.SH NAME\n@NAMES@ \\- x\n' >"$work/src/a.3.in"
expect_fail "a directive below .TH" "directive below"

page a '.\" ushmem-names: shmem_init'
sed -i 's/@NAMES@/@NAME@/' "$work/src/a.3.in"
expect_fail "an unknown marker" "unknown marker @NAME@"

page a '.\" ushmem-names: shmem_init'
sed -i 's/^@NAMES@.*/shmem_init \\- x/' "$work/src/a.3.in"
expect_fail "a page without @NAMES@" "no @NAMES@"

page a '.\" ushmem-names: shmem_init'
sed -i '/^\.TH/d' "$work/src/a.3.in"
expect_fail "a page without .TH" "no \\.TH line"

page shmem_finalize '.\" ushmem-names: shmem_init'
page b '.\" ushmem-names: shmem_finalize'
expect_fail "a page named after another page's name" "also the page"

# A good set: two pages, one with a Fortran synopsis.
page shmem_put '.\" ushmem-names: shmem_put shmem_(ctx_)?long_put'
page shmem_init '.\" ushmem-names: shmem_init start_pes' '.\" ushmem-fortran: shmem_init start_pes'
printf 'Fortran:\n@F_SYNOPSIS@\n' >>"$work/src/shmem_init.3.in"
if ! run; then
    fail "man3gen refused a good set:"
    cat "$work/log"
else
    out=$work/out
    grep -q '^shmem_put, shmem_long_put, shmem_ctx_long_put \\- test$' "$out/shmem_put.3" ||
        fail "shmem_put.3's NAME line: $(sed -n '3p' "$out/shmem_put.3")"
    grep -q '^\.TH X 3 "2000-01-02" "ushmem 9.9"' "$out/shmem_put.3" || fail "@DATE@ or @VERSION@ not replaced"
    sed -n '2,3p' "$out/shmem_put.3" | tr '\n' ' ' | grep -qx '\.ad l \.nh ' ||
        fail "no .ad l and .nh after .TH"
    grep -q '^void \\fBshmem_long_put\\fP(long \*\\fIdest\\fP, const long \*\\fIsource\\fP,' "$out/shmem_put.3" ||
        fail "shmem_put.3 lacks shmem_long_put's prototype: $(grep long_put "$out/shmem_put.3")"
    grep -q '^void \\fBstart_pes\\fP(int \\fInpes\\fP);$' "$out/shmem_init.3" || fail "start_pes's prototype"
    if [ -n "$fortran" ]; then
        grep -q '^subroutine \\fBstart_pes\\fP(\\fInpes\\fP)$' "$out/shmem_init.3" ||
            fail "shmem_init.3 lacks start_pes's Fortran interface"
    fi
    [ "$(readlink "$out/shmem_ctx_long_put.3")" = shmem_put.3 ] || fail "shmem_ctx_long_put.3 is no link to shmem_put.3"
    [ "$(readlink "$out/start_pes.3")" = shmem_init.3 ] || fail "start_pes.3 is no link to shmem_init.3"
    [ ! -e "$out/shmem_put.3" ] || [ ! -L "$out/shmem_put.3" ] || fail "shmem_put.3 is a link"
    grep -q '^shmem_int_put C$' "$work/unmatched" || fail "shmem_int_put is not listed as unmatched"
    grep -q '^shmem_long_put ' "$work/unmatched" && fail "shmem_long_put is listed as unmatched"
    grep -q '^shmem_atomic_add C11$' "$work/unmatched" || fail "shmem_atomic_add is not listed as a C11 name"
    grep -q "^ushmem_hpvm_get C$" "$work/unmatched" || fail "the HPVM link names are not C names"
    echo "ok    writes pages, links and the unmatched list: $(cat "$work/log")"
    # Again, after a page went away: the same files, and nothing stale.
    (cd "$out" && ls -l | awk '{print $1, $NF}' && cat shmem_put.3 shmem_init.3) >"$work/first"
    touch "$out/stale.3"
    run || fail "second run"
    (cd "$out" && ls -l | awk '{print $1, $NF}' && cat shmem_put.3 shmem_init.3) >"$work/second"
    cmp -s "$work/first" "$work/second" || fail "a second run writes something else (or leaves stale.3)"
    rm "$work/src/shmem_put.3.in"
    run || fail "third run"
    [ -e "$out/shmem_long_put.3" ] && fail "a page's links outlive it"
    echo "ok    a second run writes the same; a removed page leaves nothing behind"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "PASS: man3gen"
