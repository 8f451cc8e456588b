#!/bin/bash
# profile_cost.sh: what the job profile (SHMEM_PROFILE) costs on the
# fastest paths. bench/profile_cost.c runs on 2 PEs of this node against
#   hooks out  a library built with -DUSHMEM_PROFILE_HOOKS=OFF (the hooks
#              compiled out: the routines as they would be without them),
#   off        the normal library, SHMEM_PROFILE unset,
#   on         the normal library, SHMEM_PROFILE=1,
# in turns (each round starting with another), RUNS times each; it prints the median ns per call of each
# and the ratios off / hooks out (the cost when profiling is off, 1.00 is
# none) and on - off (ns each call costs when it is on).
#
#   profile_cost.sh [BUILD [RUNS]]     (default: build 5)
#
# BUILD is the normal build tree (make build); the other library is built
# in BUILD/profile-hooks-off.
set -eu
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
runs=${2:-5}
off_build=$build/profile-hooks-off

cmake -S "$top" -B "$off_build" -DUSHMEM_PROFILE_HOOKS=OFF -DUSHMEM_BUILD_TESTS=OFF \
      -DUSHMEM_FORTRAN=OFF >/dev/null
cmake --build "$off_build" --target ushmem -j2 >/dev/null
cmake --build "$build" --target ushmem oshrun -j2 >/dev/null
lib_on=$(dirname "$(find "$build" -maxdepth 1 -name 'libushmem.so' | head -1)")
lib_off=$(dirname "$(find "$off_build" -maxdepth 1 -name 'libushmem.so' | head -1)")
oshrun=$build/launcher/oshrun

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -I"$top/include" -I"$build/include" -I"$here" "$here/profile_cost.c" \
    -o "$work/profile_cost" -L"$lib_on" -lushmem -Wl,-rpath,"$lib_on"
# LD_LIBRARY_PATH comes before the program's runpath: check it does here
LD_LIBRARY_PATH=$lib_off ldd "$work/profile_cost" | grep -q "$lib_off/libushmem" ||
    { echo "profile_cost.sh: LD_LIBRARY_PATH does not select $lib_off" >&2; exit 1; }

run() { # label env...
    local label=$1
    shift
    env "$@" "$oshrun" --bind-to none -n 2 "$work/profile_cost" |
        sed "s/^/$label /" >>"$work/results"
}
# Each round starts with another of the three: the machine's state drifts
# (this container's two vCPUs move between one core and two), and whichever
# runs first in a round must not always be the same.
one() {
    case $1 in
        0) run out LD_LIBRARY_PATH="$lib_off" ;;
        1) run off SHMEM_PROFILE=0 ;;
        2) (cd "$work" && run on SHMEM_PROFILE=1) ;;
    esac
}
for ((r = 0; r < runs; r++)); do
    for k in 0 1 2; do one $(((r + k) % 3)); done
done

echo "job profile cost, ns per call: median of $runs runs (each the median of 50 batches)"
echo "on 2 PEs of one node ($(nproc) CPUs), in turns; $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-28s %10s %10s %10s %12s %10s\n' routine "hooks out" off on "off/out" "on-off"
awk '
    { key = $2; for (i = 3; i < NF; i++) key = key " " $i; v[$1, key, ++n[$1, key]] = $NF; keys[key] = 1
      if (!(key in order)) { order[key] = ++nk; name[nk] = key } }
    function med(label, key,   m, i, j, t, a) {
        m = n[label, key]
        for (i = 1; i <= m; i++) a[i] = v[label, key, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        for (k = 1; k <= nk; k++) {
            key = name[k]; o = med("out", key); f = med("off", key); p = med("on", key)
            printf "%-28s %10.2f %10.2f %10.2f %12.3f %10.2f\n", key, o, f, p, f / o, p - f
        }
    }' "$work/results"

command -v valgrind >/dev/null || { echo "(valgrind not installed: no instruction counts)"; exit 0; }
# instructions of one call: callgrind's inclusive count of the one
# function main calls 3 x 1000 times (2 batches and the warm-up), divided
# by 3000; the routine is found by its count, whatever name valgrind gives
# the address (several routines of the same code share one). A PE alone,
# so no launcher.
instr() { # op env...
    local op=$1
    shift
    (cd "$work" && env "$@" valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
        "$work/profile_cost" 1000 2 "$op" >/dev/null 2>&1) || return 1
    callgrind_annotate --tree=calling "$work/cg" 2>/dev/null |
        awk '/\* +\?\?\?:main / { in_main = 1; next }
             in_main && /^ *$/ { in_main = 0 }
             in_main && /\(3,000x\)/ { gsub(",", "", $1); print int($1 / 3000); exit }'
}
echo
echo "instructions per call (valgrind; a PE alone, calling itself)"
printf '%-28s %10s %10s %10s %12s %10s\n' routine "hooks out" off on "off-out" "on-off"
ops=("shmem_long_p" "shmem_long_g" "shmem_long_atomic_fetch_add" "shmem_long_atomic_add" "shmem_putmem(64 B)")
for op in 0 1 2 3 4; do
    o=$(instr $op LD_LIBRARY_PATH="$lib_off") f=$(instr $op SHMEM_PROFILE=0) p=$(instr $op SHMEM_PROFILE=1) ||
        { echo "valgrind failed"; exit 1; }
    printf '%-28s %10d %10d %10d %12d %10d\n' "${ops[$op]}" "$o" "$f" "$p" $((f - o)) $((p - f))
done
