#!/bin/sh
# Each mistake of errors.f ends the job with status 1 and one line that
# names the Fortran routine, as C's messages name the C routine.
#   errors.sh OSHRUN PROGRAM
set -u
oshrun=$1 prog=$2
fail=0
check() { # case expected-regex [oshrun options]
    c=$1 re=$2
    shift 2
    out=$(timeout 60 "$oshrun" --bind-to none "$@" -n 2 "$prog" "$c" 2>&1)
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL: $c: exit status $rc, expected 1: $out"; fail=1
    elif ! echo "$out" | grep -Eq "$re"; then
        echo "FAIL: $c: no line matching '$re' in: $out"; fail=1
    else
        echo "ok: $c: $(echo "$out" | grep -Em1 "$re")"
    fi
}
check pe       '^ushmem: PE [0-9]+: SHMEM_PUT8 \(Fortran; runs shmem_put64\): pe [0-9]+ is out of range'
check nelems   '^ushmem: PE [0-9]+: SHMEM_INTEGER_PUT: nelems is -3; it must not be negative'
check nonsymm  '^ushmem: PE [0-9]+: SHMEM_GET4 \(Fortran; runs shmem_get32\): source'
check root     '^ushmem: PE [0-9]+: SHMEM_BROADCAST8 \(Fortran; runs shmem_broadcast64\): PE_root 5 is out of range'
check shpalloc '^ushmem: PE [0-9]+: SHPALLOC: length is 0; it counts 32-bit words and must be greater than 0 \(error -1\)'
check unlock   '^ushmem: PE [0-9]+: SHMEM_CLEAR_LOCK: lock .* is not held'
# SHMEM_DEBUG's pSync check counts Fortran's elements, from 1
check dirty    '^ushmem: PE 1: SHMEM_BARRIER \(Fortran; runs shmem_barrier\): pSync\(4\) is 42, not SHMEM_SYNC_VALUE' -x SHMEM_DEBUG=1
exit $fail
