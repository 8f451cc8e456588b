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
#   expect_no_ucx_left   after expect_clean: no UCX /dev/shm file made
#                        during the last run, no SysV segment of its PEs
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

ipc_snapshot() {
    ipcs -m -p 2>/dev/null | awk '$1 ~ /^[0-9]+$/ {print $1, $3}' | sort
}

# Before a run: what /dev/shm and the SysV segments hold, and its start.
run_begin() {
    rm -rf "$piddir" "$runtmp"
    mkdir -p "$piddir" "$runtmp"
    shm_snapshot >"$scratch/shm.before"
    ipc_snapshot >"$scratch/ipc.before"
    touch "$scratch/run.start"
}

run() {
    run_begin
    t0=$(now_ms)
    TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir timeout -k 5 60 "$OSHRUN" "$@" >"$out" 2>"$err"
    status=$?
    touch "$scratch/run.end"
    elapsed_ms=$(( $(now_ms) - t0 ))
    [ "$elapsed_ms" -lt 59000 ] || fail "oshrun $* did not finish within 60 s"
    return 0
}

# Like run, but in the background; $oshrun_pid is oshrun's pid. Finish
# with wait_run.
run_bg() {
    run_begin
    t0=$(now_ms)
    TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir "$OSHRUN" "$@" >"$out" 2>"$err" &
    oshrun_pid=$!
}

wait_run() {
    wait "$oshrun_pid"
    status=$?
    touch "$scratch/run.end"
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

# The PEs of $piddir still alive, as " name=pid ..." (empty when none).
pids_alive() {
    for _f in "$piddir"/*.pid; do
        [ -f "$_f" ] || continue
        _p=$(cat "$_f")
        [ -n "$_p" ] && alive "$_p" && printf ' %s=%s' "$(basename "$_f" .pid)" "$_p"
    done
    return 0
}

expect_clean() {
    # processes: give the kernel a moment to finish delivering SIGKILL
    _tries=0
    while :; do
        _left=$(pids_alive)
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
    # machine may create and remove their own entries meanwhile: the
    # oshrun.PID.* UCX directory of a concurrent job's oshrun still alive,
    # or just killed and its reaper removing it, is not a leftover)
    _pids=$(cat "$piddir"/*.pid 2>/dev/null | tr '\n' '|')
    _tries=0
    while :; do
        shm_snapshot >"$scratch/shm.after"
        _new=$(comm -13 "$scratch/shm.before" "$scratch/shm.after" |
               grep -E "pmix|oshrun|ushmem|ush[._-]${_pids:+|${_pids%|}}" |
               while read -r _e; do
                   _o=$(echo "$_e" | sed -n 's/^oshrun\.\([0-9]*\)\..*/\1/p')
                   [ -n "$_o" ] && alive "$_o" || echo "$_e"
               done)
        [ -z "$_new" ] && break
        _tries=$((_tries + 1))
        [ "$_tries" -gt 20 ] && fail "new /dev/shm entries left behind: $_new"
        sleep 0.05
    done
}

# UCX names its files at random: those created while the last run ran
# (other jobs on the machine may create their own meanwhile), then the
# System V segments its PEs created.
expect_no_ucx_left() {
    _new=$(comm -13 "$scratch/shm.before" "$scratch/shm.after" | grep -E '^ucx' |
           while read -r _f; do
               [ "/dev/shm/$_f" -nt "$scratch/run.start" ] &&
                   [ ! "/dev/shm/$_f" -nt "$scratch/run.end" ] && echo "$_f"
           done)
    [ -z "$_new" ] || fail "${1:+$1: }UCX /dev/shm entries left behind: $_new"
    _pids=" $(cat "$piddir"/*.pid 2>/dev/null | tr '\n' ' ') "
    ipc_snapshot >"$scratch/ipc.after"
    comm -13 "$scratch/ipc.before" "$scratch/ipc.after" | while read -r _id _cpid; do
        case $_pids in *" $_cpid "*) echo "$_id" ;; esac
    done >"$scratch/ipc.left"
    [ -s "$scratch/ipc.left" ] &&
        fail "${1:+$1: }System V segments left: $(tr '\n' ' ' <"$scratch/ipc.left")"
    return 0
}
