#!/usr/bin/env bash
# Compile-only checks of the public headers (no library, no processes):
#   1. every public header compiles alone as C99/C11/C17/gnu11 and C++11/17,
#      -Wall -Wextra -pedantic -Werror, with gcc and (if present) clang;
#   2. each C11 generic macro calls the typed routine its argument types
#      select (generic_dispatch.c, checked in the generated assembly);
#      and their type lists equal the type table's *_STD lists;
#   3. wrong argument types to a generic macro do not compile, while the same
#      call with a right type does;
#   4. the headers define no macro outside SHMEM_*, SHMEMX_*, _SHMEM_*,
#      USHMEM_*, ush_*, the spec's generic names and SOS's generic shmemx_
#      names (shmemx.h);
#   5. pshmem.h declares a p-twin for every routine shmem.h declares, and
#      shmem.h declares the spec's symbols (per group of the symbol table).
# Usage: check-headers.sh [include-dir]   (default: the directory above this
# script). Exit status 0 when every check passes. Needs no write access
# outside a private temporary directory.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
inc=${1:-$(cd "$here/../../include" && pwd)}
tsv=${USHMEM_SYMBOLS_TSV:-$here/openshmem-symbols.tsv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; fails=$((fails + 1)); }

ccs=(gcc)
cxxs=(g++)
command -v clang >/dev/null && ccs+=(clang)
command -v clang++ >/dev/null && cxxs+=(clang++)

# compiles NAME SOURCE "C-STDS" "C++-STDS": SOURCE (a .c file; its .cpp
# twin is made) compiles warning-free with every compiler in each standard.
compiles() {
    local name=$1 src=$2 cstds=$3 cxxstds=$4 cc cxx std out
    cp "$src" "${src%.c}.cpp"
    for cc in "${ccs[@]}"; do
        for std in $cstds; do
            if out=$("$cc" -std=$std -Wall -Wextra -pedantic -Werror -I"$inc" -fsyntax-only "$src" 2>&1); then
                pass "$name: $cc -std=$std"
            else
                fail "$name: $cc -std=$std"; printf '%s\n' "$out" | head -5
            fi
        done
    done
    for cxx in "${cxxs[@]}"; do
        for std in $cxxstds; do
            if out=$("$cxx" -std=$std -Wall -Wextra -pedantic -Werror -I"$inc" -fsyntax-only "${src%.c}.cpp" 2>&1); then
                pass "$name: $cxx -std=$std"
            else
                fail "$name: $cxx -std=$std"; printf '%s\n' "$out" | head -5
            fi
        done
    done
}

# ---- 1. headers compile alone -------------------------------------------
for h in shmem.h pshmem.h shmemx.h mpp/shmem.h mpp/shmemx.h; do
    printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/h.c"
    compiles "$h" "$tmp/h.c" "c99 c11 c17 gnu11" "c++11 c++17"
done

# ---- 1b. complex routines are callable from C99 and from C++ ------------------
# C spells the spec's types float/double _Complex; C++ reaches the same
# routines through ush_complexf_t/ush_complexd_t, layout-compatible with
# std::complex<T>.
cat >"$tmp/z.c" <<'EOF'
#include <shmem.h>
int f(double _Complex *z, float _Complex *w, double _Complex *wk, long *ps) {
    shmem_complexd_sum_to_all(z, z, 1, 0, 0, 2, wk, ps);
    return shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, z, z, 1) +
           shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, w, w, 1) +
           shmem_complexf_sum_exscan(SHMEM_TEAM_WORLD, w, w, 1);
}
EOF
cat >"$tmp/z.cpp" <<'EOF'
#include <complex>
#include <shmem.h>
int f(std::complex<double> *z, std::complex<float> *w) {
    ush_complexd_t *zd = reinterpret_cast<ush_complexd_t *>(z);
    return shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, zd, zd, 1) +
           shmem_complexf_sum_inscan(SHMEM_TEAM_WORLD, reinterpret_cast<ush_complexf_t *>(w),
                                     reinterpret_cast<const ush_complexf_t *>(w), 1);
}
EOF
zbad=0
for cc in "${ccs[@]}"; do
    for std in c99 c11; do
        "$cc" -std=$std -Wall -Wextra -pedantic -Werror -I"$inc" -fsyntax-only "$tmp/z.c" 2>"$tmp/z.err" ||
            { fail "complex routines ($cc -std=$std)"; head -5 "$tmp/z.err"; zbad=1; }
    done
done
for cxx in "${cxxs[@]}"; do
    "$cxx" -std=c++11 -Wall -Wextra -pedantic -Werror -I"$inc" -fsyntax-only "$tmp/z.cpp" 2>"$tmp/z.err" ||
        { fail "complex routines ($cxx -std=c++11)"; head -5 "$tmp/z.err"; zbad=1; }
done
[ $zbad -eq 0 ] && pass "complex routines callable: C99/C11 with _Complex, C++11 with std::complex"

# ---- 1c. the HPVM interface: alone it compiles; with shmem.h it does not --
# <ushmem/hpvm.h> declares shmem_get, shmem_put and shmem_broadcast with
# the seed page's arguments: a translation unit that also includes
# <shmem.h> (or <mpp/shmem.h>), in either order, must stop with the
# header's own message, not a pile of conflicting declarations.
printf '#include <ushmem/hpvm.h>\nint main(void) { long x[1] = {0}; shmem_get(x, x, 1, 0); return (int)shmem_swap(x, 1, 0); }\n' >"$tmp/hpvm.c"
compiles ushmem/hpvm.h "$tmp/hpvm.c" "c99 c11 gnu11" "c++11"
for pair in "ushmem/hpvm.h shmem.h" "shmem.h ushmem/hpvm.h" "mpp/shmem.h ushmem/hpvm.h" \
            "ushmem/hpvm.h mpp/shmem.h"; do
    set -- $pair
    printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' "$1" "$2" >"$tmp/mix.c"
    if out=$(gcc -std=c11 -I"$inc" -fsyntax-only "$tmp/mix.c" 2>&1); then
        fail "<$1> then <$2> compiled: mixing must be an error"
    elif printf '%s\n' "$out" | grep -q "include one of them in a translation unit"; then
        pass "<$1> then <$2>: a clear error"
    else
        fail "<$1> then <$2>: an error, but not the headers' own"; printf '%s\n' "$out" | head -5
    fi
done

# ---- 2. generic dispatch ----------------------------------------------------
for cc in "${ccs[@]}"; do
    if ! "$cc" -std=c11 -O0 -fno-pic -Wall -Wextra -Werror -I"$inc" -S -o "$tmp/d.s" \
            "$here/generic_dispatch.c" 2>"$tmp/d.err"; then
        fail "generic dispatch: $cc does not compile generic_dispatch.c"; head -20 "$tmp/d.err"
        continue
    fi
    # For each chk__SYM__VARIANT function: the routines it calls.
    result=$(awk '
        /^chk__[A-Za-z0-9_]*:/ { fn = $1; sub(/:$/, "", fn); nfn++; calls[fn] = ""; next }
        /^[A-Za-z_][A-Za-z0-9_.$]*:/ { fn = ""; next }
        fn != "" && ($1 == "call" || $1 == "callq") {
            t = $2; sub(/@PLT$/, "", t); sub(/^\*/, "", t)
            if (t ~ /^shmem_/) calls[fn] = calls[fn] " " t
        }
        END {
            bad = 0
            for (fn in calls) {
                want = fn; sub(/^chk__/, "", want); variant = want
                sub(/__[A-Za-z0-9]*$/, "", want); sub(/^.*__/, "", variant)
                n = split(calls[fn], c, " ")
                ok = n >= 1 && c[n] == want
                if (variant != "nested") for (i = 1; i <= n; i++) if (c[i] != want) ok = 0
                if (!ok) { print "  " fn " calls:" calls[fn]; bad++ }
            }
            print "checked " nfn " bad " bad
        }' "$tmp/d.s")
    summary=$(printf '%s\n' "$result" | tail -1)
    if printf '%s\n' "$summary" | grep -q ' bad 0$' && ! printf '%s\n' "$summary" | grep -q '^checked 0 '; then
        pass "generic dispatch ($cc): $summary"
    else
        fail "generic dispatch ($cc): $summary"; printf '%s\n' "$result" | head -20
    fi
done

# ---- 2b. the generics' type lists equal the table's *_STD lists --------------
pairs='USHMEM_RMA_TYPES_STD:USHMEM_C11_RMA_TYPES USHMEM_AMO_TYPES_STD:USHMEM_C11_AMO_TYPES
USHMEM_AMO_EXT_TYPES_STD:USHMEM_C11_AMO_EXT_TYPES USHMEM_AMO_BIT_TYPES_STD:USHMEM_C11_AMO_BIT_TYPES
USHMEM_P2P_TYPES_STD:USHMEM_C11_P2P_TYPES
USHMEM_REDUCE_BIT_TYPES_STD:USHMEM_C11_REDUCE_BIT_TYPES USHMEM_REDUCE_MINMAX_TYPES_STD:USHMEM_C11_REDUCE_MINMAX_TYPES
USHMEM_REDUCE_ARITH_TYPES_STD:USHMEM_C11_REDUCE_ARITH_TYPES
USHMEM_AMO_DEPR_TYPES:USHMEM_C11_AMO_DEPR_TYPES USHMEM_AMO_DEPR_EXT_TYPES:USHMEM_C11_AMO_DEPR_EXT_TYPES'
for pair in $pairs; do
    table=${pair%%:*} c11=${pair##*:}
    printf '#include <shmem.h>\n#define E_(T, N) [T|N]\nTABLE %s(E_)\nC11 %s(E_)\n' "$table" "$c11" >"$tmp/l.c"
    gcc -std=c11 -E -P -I"$inc" "$tmp/l.c" >"$tmp/l.i" 2>/dev/null
    a=$(sed -n 's/^TABLE //p' "$tmp/l.i") b=$(sed -n 's/^C11 //p' "$tmp/l.i")
    if [ -n "$a" ] && [ "$a" = "$b" ]; then
        pass "$c11 equals $table ($(printf '%s' "$a" | grep -o '\[' | wc -l) types)"
    else
        fail "$c11 differs from $table"; printf '  table: %s\n  c11:   %s\n' "$a" "$b"
    fi
done

# ---- 3. wrong types are compile errors ---------------------------------------
# Each case: a declaration line, the bad call, the good call (control).
neg=(
    'double *d;|shmem_atomic_add(d, 1.0, 0)|long *l = 0; shmem_atomic_add(l, 1L, 0)'
    'double *d;|shmem_atomic_add(SHMEM_CTX_DEFAULT, d, 1.0, 0)|long *l = 0; shmem_atomic_add(SHMEM_CTX_DEFAULT, l, 1L, 0)'
    'float *f;|(void)shmem_atomic_fetch_inc(f, 0)|int *i = 0; (void)shmem_atomic_fetch_inc(i, 0)'
    'short *s;|shmem_atomic_and(s, 1, 0)|unsigned *u = 0; shmem_atomic_and(u, 1u, 0)'
    'float *f;|shmem_atomic_or(SHMEM_CTX_DEFAULT, f, 1, 0)|unsigned long *u = 0; shmem_atomic_or(SHMEM_CTX_DEFAULT, u, 1ul, 0)'
    'const long *d; long s[2];|shmem_put(d, s, 2, 0)|long *e = 0; shmem_put(e, s, 2, 0)'
    'struct x { int a; } *p; struct x v;|shmem_p(p, v, 0)|int *q = 0; shmem_p(q, 1, 0)'
    'struct x { int a; } *p; long s[2];|shmem_get(SHMEM_CTX_DEFAULT, p, s, 2, 0)|long d[2]; shmem_get(SHMEM_CTX_DEFAULT, d, s, 2, 0)'
    'double *v;|shmem_wait_until(v, SHMEM_CMP_EQ, 1.0)|long *w = 0; shmem_wait_until(w, SHMEM_CMP_EQ, 1L)'
    'char *v;|(void)shmem_test(v, SHMEM_CMP_EQ, 1)|int *w = 0; (void)shmem_test(w, SHMEM_CMP_EQ, 1)'
    'long double *d; long double r;|r = shmem_atomic_swap(d, 1.0L, 0)|double *e = 0; double q = shmem_atomic_swap(e, 1.0, 0); (void)q'
    'char *i;|(void)shmem_and_reduce(SHMEM_TEAM_WORLD, i, i, 1)|unsigned *u = 0; (void)shmem_and_reduce(SHMEM_TEAM_WORLD, u, u, 1)'
    'double *d;|(void)shmem_xor_reduce(SHMEM_TEAM_WORLD, d, d, 1)|int64_t *e = 0; (void)shmem_xor_reduce(SHMEM_TEAM_WORLD, e, e, 1)'
    'double _Complex *z;|(void)shmem_max_reduce(SHMEM_TEAM_WORLD, z, z, 1)|double *e = 0; (void)shmem_max_reduce(SHMEM_TEAM_WORLD, e, e, 1)'
    'long double _Complex *z;|(void)shmem_sum_reduce(SHMEM_TEAM_WORLD, z, z, 1)|float _Complex *e = 0; (void)shmem_sum_reduce(SHMEM_TEAM_WORLD, e, e, 1)'
    'struct x { int a; } *p;|(void)shmem_broadcast(SHMEM_TEAM_WORLD, p, p, 1, 0)|long *q = 0; (void)shmem_broadcast(SHMEM_TEAM_WORLD, q, q, 1, 0)'
    '_Bool *b;|(void)shmem_sum_inscan(SHMEM_TEAM_WORLD, b, b, 1)|short *e = 0; (void)shmem_sum_inscan(SHMEM_TEAM_WORLD, e, e, 1)'
    'long *d;|(void)shmem_alltoalls(d, d, 1, 1, 1)|(void)shmem_alltoalls(SHMEM_TEAM_WORLD, d, d, 1, 1, 1)'
    'long *p;|shmem_sync(p)|(void)shmem_sync(SHMEM_TEAM_WORLD); shmem_sync(0, 0, 2, p)'
    'struct x { int a; } *p; uint64_t *g;|shmem_put_signal(p, p, 1, g, 1, SHMEM_SIGNAL_SET, 0)|long *q = 0; shmem_put_signal(q, q, 1, g, 1, SHMEM_SIGNAL_SET, 0)'
    'double *d; const double *s; uint64_t *g;|shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, s, d, 1, g, 1, SHMEM_SIGNAL_ADD, 0)|shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, d, s, 1, g, 1, SHMEM_SIGNAL_ADD, 0)'
)
for cc in "${ccs[@]}"; do
    nbad=0
    for case in "${neg[@]}"; do
        IFS='|' read -r decl bad good <<<"$case"
        printf '#include <shmem.h>\nvoid f(void) { %s %s; }\n' "$decl" "$bad" >"$tmp/n.c"
        printf '#include <shmem.h>\nvoid f(void) { %s %s; }\n' "$decl" "$good" >"$tmp/p.c"
        if "$cc" -std=c11 -w -I"$inc" -fsyntax-only "$tmp/n.c" 2>/dev/null; then
            fail "wrong type compiles ($cc): $bad"; nbad=$((nbad + 1))
        elif ! "$cc" -std=c11 -w -I"$inc" -fsyntax-only "$tmp/p.c" 2>"$tmp/p.err"; then
            fail "control does not compile ($cc): $good"; head -3 "$tmp/p.err"; nbad=$((nbad + 1))
        fi
    done
    [ $nbad -eq 0 ] && pass "wrong types rejected ($cc): ${#neg[@]} cases, each with a passing control"
done

# ---- 4. no stray macros ------------------------------------------------------------
printf '#include <stddef.h>\n#include <stdint.h>\n' >"$tmp/base.c"
printf '#include <stddef.h>\n#include <stdint.h>\n#include <pshmem.h>\n#include <shmemx.h>\n#include <mpp/shmem.h>\n#include <mpp/shmemx.h>\n' >"$tmp/all.c"
gcc -std=c11 -dM -E "$tmp/base.c" | awk '{print $2}' | sed 's/(.*//' | sort -u >"$tmp/m0"
gcc -std=c11 -dM -E -I"$inc" "$tmp/all.c" | awk '{print $2}' | sed 's/(.*//' | sort -u >"$tmp/m1"
stray=$(comm -13 "$tmp/m0" "$tmp/m1" | grep -Ev '^(SHMEM_|SHMEMX_|_SHMEM_|USHMEM_|ush_|USHMEM_SHMEM_H|USHMEM_PSHMEM_H)' |
        grep -Ev '^shmem_(put|get|p|g|iput|iget|ibput|ibget|put_nbi|get_nbi|put_signal(_nbi)?|signal_(add|set)|atomic_[a-z_]*|wait_until[a-z_]*|test[a-z_]*)$' |
        grep -Ev '^shmem_(broadcast|collect|fcollect|alltoalls?|(and|or|xor|max|min|sum|prod)_reduce|sum_(in|ex)scan|sync)$' |
        grep -Ev '^shmem_(swap|cswap|fadd|finc|add|inc|fetch|set)$' |
        grep -Ev '^shmemx_(ibput|ibget|put_signal(_nbi)?|signal_(add|set)|atomic_[a-z_]*_nbi|(wait_until|test)_(all|any|some)(_vector)?|sum_(in|ex)scan)$' |
        grep -Ev '^shmemx_((and|or|xor|max|min|sum|prod)_reduce|sync)$')
if [ -z "$stray" ]; then
    pass "no stray macros ($(comm -13 "$tmp/m0" "$tmp/m1" | wc -l) new macros, all prefixed or spec/SOS generics)"
else
    fail "stray macros:"; printf '  %s\n' $stray
fi

# ---- 5. declarations: p-twins, and the spec's symbols ---------------------------------
printf '#include <pshmem.h>\n' >"$tmp/decl.c"
if gcc -std=c11 -I"$inc" -aux-info "$tmp/aux" -fsyntax-only "$tmp/decl.c" 2>"$tmp/aux.err"; then
    # Declared function names from our headers only.
    grep -F "$inc/" "$tmp/aux" | sed -n 's/.*[ *]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' | sort -u >"$tmp/declared"
    grep -v '^p' "$tmp/declared" >"$tmp/public"
    missing_twins=$(while read -r s; do grep -qx "p$s" "$tmp/declared" || echo "$s"; done <"$tmp/public")
    if [ -z "$missing_twins" ]; then
        pass "pshmem.h: every one of $(wc -l <"$tmp/public") declared routines has its p-twin"
    else
        fail "routines without a p-twin:"; printf '  %s\n' $missing_twins | head -20
    fi
    if [ -r "$tsv" ]; then
        echo "      declarations per group of $(basename "$tsv") (declared / in the table):"
        awk -F'\t' 'NR == FNR { have[$1] = 1; next } /^#/ { next }
            { s = $2; sub(/\(.*\)$/, "", s); total[$1]++; if (s in have) got[$1]++ }
            END { for (g in total) printf "        %-34s %4d / %4d\n", g, got[g] + 0, total[g] }' \
            "$tmp/declared" "$tsv" | sort
    fi
else
    fail "gcc -aux-info failed"; head -5 "$tmp/aux.err"
fi

echo
if [ $fails -eq 0 ]; then echo "check-headers: all checks passed"; else echo "check-headers: $fails check(s) FAILED"; fi
[ $fails -eq 0 ]
