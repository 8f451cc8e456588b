# shellcheck shell=bash
# osu_lib.sh: building and reading OSU Micro-Benchmarks' OpenSHMEM
# programs, shared by osu.sh (one node) and osu_xnode.sh (two emulated
# nodes); source it after lib.sh, do not run it.

# parse_osu FILE: "SIZE USEC" for each result line of an OSU OpenSHMEM
# latency program ("SIZE  AVG [MIN MAX ITERS]"; '#' lines are headers);
# SIZE is "-" for osu_oshm_barrier, whose lines hold no size ("  AVG"),
# and the operation for osu_oshm_atomics ("shmem_int_fadd  RATE  USEC").
parse_osu() {
    awk '/^#/ { next }
         NF == 1 && $1 ~ /^[0-9]+(\.[0-9]+)?$/ { print "-", $1; next }
         NF >= 2 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+(\.[0-9]+)?$/ { print $1, $2; next }
         NF == 3 && $1 ~ /^shmem_[a-z0-9_]+$/ && $3 ~ /^[0-9]+(\.[0-9]+)?$/ { print $1, $3 }' "$1"
}

# median2: median() of lib.sh to two places (OSU prints two), of the
# first field of each line.
median2() {
    awk '{ print $1 }' | median 2
}

# select_progs: PROGS, the programs of ONLY in the order of ALL_PROGS,
# each once, and TARGETS, their make targets; die() on a name that is not
# in ALL_PROGS, or on none.
select_progs() {
    local p
    for p in $ONLY; do
        case " $ALL_PROGS " in *" $p "*) ;; *) die "--only takes programs of: $ALL_PROGS; not '$p'" ;; esac
    done
    PROGS=""
    TARGETS=""
    for p in $ALL_PROGS; do
        case " $ONLY " in *" $p "*) PROGS=$PROGS${PROGS:+ }$p; TARGETS=$TARGETS${TARGETS:+ }osu_oshm_$p ;; esac
    done
    [ -n "$PROGS" ] || die "--only names no program"
}

# build_osu LIB OSHCC: unpack the tarball OSU, regenerate, configure and
# build the c/openshmem programs TARGETS (make targets; PROGS: their names
# without osu_oshm_, each checked) with OSHCC in WORKDIR/osu-LIB; log in
# WORKDIR/build-LIB.log.
build_osu() {
    local lib=$1 cc=$2 dir=$WORKDIR/osu-$1
    mkdir -p "$dir" &&
    (
        set -e
        cd "$dir"
        echo "+ tar xzf $OSU"
        tar xzf "$OSU" --strip-components=1
        echo "+ autoreconf -fi"
        autoreconf -fi
        echo "+ ./configure CC=$cc"
        ./configure CC="$cc"
        # Only the programs run: the others would double the time.
        echo "+ make -C c/openshmem $TARGETS"
        # shellcheck disable=SC2086  # TARGETS: names, split on purpose
        make -j"$(nproc 2>/dev/null || echo 2)" -C c/openshmem $TARGETS
        for p in $PROGS; do [ -x "c/openshmem/osu_oshm_$p" ]; done
    ) >"$WORKDIR/build-$lib.log" 2>&1
}

# build_osu_both USHMEM_OSHCC OMPI_OSHCC: build_osu for ushmem and for
# Open MPI at once (configure is mostly waiting on one core); BUILD_PIDS
# holds their process groups meanwhile, for the caller's cleanup. On a
# failure: the log's end, then die().
build_osu_both() {
    local ush ompi ush_rc ompi_rc lib rc
    set -m
    build_osu ushmem "$1" &
    ush=$!
    build_osu ompi "$2" &
    ompi=$!
    set +m
    # shellcheck disable=SC2034  # read by the caller's cleanup
    BUILD_PIDS="$ush $ompi"
    wait "$ush"; ush_rc=$?
    wait "$ompi"; ompi_rc=$?
    BUILD_PIDS=""
    for lib in ushmem ompi; do
        rc=$ush_rc; [ "$lib" = ompi ] && rc=$ompi_rc
        if [ "$rc" -ne 0 ]; then
            tail -n 30 "$WORKDIR/build-$lib.log" | sed 's/^/    /' >&2
            die "building OSU with $lib's oshcc failed (log above; --keep keeps $WORKDIR/build-$lib.log)"
        fi
    done
}
