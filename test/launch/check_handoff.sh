#!/bin/sh
# Hand-off to srun and mpirun, with fake ones that print their argv: which
# launcher auto picks, the exact argv (arguments with spaces, quotes, $, *,
# empty ones), -x and SHMEM_/UCX_/OMPI_MCA_ forwarding to mpirun, the exit
# status and signal death passed through, --verbose output that is valid
# shell, --launcher forcing, and clear errors for a missing srun / mpirun.
# Usage: check_handoff.sh PE_BEHAVE
. "$(dirname "$0")/lib.sh"
pe=$1

# The fakes: "fake NAME", then "arg <WORD>" per argument, "env VAR=<VALUE>"
# for each variable named in FAKE_SHOW_ENV; then exit FAKE_EXIT, or die of
# signal S for FAKE_EXIT=sigS.
fakebin=$scratch/fakebin
mkdir -p "$fakebin"
cat >"$fakebin/srun" <<'FAKE'
#!/bin/sh
echo "fake ${0##*/}"
for a in "$@"; do printf 'arg <%s>\n' "$a"; done
for v in ${FAKE_SHOW_ENV:-}; do
    eval "printf 'env %s=<%s>\n' $v \"\${$v-UNSET}\""
done
case ${FAKE_EXIT:-0} in
sig*) kill -s "${FAKE_EXIT#sig}" $$; sleep 5 ;;
esac
exit "${FAKE_EXIT:-0}"
FAKE
cp "$fakebin/srun" "$fakebin/mpirun"
chmod +x "$fakebin/srun" "$fakebin/mpirun"

# A PATH with neither srun nor mpirun (the real ones may be installed).
nobin=$scratch/nobin
mkdir -p "$nobin"
for t in timeout env sh; do
    ln -s "$(command -v $t)" "$nobin/$t"
done

root_opt=
[ "$(id -u)" = 0 ] && root_opt=--allow-run-as-root

# hrun [VAR=VALUE...] OSHRUN-ARGS...: oshrun in an environment holding only
# PATH (the fakes first) and the given variables, so no SLURM_*, SHMEM_* or
# UCX_* of whoever runs the tests leaks in.
hpath=$fakebin:$PATH
hrun() {
    timeout -k 5 60 env -i PATH="$hpath" "$@" >"$out" 2>"$err"
    status=$?
}
# hrun_osh [VAR=VALUE...] -- OSHRUN-ARGS...: the first "--" becomes
# $OSHRUN (the arguments are rotated through "$@" to keep every word intact)
hrun_osh() {
    _n=$# _done=
    while [ "$_n" -gt 0 ]; do
        _a=$1
        shift
        _n=$((_n - 1))
        if [ -z "$_done" ] && [ "$_a" = -- ]; then
            set -- "$@" "$OSHRUN"
            _done=1
        else
            set -- "$@" "$_a"
        fi
    done
    hrun "$@"
}

# expect_argv FAKE WORD...: the fake NAME ran with exactly these arguments
expect_argv() {
    { echo "fake $1"; shift; for _w in "$@"; do printf 'arg <%s>\n' "$_w"; done; } \
        >"$scratch/want"
    grep -E '^(fake|arg) ' "$out" >"$scratch/got"
    diff "$scratch/want" "$scratch/got" >"$scratch/diff" ||
        fail "argv differs (- expected, + got):
$(cat "$scratch/diff")"
}

weird1='two words'
weird2="it's \"quoted\""
weird3='$HOME and `date` and $(id)'
weird4='*'
weird5=''
weird6='back\slash'

# --- auto: neither an allocation nor hosts: the embedded launcher ---------
hrun_osh -- -n 2 "$pe" env SHMEM_LAUNCHER
expect_status 0
expect_no_grep "$out" "^fake"
[ "$(grep -c '^SHMEM_LAUNCHER=oshrun$' "$out")" -eq 2 ] || fail "embedded run did not start 2 PEs"

# --- auto: SLURM_JOB_ID (and old SLURM_JOBID) means srun -------------------
for var in SLURM_JOB_ID SLURM_JOBID; do
    hrun_osh $var=42 -- -n 3 ./prog "$weird1" "$weird2" "$weird3" "$weird4" "$weird5" "$weird6" -n 5
    expect_status 0
    expect_argv srun --mpi=pmix -n 3 ./prog "$weird1" "$weird2" "$weird3" "$weird4" \
        "$weird5" "$weird6" -n 5
done

# srun: options mapped, -x VAR=VALUE set in the environment srun passes on
hrun_osh SLURM_JOB_ID=42 FAKE_SHOW_ENV="GREETING KEEP" KEEP=kept -- \
    -n 2 --bind-to socket --tag-output -x "GREETING=hello world" -x KEEP prog arg
expect_status 0
expect_argv srun --mpi=pmix -n 2 --cpu-bind=sockets --label prog arg
expect_grep "$out" "^env GREETING=<hello world>$"
expect_grep "$out" "^env KEEP=<kept>$"
hrun_osh SLURM_JOB_ID=42 -- -n 2 --bind-to core --report-bindings prog
expect_argv srun --mpi=pmix -n 2 --cpu-bind=verbose,cores prog
hrun_osh SLURM_JOB_ID=42 -- -n 2 --bind-to none prog
expect_argv srun --mpi=pmix -n 2 --cpu-bind=none prog

# --- auto: --hostfile / --host / -H mean mpirun (also inside Slurm) --------
echo "localhost slots=2" >"$scratch/hosts"
hrun_osh -- -n 4 --hostfile "$scratch/hosts" ./prog "$weird1" "$weird5" "$weird3"
expect_status 0
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 4 --hostfile "$scratch/hosts" ./prog \
    "$weird1" "$weird5" "$weird3"
hrun_osh -- -n 2 --host node0,node1 prog
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 2 --host node0,node1 prog
hrun_osh SLURM_JOB_ID=42 -- -n 2 -H node0:2 prog
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 2 --host node0:2 prog

# mpirun: options mapped, -x as given, and every SHMEM_*, UCX_*, OMPI_MCA_*
# variable named (the order of those follows the environment: sorted here)
hrun_osh SHMEM_SYMMETRIC_SIZE=64m UCX_TLS=tcp OMPI_MCA_btl=self,tcp FOO=1 \
    UCX_NET_DEVICES=eth0 -- \
    -n 6 --host a,b,c --bind-to core --report-bindings --tag-output \
    --mca plm_rsh_agent "/x/my agent" --mca btl_tcp_if_include 10.0.0.0/24 \
    -x FOO -x "BAR=a b" -x UCX_TLS prog "$weird2"
expect_status 0
{ echo "fake mpirun"
  for w in $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 6 --host a,b,c --bind-to core --report-bindings \
           --tag-output --mca plm_rsh_agent; do printf 'arg <%s>\n' "$w"; done
  printf 'arg <%s>\n' "/x/my agent" --mca btl_tcp_if_include 10.0.0.0/24 -x FOO -x "BAR=a b" \
      -x UCX_TLS
} >"$scratch/want"
n_want=$(wc -l <"$scratch/want")
head -n "$n_want" "$out" | diff "$scratch/want" - >"$scratch/diff" ||
    fail "mpirun options differ (- expected, + got):
$(cat "$scratch/diff")"
# after them: "-x NAME" pairs for the rest, then the program
tail -n +"$((n_want + 1))" "$out" | grep -E '^arg ' >"$scratch/rest"
printf 'arg <%s>\n' prog "$weird2" >"$scratch/tail_want"
tail -n 2 "$scratch/rest" | diff "$scratch/tail_want" - >"$scratch/diff" ||
    fail "mpirun: program and arguments differ at the end:
$(cat "$scratch/diff")"
head -n -2 "$scratch/rest" | paste - - | sort >"$scratch/fwd"
printf 'arg <-x>\targ <%s>\n' OMPI_MCA_btl SHMEM_SYMMETRIC_SIZE UCX_NET_DEVICES | sort \
    >"$scratch/fwd_want"
diff "$scratch/fwd_want" "$scratch/fwd" >"$scratch/diff" ||
    fail "mpirun: forwarded variables differ (- expected, + got):
$(cat "$scratch/diff")"

# --- options from job scripts, translated where they map ------------------
# srun: -N / -ppn without -n leave the count to srun; --oversubscribe is
# --overcommit, --wdir --chdir; --map-by and --output-filename only a note
hrun_osh SLURM_JOB_ID=42 -- -N 2 prog
expect_status 0
expect_argv srun --mpi=pmix --ntasks-per-node=2 prog
hrun_osh SLURM_JOB_ID=42 -- -c 4 -ppn 2 --oversubscribe --allow-run-as-root --wdir "/w d" \
    --map-by node --output-filename o -genv G "g h" prog
expect_status 0
expect_argv srun --mpi=pmix -n 4 --ntasks-per-node=2 --overcommit --chdir "/w d" prog
expect_grep "$err" "^oshrun: note: --map-by node ignored by srun"
expect_grep "$err" "^oshrun: note: --output-filename ignored by srun"
hrun_osh SLURM_JOB_ID=42 FAKE_SHOW_ENV=G -- -n 1 -genv G "g h" prog
expect_grep "$out" "^env G=<g h>$"
# mpirun: -np only when given, --npernode, --map-by, --wdir,
# --output-filename as they are; -genv as -x; --oversubscribe and
# --allow-run-as-root once
hrun_osh -- -N 2 --host a,b prog
expect_status 0
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 --npernode 2 \
    --host a,b prog
hrun_osh -- --np=4 --npernode 2 --host a,b --map-by ppr:2:node --wdir /w --output-filename o \
    --oversubscribe --allow-run-as-root -genv G "g h" prog
expect_status 0
expect_argv mpirun --allow-run-as-root --oversubscribe --mca odls_base_sigkill_timeout 0 -np 4 \
    --npernode 2 --host a,b --map-by ppr:2:node --wdir /w --output-filename o -x "G=g h" prog

# --- exit status and signal death come from srun / mpirun itself ----------
for who in "SLURM_JOB_ID=1 --" "-- --host h"; do
    hrun_osh FAKE_EXIT=7 $who prog
    expect_status 7
    hrun_osh FAKE_EXIT=sigTERM $who prog
    expect_status 143
done

# --- --verbose prints a command line the shell reads back exactly ---------
for case in srun mpirun; do
    if [ $case = srun ]; then
        hrun_osh SLURM_JOB_ID=9 FAKE_SHOW_ENV=GREETING -- --verbose -n 2 \
            -x "GREETING=it's \$5 *" prog "$weird1" "$weird2" "$weird3" "$weird4" "$weird5" "$weird6"
    else
        hrun_osh UCX_TLS=tcp FAKE_SHOW_ENV=GREETING -- --verbose -n 2 --host "n 1" -x "GREETING=it's \$5 *" \
            prog "$weird1" "$weird2" "$weird3" "$weird4" "$weird5" "$weird6"
    fi
    expect_status 0
    expect_grep "$err" "^oshrun: launcher: $case "
    cmd=$(sed -n 's/^oshrun: running: //p' "$err")
    [ -n "$cmd" ] || fail "--verbose printed no 'oshrun: running:' line"
    cp "$out" "$scratch/direct"
    # the same environment as hrun, the printed line run by the shell
    (cd "$scratch" && env -i PATH="$hpath" FAKE_SHOW_ENV=GREETING UCX_TLS=tcp \
        sh -c "$cmd") >"$scratch/replay" 2>&1 || fail "the --verbose line failed in sh: $cmd"
    diff "$scratch/direct" "$scratch/replay" >"$scratch/diff" ||
        fail "--verbose line ($cmd) runs differently (- oshrun, + sh):
$(cat "$scratch/diff")"
done

# --- --launcher forces a choice --------------------------------------------
hrun_osh SLURM_JOB_ID=42 -- --launcher embedded -n 2 "$pe" env SHMEM_LAUNCHER
expect_status 0
[ "$(grep -c '^SHMEM_LAUNCHER=oshrun$' "$out")" -eq 2 ] ||
    fail "--launcher embedded inside an allocation did not run the PEs here"
hrun_osh -- --launcher srun -n 2 prog
expect_argv srun --mpi=pmix -n 2 prog
hrun_osh SLURM_JOB_ID=42 -- --launcher=mpirun -n 2 prog
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 2 prog
hrun_osh -- --launcher auto -n 1 "$pe" env SHMEM_LAUNCHER
expect_grep "$out" "^SHMEM_LAUNCHER=oshrun$"
hrun_osh -- --launcher srun --host a prog
expect_status 2
expect_grep "$err" "^oshrun: --host and --hostfile need mpirun"
hrun_osh -- --launcher bogus prog
expect_status 2
expect_grep "$err" "^oshrun: bad --launcher 'bogus'"
hrun_osh SLURM_JOB_ID=42 -- --timeout 5 prog
expect_status 2
expect_grep "$err" "^oshrun: --timeout works with the embedded launcher only"

# --- srun / mpirun missing: a clear message, status 127 ---------------------
hpath=$nobin
hrun_osh -- --launcher srun -n 2 prog
expect_status 127
expect_grep "$err" "^oshrun: cannot hand the job to srun: 'srun' not found on PATH.*USHMEM_SRUN"
hrun_osh -- --host a prog
expect_status 127
expect_grep "$err" "^oshrun: cannot hand the job to mpirun: 'mpirun' not found on PATH.*USHMEM_MPIRUN"
# inside an allocation without srun: stays on this node (and says so)
hrun_osh SLURM_JOB_ID=42 -- --verbose -n 2 "$pe" env SHMEM_LAUNCHER
expect_status 0
expect_grep "$err" "^oshrun: launcher: embedded \(inside Slurm job 42, but no srun"
[ "$(grep -c '^SHMEM_LAUNCHER=oshrun$' "$out")" -eq 2 ] || fail "no embedded run without srun"
# USHMEM_SRUN / USHMEM_MPIRUN choose them, and a wrong one is an error
hrun_osh SLURM_JOB_ID=42 USHMEM_SRUN="$fakebin/srun" -- -n 2 prog
expect_argv srun --mpi=pmix -n 2 prog
hrun_osh USHMEM_MPIRUN="$fakebin/mpirun" -- -n 2 -H a prog
expect_argv mpirun $root_opt --oversubscribe --mca odls_base_sigkill_timeout 0 -np 2 --host a prog
hrun_osh SLURM_JOB_ID=42 USHMEM_SRUN=/nonexistent/srun -- -n 2 prog
expect_status 127
expect_grep "$err" "USHMEM_SRUN=/nonexistent/srun: No such file or directory"
hpath=$fakebin:$PATH

echo "PASS [$test_name]"
