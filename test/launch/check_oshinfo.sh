#!/bin/sh
# oshinfo: its sections, every variable of the environment table (read from
# core/ush_env.h, as unit_env_docs does) with the value in force, a value set
# in the environment, the UCX transports for 4 PEs, and exit statuses.
# Usage: check_oshinfo.sh OSHINFO SRC_DIR
set -u
oshinfo=${1:?usage: check_oshinfo.sh OSHINFO SRC_DIR}
src=${2:?usage: check_oshinfo.sh OSHINFO SRC_DIR}
test_name=check_oshinfo

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ush-oshinfo-test.XXXXXX") || exit 1
out=$scratch/out
err=$scratch/err
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM

fail() {
    echo "FAIL [$test_name]: $*" >&2
    echo "--- stdout of the last run:" >&2
    head -n 60 "$out" >&2
    echo "--- stderr of the last run:" >&2
    head -n 20 "$err" >&2
    exit 1
}

# run [VAR=VALUE...] -- ARGS: oshinfo in a clean SHMEM_* environment plus
# the given variables; sets $status.
run() {
    _env=
    while [ "$1" != "--" ]; do
        _env="$_env $1"
        shift
    done
    shift
    # shellcheck disable=SC2086 # _env is a list of VAR=VALUE words
    env $(env | sed -n 's/^\(\(SHMEM\|SMA\)_[A-Z_]*\)=.*/-u \1/p') \
        $_env timeout 60 "$oshinfo" "$@" >"$out" 2>"$err"
    status=$?
}

expect_status() {
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}
expect_grep() {
    grep -Eq -- "$2" "$1" || fail "no line matching '$2' in $(basename "$1")"
}
expect_no_grep() {
    grep -Eq -- "$2" "$1" && fail "unexpected line matching '$2' in $(basename "$1")"
    return 0
}

# The table's variables, as unit_env_docs reads them.
names=$(sed -n 's/.*X([a-z_]*, \([A-Z_]*\), [A-Z]*, ".*/SHMEM_\1/p' "$src/core/ush_env.h")
count=$(echo "$names" | wc -l)
[ "$count" -ge 3 ] || fail "found only $count variables in core/ush_env.h: the table format changed"

# --- default: version, build, environment; not the transports (UCX not started)
run --
expect_status 0
for section in Version Build Environment; do
    expect_grep "$out" "^$section"
done
expect_no_grep "$out" "^Transports"
expect_grep "$out" "^  ushmem: +[0-9]+\.[0-9]+\.[0-9]+$"
expect_grep "$out" "^  OpenSHMEM: +1\.6$"
expect_grep "$out" "^  vendor string: +ushmem$"
for dep in UCX PMIx hwloc; do
    expect_grep "$out" "^  $dep: +built against [0-9]"
done
expect_grep "$out" "^  UCX: +built against [0-9.]+, loaded [0-9]"
expect_grep "$out" "^  compiler: +[^ ]"
[ -s "$err" ] && fail "unexpected stderr"

# Every variable of the table, each once, nothing else, none marked as set.
for name in $names; do
    n=$(grep -Ec "^[ *] $name = " "$out")
    [ "$n" -eq 1 ] || fail "$name listed $n times, expected once"
done
listed=$(grep -Ec '^[ *] SHMEM_[A-Z_]+ = ' "$out")
[ "$listed" -eq "$count" ] || fail "$listed variables listed, the table has $count"
expect_no_grep "$out" '^\* SHMEM_'
# Default and help shown: the symmetric heap size's, from the table.
expect_grep "$out" '^  SHMEM_SYMMETRIC_SIZE = 256M .*default 256M, size\)$'
expect_grep "$out" '^      Bytes of symmetric heap per PE'

# --- values set in the environment are shown as in force, and marked
run SHMEM_SYMMETRIC_SIZE=1g SHMEM_BCAST_ALGORITHM=ring SHMEM_DEBUG=yes -- --env
expect_status 0
expect_grep "$out" '^\* SHMEM_SYMMETRIC_SIZE = 1G .*set by SHMEM_SYMMETRIC_SIZE;'
expect_grep "$out" '^\* SHMEM_BCAST_ALGORITHM = ring .*set by SHMEM_BCAST_ALGORITHM;'
expect_grep "$out" '^\* SHMEM_DEBUG = 1 '
expect_grep "$out" '^  SHMEM_INFO = 0 '
expect_no_grep "$out" '^(Version|Build|Transports)'
# The older spelling of the heap size, and SHMEM_ winning over it.
run SMA_SYMMETRIC_SIZE=64m -- --env
expect_grep "$out" '^\* SHMEM_SYMMETRIC_SIZE = 64M .*set by SMA_SYMMETRIC_SIZE;'
run SMA_SYMMETRIC_SIZE=64m SHMEM_SYMMETRIC_SIZE=2m -- --env
expect_grep "$out" '^\* SHMEM_SYMMETRIC_SIZE = 2M .*set by SHMEM_SYMMETRIC_SIZE;'

# --- a malformed value: still the whole list, status 1, the reason on stderr
run SHMEM_DEBUG=maybe -- --env
expect_status 1
expect_grep "$out" '^\* SHMEM_DEBUG = maybe .*INVALID: not a boolean'
listed=$(grep -Ec '^[ *] SHMEM_[A-Z_]+ = ' "$out")
[ "$listed" -eq "$count" ] || fail "$listed variables listed with a bad value, expected $count"
expect_grep "$err" '^oshinfo: SHMEM_DEBUG=maybe: not a boolean; expected '

# --- single sections
run -- --version
expect_status 0
expect_grep "$out" '^Version$'
expect_no_grep "$out" '^(Build|Environment|Transports)'
run -- --build
expect_status 0
expect_grep "$out" '^Build$'
expect_no_grep "$out" '^(Version|Environment|Transports)'

# --- transports for 4 PEs: UCX names at least one on-node transport
run -- --transports -n 4
expect_status 0
expect_grep "$out" '^Transports \(UCX [0-9.]+, for a job of 4 PEs\)$'
expect_no_grep "$out" '^(Version|Build|Environment)'
# The first "transports:" line is the on-node one: tl/dev names.
onnode=$(sed -n '/^  on-node/,/^  off-node/p' "$out")
echo "$onnode" | grep -Eq '^    lane 0 +[a-z_0-9]+/[^ ]+' ||
    fail "no on-node lane"
echo "$onnode" | grep -Eq '^    transports:( [a-z_0-9]+/[^ ]+)+$' ||
    fail "no on-node transport named"
# Off-node: lanes, or a plain statement that there are none.
offnode=$(sed -n '/^  off-node/,/^  progress thread/p' "$out")
echo "$offnode" | grep -Eq '^    (transports:( [a-z_0-9]+/[^ ]+)+|none: .+)$' ||
    fail "off-node: neither transports nor a reason for none"
expect_grep "$out" 'real choice per peer when the job runs'
expect_grep "$out" '^  progress thread:$'
expect_grep "$out" '^    (SHMEM_PROGRESS_THREAD=[a-z]+ \((set|default)\)$|this build has no SHMEM_PROGRESS_THREAD)'
# -n alone implies --transports; the PE count is what the probe was told.
run -- -n 1
expect_status 0
expect_grep "$out" '^Transports \(UCX [0-9.]+, for a job of 1 PEs\)$'

# --- --all: every section
run -- --all
expect_status 0
for section in Version Build Environment Transports; do
    expect_grep "$out" "^$section"
done

# --- help and usage errors: status 2, one line on stderr, nothing on stdout
run -- --help
expect_status 0
expect_grep "$out" '^Usage: oshinfo '
expect_grep "$out" '[-][-]transports'
for bad in "-n 0" "-n abc" "-n -3" "--no-such-option" "extra-argument" "-n"; do
    # shellcheck disable=SC2086 # split on purpose
    run -- $bad
    expect_status 2
    [ -s "$out" ] && fail "'oshinfo $bad': unexpected stdout"
    expect_grep "$err" '^oshinfo: '
done

echo "PASS [$test_name]"
