#!/bin/sh
# Safety: while a job runs, oshrun's rendezvous directory and every shared-
# memory object of the job are reachable by the job's user only; nothing is
# group- or world-writable; no user input reaches a shell.
# Usage: check_perms.sh PE_SOAK SOURCE_DIR
#
# The job is test/pe/soak.c holding after start-up (PE_SOAK_HOLD_FILE) until
# this script has looked at:
#  - oshrun's private directory in TMPDIR (launcher/tmpdir.c; PMIx keeps its
#    rendezvous and data store there): mode 700, nothing inside group- or
#    world-writable;
#  - /dev/shm objects the PEs and oshrun hold open or mapped (UCX's posix
#    segments, unlinked once open): no group or other access at all;
#  - System V segments the PEs created (UCX's heap and FIFOs): mode 0600.
# Static data is a memfd: it has no name anyone can open, only
# /proc/PID/fd/N, which needs the rights to ptrace the PE; not checked.
. "$(dirname "$0")/lib.sh"
prog=$1 srcdir=$2

# 1. No shell anywhere in the launcher or the library: programs are started
# with execv/execve and an argument vector.
if grep -nE '\b(system|popen|execl|execlp|execle|wordexp)[[:space:]]*\(|"/bin/sh"|"sh"' \
        "$srcdir"/launcher/*.c "$srcdir"/api/*.c "$srcdir"/fortran/*.c "$srcdir"/arch/*.c "$srcdir"/core/*.c "$srcdir"/transport/*.c \
        "$srcdir"/collectives/*.c >"$scratch/shell.txt"; then
    fail "a shell or shell-like call: $(cat "$scratch/shell.txt")"
fi

# ... and a program path and arguments full of shell syntax run as words
# (relative names: a shell would create the files in the working directory).
cd "$scratch" || fail "cannot cd to $scratch"
weird='a;touch pwned1 $(touch pwned2)`touch pwned3`'
ln -s "$prog" "$scratch/$weird" || fail "cannot create $weird"
run -n 2 "./$weird" "5;touch pwned4" '$(touch pwned5)'
expect_status 0
expect_grep "$out" "all checks passed on 2 PEs"
for f in pwned1 pwned2 pwned3 pwned4 pwned5; do
    [ ! -e "$scratch/$f" ] || fail "shell syntax in the command line was run: $f exists"
done
expect_clean

# 2. A live job.
go=$scratch/go
PE_SOAK_HOLD_FILE=$go run_bg -n 4 "$prog" 2
trap 'touch "$go"; cleanup' EXIT
wait_pidfiles pe 4
pes=$(cat "$piddir"/pe.*.pid | tr '\n' ' ')

dirs=$(ls -d "$runtmp"/oshrun.* 2>/dev/null)
[ "$(echo "$dirs" | grep -c .)" = 1 ] || fail "expected one oshrun.* in TMPDIR, found: $dirs"
mode=$(stat -c %a "$dirs")
[ "$mode" = 700 ] || fail "rendezvous directory $dirs has mode $mode, expected 700"
bad=$(find "$dirs" ! -type l -perm /022 -printf '%m %y %p\n')
[ -z "$bad" ] || fail "group- or world-writable in the rendezvous directory: $bad"
nrdv=$(find "$dirs" | wc -l)

nshm=0
for p in $oshrun_pid $pes; do
    for fd in /proc/"$p"/fd/*; do
        l=$(readlink "$fd" 2>/dev/null) || continue
        case $l in
        /dev/shm/*)
            m=$(stat -L -c %a "$fd") || fail "cannot stat $l of pid $p"
            [ $(( 0$m & 077 )) = 0 ] || fail "$l (pid $p) has mode $m: group or others have access"
            nshm=$((nshm + 1)) ;;
        esac
    done
done

nsysv=0
for id in $(ipcs -m -p | awk -v pes=" $pes " 'index(pes, " " $3 " ") { print $1 }'); do
    perms=$(ipcs -m -i "$id" | sed -n 's/.*access_perms=\(0[0-7]*\).*/\1/p')
    [ -n "$perms" ] || fail "cannot read the mode of System V segment $id"
    [ $(( perms & 077 )) = 0 ] || fail "System V segment $id of the job has mode $perms"
    nsysv=$((nsysv + 1))
done

touch "$go"
wait_run
expect_status 0
expect_grep "$out" "all checks passed on 4 PEs"
expect_clean
echo "PASS [$test_name] rendezvous dir 700 ($nrdv entries), $nshm /dev/shm objects and $nsysv System V segments private, no shell"
