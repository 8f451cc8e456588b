#!/bin/sh
# Every routine of OpenSHMEM 1.4's Fortran interface links, under every
# name a compiler may use (the Fortran counterpart of api-coverage).
#
#   all-names.sh TSV OSHFORT OSHRUN LIBUSHMEM WORKDIR
#
# 1. From TSV (test/headers/openshmem-1.4-fortran.tsv, the 171 names),
#    writes a fixed-form program that takes the address of every routine
#    (LOC), builds it with OSHFORT and runs it on 1, 3 and 8 PEs: a
#    missing routine is a link error naming it.
# 2. In LIBUSHMEM's dynamic symbols, each name must exist as name_
#    (gfortran), name__ (g77, -fsecond-underscore) and name (xlf, Cray;
#    C's routine where C has that name), and as pname_ and pname__ for
#    profiling.
set -u
tsv=$1 oshfort=$2 oshrun=$3 lib=$4 work=$5
# relative paths still mean the caller's directory after the cd below
case $oshfort in */*) oshfort=$(cd "$(dirname "$oshfort")" && pwd)/$(basename "$oshfort") ;; esac
case $oshrun in */*) oshrun=$(cd "$(dirname "$oshrun")" && pwd)/$(basename "$oshrun") ;; esac
mkdir -p "$work" || exit 1
cd "$work" || exit 1
fail=0

names=$(grep -v '^#' "$tsv" | cut -f1 | grep .)
count=$(echo "$names" | wc -l)
if [ "$count" -ne 171 ]; then
    echo "FAIL: $tsv lists $count names, not 171"
    exit 1
fi

# shmem.fh declares SHMEM_PTR EXTERNAL already; a second EXTERNAL
# would be an error, so only the others get one here.
fh=$("$oshfort" --showme:compile | tr ' ' '\n' | sed -n 's/^-I//p' |
     while read -r d; do [ -f "$d/mpp/shmem.fh" ] && echo "$d/mpp/shmem.fh"; done | head -1)
if [ -z "$fh" ]; then
    echo "FAIL: no mpp/shmem.fh on oshfort's include path"
    exit 1
fi
declared=$(sed -n 's/^ *EXTERNAL //p' "$fh" | tr ',' '\n' | tr -d ' ')

{
    echo "      PROGRAM ALLNAMES"
    echo "      INCLUDE 'mpp/shmem.fh'"
    echo "      INTEGER*8 A($count)"
    echo "      INTEGER I, N"
    echo "      INTEGER SHMEM_MY_PE, SHMEM_N_PES"
    for n in $names; do
        echo "$declared" | grep -qx "$n" || echo "      EXTERNAL $n"
    done
    i=0
    for n in $names; do
        i=$((i + 1))
        echo "      A($i) = LOC($n)"
    done
    echo "      CALL SHMEM_INIT()"
    echo "      N = 0"
    echo "      DO I = 1, $count"
    echo "         IF (A(I) .NE. 0) N = N + 1"
    echo "      END DO"
    echo "      IF (N .NE. $count) THEN"
    echo "         PRINT *, 'PE ', SHMEM_MY_PE(), ': linked: expected $count, got ', N"
    echo "         CALL SHMEM_GLOBAL_EXIT(1)"
    echo "      END IF"
    echo "      CALL SHMEM_BARRIER_ALL()"
    echo "      IF (SHMEM_MY_PE() .EQ. 0) PRINT '(A,I0,A,I0,A)',"
    echo "     &     'linked ', N, ' routines; all checks passed on ',"
    echo "     &     SHMEM_N_PES(), ' PEs'"
    echo "      CALL SHMEM_FINALIZE()"
    echo "      END"
} > all_names.f

if ! "$oshfort" -ffixed-line-length-none all_names.f -o all_names 2> link.err; then
    missing=$(grep -o "undefined reference to \`[^']*'" link.err | sed "s/.*\`//; s/'//" | sort -u)
    echo "FAIL: all_names.f does not build; undefined: $(echo $missing)"
    head -20 link.err
    fail=1
else
    for np in 1 3 8; do
        out=$(timeout 60 "$oshrun" --bind-to none -n "$np" ./all_names 2>&1)
        if echo "$out" | grep -qx "linked $count routines; all checks passed on $np PEs"; then
            echo "ok: all $count routines linked, the program ran on $np PEs"
        else
            echo "FAIL: on $np PEs: $out"
            fail=1
        fi
    done
fi

syms=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
missing=
for n in $names; do
    l=$(echo "$n" | tr 'A-Z' 'a-z')
    for s in "${l}_" "${l}__" "p${l}_" "p${l}__" "$l"; do
        echo "$syms" | grep -qx "$s" || missing="$missing $s"
    done
done
if [ -n "$missing" ]; then
    echo "FAIL: symbols missing from $lib:$missing"
    fail=1
else
    echo "ok: every name as name_, name__, pname_, pname__ and bare"
fi
exit $fail
