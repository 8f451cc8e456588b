#!/bin/sh
# Wrong calls do not compile against the shmem module: each program below
# makes one mistake (a missing argument, an INTEGER*8 where the routine
# takes INTEGER*4, a REAL pSync, ...) and must fail to build with
# `use shmem`, while the same program with the mistake fixed builds. The
# same mistakes compile silently with INCLUDE 'shmem.fh' (no interfaces),
# which is what the module is for. Also: the module has an interface for
# each of the 171 names of TSV.
#
#   module-rejects.sh OSHFORT WORKDIR TSV MODULE_SOURCE
set -u
oshfort=$1 work=$2 tsv=$3 modsrc=$4
mkdir -p "$work" && cd "$work" || exit 1
fail=0

# name|declarations|wrong statement|right statement
cases='missing argument|integer(c_int64_t) :: a(4), b(4)|call shmem_put8(a, b, 4)|call shmem_put8(a, b, 4, 0)
extra argument|integer(c_int64_t) :: a(4), b(4)|call shmem_put8(a, b, 4, 0, 1)|call shmem_put8(a, b, 4, 0)
INTEGER*8 count|integer(c_int64_t) :: a(4), b(4), n = 4|call shmem_put8(a, b, n, 0)|call shmem_put8(a, b, int(n), 0)
INTEGER*8 to an INT4 atomic|integer(c_int64_t) :: c|call shmem_int4_add(c, 1, 0)|call shmem_int8_add(c, 1_8, 0)
INTEGER*4 value to an INT8 atomic|integer(c_int64_t) :: c|call shmem_int8_add(c, 1, 0)|call shmem_int8_add(c, 1_8, 0)
REAL*4 to a REAL8 reduction|real :: x(2), y(2), w(16); integer :: ps(4)|call shmem_real8_sum_to_all(y, x, 2, 0, 0, 1, w, ps)|call shmem_real4_sum_to_all(y, x, 2, 0, 0, 1, w, ps)
REAL pSync|real(c_double) :: x(2), y(2), w(16); real :: ps(4)|call shmem_real8_max_to_all(y, x, 2, 0, 0, 1, w, ps)|call shmem_real8_max_to_all(y, x, 2, 0, 0, 1, w, int(ps))
INTEGER*8 pSync|integer(c_int64_t) :: a(4), b(4), ps(4)|call shmem_broadcast8(a, b, 4, 0, 0, 0, 1, ps)|call shmem_broadcast8(a, b, 4, 0, 0, 0, 1, int(ps))
INTEGER*8 lock|integer(c_int64_t) :: l|call shmem_set_lock(l)|call shmem_set_lock(int(l))
function called as a subroutine|integer :: i|call shmem_my_pe()|i = shmem_my_pe()
INTEGER*4 cond to an INT8 cswap|integer(c_int64_t) :: c, r|r = shmem_int8_cswap(c, 1, 2_8, 0)|r = shmem_int8_cswap(c, 1_8, 2_8, 0)
typed put of the wrong type|real(c_double) :: a(4), b(4)|call shmem_integer_put(a, b, 4, 0)|call shmem_double_put(a, b, 4, 0)'

i=0
echo "$cases" | while IFS='|' read -r what decl wrong right; do
    i=$((i + 1))
    for kind in wrong right incl; do
        stmt=$wrong
        [ "$kind" = right ] && stmt=$right
        if [ "$kind" = incl ]; then
            use="  implicit none
  include 'shmem.fh'"
            decl2=$(echo "$decl" | sed 's/(c_int64_t)/(8)/g; s/(c_double)/(8)/g')
        else
            use="  use shmem
  use, intrinsic :: iso_c_binding
  implicit none"
            decl2=$decl
        fi
        cat > "c$i-$kind.f90" <<EOP
program c$i
$use
  $decl2
  $stmt
end program c$i
EOP
        "$oshfort" -c "c$i-$kind.f90" -o "c$i-$kind.o" > "c$i-$kind.log" 2>&1
        rc=$?
        case $kind in
            wrong) if [ $rc -eq 0 ]; then
                       echo "FAIL: $what: compiled with use shmem: $wrong"; echo x >> failed
                   else
                       echo "ok: $what: rejected ($(grep -m1 Error "c$i-$kind.log" | cut -c1-70))"
                   fi ;;
            right) if [ $rc -ne 0 ]; then
                       echo "FAIL: $what: the right call does not compile: $right"
                       sed 's/^/    /' "c$i-$kind.log" | head -8; echo x >> failed
                   fi ;;
            incl)  [ $rc -eq 0 ] || echo "note: $what: also rejected without the module" ;;
        esac
    done
done
[ -f failed ] && fail=1 && rm -f failed

# an interface for every name
missing=
for n in $(grep -v '^#' "$tsv" | cut -f1); do
    l=$(echo "$n" | tr 'A-Z' 'a-z')
    grep -Eq "^ *(subroutine|function) $l\(" "$modsrc" || missing="$missing $n"
done
if [ -n "$missing" ]; then
    echo "FAIL: no interface in the module for:$missing"
    fail=1
else
    echo "ok: the module has an interface for each of the $(grep -vc '^#' "$tsv") names"
fi
exit $fail
