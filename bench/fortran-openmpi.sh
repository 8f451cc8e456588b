#!/bin/sh
# The Fortran test programs of test/fortran/, built with Debian's Open MPI
# oshfort instead of ours, for comparison (docs/fortran.md, "Open MPI").
# Not a test: it reports what builds and what runs, and Open MPI's failures
# are Open MPI's.
#
#   bench/fortran-openmpi.sh [OSHFORT [OSHRUN]]   (default /usr/bin/oshfort, /usr/bin/oshrun)
set -u
oshfort=${1:-/usr/bin/oshfort}
oshrun=${2:-/usr/bin/oshrun}
src=$(cd "$(dirname "$0")/../test/fortran" && pwd) || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/ushmem-fortran-ompi.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
command -v "$oshfort" >/dev/null || { echo "no $oshfort (apt-get install libopenmpi-dev)"; exit 2; }
echo "Open MPI oshfort: $($oshfort --showme)"
cd "$work" || exit 1
for f in seeds/broadcast.f seeds/alltoall.f seeds/max_kinds.f seeds/max_example.f \
         rma.f amo.f sync.f coll.f mem.f symm.f90 module.f90; do
    b=$(basename "$f" | sed 's/\.[^.]*$//')
    flags=-fallow-argument-mismatch
    [ "$b" = mem ] && flags="$flags -fcray-pointer"
    [ "$b" = max_example ] && flags="$flags -fdefault-real-8 -fdefault-double-8"
    # shellcheck disable=SC2086
    if ! "$oshfort" $flags "$src/$f" "$src/check.f" -o "$b" > "$b.log" 2>&1; then
        why=$(grep -m1 -E "Error|undefined reference|Fatal" "$b.log" | cut -c1-100)
        undef=$(grep -o "undefined reference to \`[^']*'" "$b.log" | sort -u | wc -l)
        [ "$undef" -gt 0 ] && why="$undef undefined Fortran routines, e.g. $(grep -m1 -o "undefined reference to \`[^']*'" "$b.log")"
        echo "$b: does not build: $why"
        continue
    fi
    for np in 1 3; do
        out=$(timeout 60 "$oshrun" --allow-run-as-root --oversubscribe -np "$np" "./$b" 2>&1)
        if echo "$out" | grep -q "all checks passed on $np PEs"; then
            echo "$b: $np PEs: passed"
        else
            echo "$b: $np PEs: FAILED: $(echo "$out" | grep -m1 -E 'expected|error|Error' | cut -c1-100)"
        fi
    done
done
