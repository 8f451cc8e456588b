#!/bin/bash
# Faults under a real launcher on this machine:
#
#   faults.sh mpirun1|srun1 NP PROGRAM
#
# PROGRAM is test/launch's shmem_behave ("fault KIND RANK STATUS barrier").
# One PE segfaults, calls abort(), exits early without shmem_finalize, or
# calls shmem_global_exit(7) while the others wait in a barrier.  The job
# must end within the issue's one second of the fault (the PE's
# CLOCK_MONOTONIC just before the fault to the launcher's exit, same
# machine, same clock), with a non-zero status (7 for global_exit), a line
# "ushmem: PE n: ..." naming the PE, and nothing left: no process carrying
# the job's tag in its environment, no new /dev/shm entry of ours, PMIx's
# or UCX's.
. "$(dirname "$0")/lib.sh"

launch=$1 np=$2 prog=$3
rank=$((np - 1))
# 1000 ms is the issue's bound, asserted as it is: measured 15-400 ms on a
# loaded 2-core machine, starting the clock program included; an early
# exit takes the 30 ms the library watches the others stuck waiting on
# top (it used to wait 0.6 s, and CI once took 1242 ms) (docs/launching.md
# has the table).
bound=${USH_FAULT_BOUND_MS:-1000}
# Under srun as well: Slurm 22.05 now and then takes a PE's PMIx_Abort yet
# signals no task (the job then ended ~2.1 s after the fault); the library
# now also ends the node's PEs itself after PMIx_Abort (docs/launching.md).
tag=ush-cluster-fault-$$-$(date +%s%N)

case $launch in
    mpirun1)
        cl_require mpirun
        # mpirun waits odls_base_sigkill_timeout (1 s) after its SIGTERM
        # even when every PE is already gone; 0 ends the job at once
        # (docs/launching.md).
        cmd=(mpirun --allow-run-as-root --oversubscribe -np "$np" --bind-to none
             --mca odls_base_sigkill_timeout 0)
        ;;
    srun1)
        cl_require srun
        export SLURM_CONF=$SLURM_LOCAL_STATE_DIR/etc/slurm.conf
        [ -f "$SLURM_CONF" ] || cl_die "no $SLURM_CONF: the Slurm set-up fixture did not run or failed"
        cmd=(srun --mpi=pmix --ntasks="$np")
        ;;
    *)
        cl_die "faults.sh: unknown launcher '$launch'"
        ;;
esac

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# (no oshrun runs these jobs: an oshrun.PID.* directory is another job's)
shm_ours() { ls -A /dev/shm 2>/dev/null | grep -E 'pmix|ucx|ushmem|ush[._-]' | sort; }

tagged() {
    local e p
    for e in /proc/[0-9]*/environ; do
        grep -qsa "USH_FAULT_TAG=$tag" "$e" || continue
        p=${e#/proc/}
        p=${p%/environ}
        [ "$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)" = Z ] && continue
        printf ' %s(%s)' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"
    done
}

failed=0
check() {   # check KIND STATUS EXPECT-STATUS REASON-RE
    local kind=$1 st=$2 want=$3 re=$4 ms left try new
    ms=$(( ($(cat "$work/t.end") - $(cat "$work/fault.time" 2>/dev/null || echo 0)) / 1000000 ))
    cl_say "$launch $kind: exit status $st, ended $ms ms after the fault"
    sed 's/^/  | /' "$work/out" | head -n 30 >&2
    [ -s "$work/fault.time" ] || { cl_say "FAIL $kind: no fault.time"; failed=1; }
    case $want in
        nonzero) [ "$st" -ne 0 ] || { cl_say "FAIL $kind: status 0"; failed=1; } ;;
        *) [ "$st" -eq "$want" ] || { cl_say "FAIL $kind: status $st, expected $want"; failed=1; } ;;
    esac
    [ "$ms" -lt 29000 ] || { cl_say "FAIL $kind: did not end within 30 s"; failed=1; }
    [ "$ms" -le "$bound" ] || { cl_say "FAIL $kind: ended $ms ms after the fault (bound $bound ms)"; failed=1; }
    grep -Eq "$re" "$work/out" || { cl_say "FAIL $kind: no line matching '$re'"; failed=1; }
    for ((try = 0; try < 50; try++)); do
        left=$(tagged)
        [ -z "$left" ] && break
        sleep 0.1
    done
    [ -z "$left" ] || { cl_say "FAIL $kind: processes left:$left"; failed=1; }
    # (UCX's names are random: only those made while the job ran count)
    new=$(comm -13 "$work/shm.before" <(shm_ours) | while read -r f; do
              [[ /dev/shm/$f -nt $work/run.start && ! /dev/shm/$f -nt $work/run.end ]] &&
                  echo "$f"
          done)
    [ -z "$new" ] || { cl_say "FAIL $kind: /dev/shm entries left: $new"; failed=1; }
}

# Slurm's stepd of an aborted step lingers a moment after srun returns,
# and a step launched meanwhile fails in Slurm's PMIx plugin
# ("pmixp_stepd_init() failed", "task launch failed"). Wait it out.
steps_gone() {
    [ "$launch" = srun1 ] || return 0
    local i
    for ((i = 0; i < 100; i++)); do
        pgrep -x slurmstepd >/dev/null || return 0
        sleep 0.1
    done
}

for fault in segv abort exit-early global-exit; do
    steps_gone
    rm -f "$work/fault.time"
    shm_ours >"$work/shm.before"
    touch "$work/run.start"
    # single-node: the PEs inherit the launcher's environment (tag, piddir)
    for attempt in 1 2 3; do
        USH_FAULT_TAG=$tag LAUNCH_TEST_PIDDIR=$work timeout -k 5 30 \
            "${cmd[@]}" "$prog" fault "$fault" "$rank" 7 barrier >"$work/out" 2>&1
        st=$?
        # Slurm 22.05's PMIx plugin sometimes cannot start the step right
        # after an aborted one; no PE ran, so nothing was tested: again.
        cl_slurm_launch_failed "$work/out" || break
        cl_say "$launch $fault: Slurm could not launch the step (attempt $attempt); retrying"
        sleep 2
        rm -f "$work/fault.time"
    done
    touch "$work/run.end"
    "$prog" clock >"$work/t.end"
    case $fault in
        segv)        check segv "$st" nonzero "PE $rank\b.*(SIGSEGV|[Ss]egmentation)" ;;
        abort)       check abort "$st" nonzero "PE $rank\b.*(SIGABRT|[Aa]bort)" ;;
        exit-early)  check exit-early "$st" 7 "PE $rank\b.*without calling shmem_finalize" ;;
        global-exit) check global-exit "$st" 7 "PE $rank\b.*shmem_global_exit\(7\)" ;;
    esac
done
[ "$failed" -eq 0 ] || cl_die "$launch: some faults were not handled (see above)"
cl_say "$launch: every fault ended the job in time, nothing left"
