#!/usr/bin/env bash
# Every shmemx_ routine <shmemx.h> declares is exported by the library, and
# every one that is an alias is the standard routine's own code:
#   1. the names: every function <shmemx.h> declares (gcc -aux-info, so a
#      name added to the header by any means counts), and the suffixes of its
#      alias lists (USHMEM_X_LIST_ALL expanded by the preprocessor);
#   2. a program that takes the address of every declared name links against
#      the library (an undefined one is a link error);
#   3. each declared name is a defined function symbol of the library, and
#      the library exports no shmemx_ name the header does not declare;
#   4. each alias shmemx_S has the address of pshmem_S: the same code, not a
#      look-alike.
# Usage: check-shmemx-symbols.sh <include-dir> <libushmem.so> [<libushmem.a>]
# Exit status 0 when every check passes.
set -u
inc=$1 lib=$2 archive=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; fails=$((fails + 1)); }

# ---- 1. the names -------------------------------------------------------------
printf '#include <shmemx.h>\n' >"$tmp/decl.c"
if ! gcc -std=c11 -I"$inc" -aux-info "$tmp/aux" -fsyntax-only "$tmp/decl.c" 2>"$tmp/aux.err"; then
    fail "gcc -aux-info on shmemx.h"; head -5 "$tmp/aux.err"; exit 1
fi
grep -F "$inc/" "$tmp/aux" | sed -n 's/.*[ *]\(shmemx_[A-Za-z0-9_]*\) *(.*/\1/p' | sort -u >"$tmp/declared"
printf '#include <shmemx.h>\n#define USHMEM_X_ALIAS(S) @S@\nUSHMEM_X_LIST_ALL\n' >"$tmp/list.c"
gcc -std=c11 -E -P -I"$inc" "$tmp/list.c" | grep -o '@[A-Za-z0-9_]*@' | tr -d @ | sort -u >"$tmp/aliases"
ndecl=$(wc -l <"$tmp/declared") nalias=$(wc -l <"$tmp/aliases")
if [ "$ndecl" -gt 0 ] && [ "$nalias" -gt 0 ]; then
    pass "shmemx.h declares $ndecl shmemx_ routines, $nalias of them from its alias lists"
else
    fail "no shmemx_ declarations ($ndecl) or aliases ($nalias) found"; exit 1
fi
undeclared=$(sed 's/^/shmemx_/' "$tmp/aliases" | comm -23 - "$tmp/declared")
[ -z "$undeclared" ] || { fail "alias list names not declared:"; printf '  %s\n' $undeclared | head; }

# ---- 2. a program referencing every name links ----------------------------------
{
    printf '#include <shmemx.h>\n#include <stdio.h>\ntypedef void (*fn_t)(void);\n'
    printf 'static const fn_t names[] = {\n'
    # The parentheses keep shmemx_signal_set & co. from expanding as generics.
    sed 's/.*/    (fn_t)(\&(&)),/' "$tmp/declared"
    printf '};\nint main(void) { printf("%%zu\\n", sizeof(names) / sizeof(names[0])); return 0; }\n'
} >"$tmp/refs.c"
if gcc -std=c11 -Wall -Wextra -Werror -I"$inc" -o "$tmp/refs" "$tmp/refs.c" "$lib" 2>"$tmp/refs.err"; then
    pass "a program taking the address of all $ndecl names links against $(basename "$lib")"
else
    fail "a program referencing every shmemx_ name does not link:"
    grep -o "undefined reference to \`[^']*'" "$tmp/refs.err" | sort -u | head -20
    grep -v "undefined reference" "$tmp/refs.err" | head -5
fi

# ---- 3. exported, and nothing exported undeclared ------------------------------------
check_exports() { # <library> <nm options...>
    local l=$1; shift
    nm "$@" --defined-only "$l" 2>/dev/null | awk '$2 ~ /^[TWi]$/ && $3 ~ /^shmemx_/ { print $3 }' |
        sort -u >"$tmp/exported"
    local missing extra
    missing=$(comm -23 "$tmp/declared" "$tmp/exported")
    extra=$(comm -13 "$tmp/declared" "$tmp/exported")
    if [ -z "$missing" ] && [ -z "$extra" ]; then
        pass "$(basename "$l") exports exactly the $ndecl declared shmemx_ routines"
    else
        if [ -n "$missing" ]; then
            fail "$(basename "$l") lacks $(printf '%s\n' $missing | wc -l) declared names:"
            printf '  %s\n' $missing | head -20
        fi
        if [ -n "$extra" ]; then
            fail "$(basename "$l") exports shmemx_ names shmemx.h does not declare:"
            printf '  %s\n' $extra | head -20
        fi
    fi
}
check_exports "$lib" -D
[ -n "$archive" ] && check_exports "$archive"

# ---- 4. aliases are the standard routine's code -------------------------------------------
nm -D --defined-only "$lib" | awk '{ print $3, $1 }' >"$tmp/addr"
notsame=$(awk 'NR == FNR { addr[$1] = $2; next }
    { a = addr["shmemx_" $1]; b = addr["pshmem_" $1]
      if (a == "" || a != b) printf "shmemx_%s (%s) vs pshmem_%s (%s)\n", $1, a, $1, b }' \
    "$tmp/addr" "$tmp/aliases")
if [ -z "$notsame" ]; then
    pass "each of the $nalias aliases shmemx_S is pshmem_S's code (same address)"
else
    fail "aliases that are not pshmem_S:"; printf '%s\n' "$notsame" | head -20
fi

echo
if [ $fails -eq 0 ]; then
    echo "check-shmemx-symbols: all checks passed"
else
    echo "check-shmemx-symbols: $fails check(s) FAILED"
fi
[ $fails -eq 0 ]
