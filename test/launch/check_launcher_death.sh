#!/bin/sh
# Nothing orphaned when the launcher itself dies.
#
#   check_launcher_death.sh oshrun SHMEM_BEHAVE PE_BEHAVE
#       kill -9 oshrun while 4 PEs are stuck in the library (3 in a
#       barrier, 1 spinning in shmem_wait_until), then while 4 plain PEs
#       that never talk PMIx sleep (each with a child, ignoring SIGTERM):
#       every PE (and child) must be gone within the bound, and oshrun's
#       private PMIx directory and any /dev/shm entry of the job too.
#   check_launcher_death.sh mpirun SHMEM_BEHAVE
#       the same kill -9 of Open MPI's mpirun with the stuck PEs on its own
#       node (exit 77 when there is no mpirun).
#
# The PEs end within 100-200 ms here, the scan for leftovers included;
# the bound is the issue's second (USH_LAUNCHER_DEATH_BOUND_MS overrides
# it for a slower machine), and the measured time is printed.
. "$(dirname "$0")/lib.sh"
mode=$1
prog=$2
bound=${USH_LAUNCHER_DEATH_BOUND_MS:-1000}
# in the environment of every process of the job (the launcher's helpers
# too), so leftovers are found even without a pid file
USH_DEATH_TAG=ush-death-$$-$(date +%s%N)
export USH_DEATH_TAG

tagged_alive() {
    for _e in /proc/[0-9]*/environ; do
        grep -qsa "USH_DEATH_TAG=$USH_DEATH_TAG" "$_e" || continue
        _p=${_e#/proc/}
        _p=${_p%/environ}
        alive "$_p" && echo " $_p($(cat "/proc/$_p/comm" 2>/dev/null))"
    done
}

# kill -9 the launcher ($oshrun_pid, started with run_bg) once N PEs are
# ready, then wait until every pid in $piddir is gone.
kill_launcher_and_wait() {
    _what=$1 _n=$2
    wait_pidfiles ready "$_n"
    sleep 0.3   # let the waits settle in (and burn CPU)
    _t0=$(now_ms)
    kill -9 "$oshrun_pid"
    wait "$oshrun_pid" 2>/dev/null
    while :; do
        _left=$(pids_alive)
        _ms=$(( $(now_ms) - _t0 ))
        [ -z "$_left" ] && _left=$(tagged_alive)
        [ -z "$_left" ] && break
        [ "$_ms" -gt "$bound" ] && fail "$_what: still running $_ms ms after kill -9 of the launcher:$_left"
        sleep 0.01
    done
    echo "  $_what: every process gone $_ms ms after kill -9 of the launcher"
}

# The private directory goes as quickly (removed by oshrun's reaper).
expect_dir_gone() {
    _tries=0
    while [ -n "$(ls -A "$runtmp")" ]; do
        _tries=$((_tries + 1))
        [ "$_tries" -gt $((bound / 10)) ] && fail "$1: left in TMPDIR: $(ls -A "$runtmp" | tr '\n' ' ')"
        sleep 0.01
    done
}

case $mode in
oshrun)
    pe=$3
    run_bg -n 4 "$prog" stuck
    kill_launcher_and_wait "PEs stuck in the library" 4
    expect_dir_gone "PEs stuck in the library"
    expect_clean

    LAUNCH_TEST_FORK=1 LAUNCH_TEST_IGNORE_TERM=1 run_bg -n 4 "$pe" sleep
    wait_pidfiles gc 4
    kill_launcher_and_wait "PEs without PMIx, with children" 4
    expect_dir_gone "PEs without PMIx, with children"
    expect_clean
    ;;
mpirun)
    command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
    root=
    [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
    rm -rf "$piddir" "$runtmp"
    mkdir -p "$piddir" "$runtmp"
    shm_snapshot >"$scratch/shm.before"
    TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir mpirun $root --oversubscribe -np 4 \
        "$prog" stuck >"$out" 2>"$err" &
    oshrun_pid=$!
    kill_launcher_and_wait "mpirun, PEs stuck in the library" 4
    # Open MPI's session directory is its own business: look only at ours
    rm -rf "$runtmp"/*
    expect_clean
    ;;
*)
    fail "usage: check_launcher_death.sh oshrun|mpirun SHMEM_BEHAVE [PE_BEHAVE]"
    ;;
esac
echo "PASS [$test_name]"
