# Shared by the launcher test scripts (sourced, POSIX sh).
#
#   run ARGS...          run oshrun ARGS in a fresh scratch area; sets
#                        $status, $elapsed_ms, and files $out, $err
#   expect_status N      exit status of the last run
#   expect_faster MS     the last run ended within MS milliseconds
#   expect_lines FILE N  FILE has exactly N lines
#   expect_grep FILE RE  FILE has a line matching RE (grep -E)
#   expect_no_grep FILE RE
#   expect_clean         no PE (or descendant) alive, TMPDIR left empty, no
#                        new /dev/shm entry of ours
#
# Every PE writes its pid to $piddir (pe_behave and the shmem test programs
# do it when LAUNCH_TEST_PIDDIR is set), which is how leftovers are found.

set -u

OSHRUN=${OSHRUN:?set OSHRUN to the oshrun under test}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ush-launch-test.XXXXXX") || exit 1
out=$scratch/out
err=$scratch/err
piddir=$scratch/pids
runtmp=$scratch/tmp
status=
elapsed_ms=
test_name=$(basename "$0" .sh)

# Whatever happens, leave nothing running and nothing on disk.
# (helpers use _names: sh has no local variables, and the scripts' own
# names must survive a call)
cleanup() {
    for _f in "$piddir"/*.pid; do
        [ -f "$_f" ] || continue
        _p=$(cat "$_f")
        [ -n "$_p" ] && kill -9 "$_p" 2>/dev/null
    done
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
    echo "FAIL [$test_name]: $*" >&2
    if [ -f "$out" ]; then
        echo "--- stdout of the last run:" >&2
        head -n 40 "$out" >&2
    fi
    if [ -f "$err" ]; then
        echo "--- stderr of the last run:" >&2
        head -n 40 "$err" >&2
    fi
    exit 1
}

now_ms() {
    echo $(( $(date +%s%N) / 1000000 ))
}

shm_snapshot() {
    ls -A /dev/shm 2>/dev/null | sort
}

run() {
    rm -rf "$piddir" "$runtmp"
    mkdir -p "$piddir" "$runtmp"
    shm_snapshot >"$scratch/shm.before"
    t0=$(now_ms)
    TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir timeout -k 5 60 "$OSHRUN" "$@" >"$out" 2>"$err"
    status=$?
    elapsed_ms=$(( $(now_ms) - t0 ))
    [ "$elapsed_ms" -lt 59000 ] || fail "oshrun $* did not finish within 60 s"
    return 0
}

# Like run, but in the background; $oshrun_pid is oshrun's pid. Finish
# with wait_run.
run_bg() {
    rm -rf "$piddir" "$runtmp"
    mkdir -p "$piddir" "$runtmp"
    shm_snapshot >"$scratch/shm.before"
    t0=$(now_ms)
    TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir "$OSHRUN" "$@" >"$out" 2>"$err" &
    oshrun_pid=$!
}

wait_run() {
    wait "$oshrun_pid"
    status=$?
    elapsed_ms=$(( $(now_ms) - t0 ))
}

# Wait (up to 20 s) until N files named PREFIX.*.pid exist in $piddir.
wait_pidfiles() {
    _prefix=$1 _want=$2 _tries=0
    while [ "$(ls "$piddir" 2>/dev/null | grep -c "^$_prefix\..*\.pid$")" -lt "$_want" ]; do
        _tries=$((_tries + 1))
        [ "$_tries" -gt 400 ] && fail "only $(ls "$piddir" | grep -c "^$_prefix\.") of $_want $_prefix pid files appeared"
        sleep 0.05
    done
}

expect_status() {
    [ "$status" = "$1" ] || fail "exit status $status, expected $1"
}

expect_faster() {
    [ "$elapsed_ms" -le "$1" ] || fail "took $elapsed_ms ms, expected at most $1 ms"
}

expect_lines() {
    _n=$(wc -l <"$1")
    [ "$_n" -eq "$2" ] || fail "$(basename "$1") has $_n lines, expected $2"
}

expect_grep() {
    grep -Eq -- "$2" "$1" || fail "$(basename "$1") has no line matching '$2'"
}

expect_no_grep() {
    if grep -Eq -- "$2" "$1"; then
        fail "$(basename "$1") has a line matching '$2'"
    fi
}

# A zombie is dead: in a container nobody may reap orphans.
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    _state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$_state" ] && [ "$_state" != Z ]
}

expect_clean() {
    # processes: give the kernel a moment to finish delivering SIGKILL
    _tries=0
    while :; do
        _left=
        for _f in "$piddir"/*.pid; do
            [ -f "$_f" ] || continue
            _p=$(cat "$_f")
            [ -n "$_p" ] && alive "$_p" && _left="$_left $(basename "$_f" .pid)=$_p"
        done
        [ -z "$_left" ] && break
        _tries=$((_tries + 1))
        [ "$_tries" -gt 20 ] && fail "processes left behind after oshrun exited:$_left"
        sleep 0.05
    done
    # files: oshrun's private directory (PMIx rendezvous, data store) is gone
    if [ -n "$(ls -A "$runtmp")" ]; then
        fail "files left in TMPDIR: $(ls -A "$runtmp" | tr '\n' ' ')"
    fi
    # /dev/shm: nothing new from oshrun, PMIx or ushmem (other users of the
    # machine may create and remove their own entries meanwhile)
    shm_snapshot >"$scratch/shm.after"
    _pids=$(cat "$piddir"/*.pid 2>/dev/null | tr '\n' '|')
    _new=$(comm -13 "$scratch/shm.before" "$scratch/shm.after" |
           grep -E "pmix|oshrun|ushmem|ush[._-]${_pids:+|${_pids%|}}" || true)
    [ -z "$_new" ] || fail "new /dev/shm entries left behind: $_new"
}
