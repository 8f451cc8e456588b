#!/bin/sh
# A network interface that comes and goes while PEs start (a container's
# veth pair, a bridge being torn down) must not fail shmem_init: UCX lists
# the interfaces in ucp_init and opens each in ucp_worker_create, and one
# gone in between failed the worker with "No such device". Run in a
# network namespace of its own, so no other test sees the churn (and a
# mount namespace, whose /sys lists that namespace's interfaces: UCX
# reads them there).
#
#   check_netif_churn.sh PE_THREAD_INIT
. "$(dirname "$0")/lib.sh"
prog=$1

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v ip >/dev/null ||
   ! unshare -n -m sh -c 'mount -t sysfs sysfs /sys && ip link add ushchurn type bridge' \
        2>/dev/null; then
    echo "SKIP [$test_name]: needs root, unshare and ip, and a bridge in a new network namespace"
    exit 77
fi

# 2 x 200 init/finalize cycles beside a bridge with an address that is
# made, kept 5 ms and removed, over and over (without the retry in
# ush_tp_init this failed within 1-3 s, every time).
cat >"$scratch/churn.sh" <<'SH'
mount -t sysfs sysfs /sys || exit 1
ip link set lo up
while :; do
    ip link add ushchurn type bridge && ip addr add 10.251.0.1/24 dev ushchurn &&
        ip link set ushchurn up
    sleep 0.005
    ip link del ushchurn
done >/dev/null 2>&1 &
churn=$!
rc=0
for i in 1 2; do
    "$OSHRUN" --bind-to none -n 1 "$PROG" 200 || { rc=$?; break; }
done
kill $churn
wait $churn 2>/dev/null
exit $rc
SH
run_begin
TMPDIR=$runtmp LAUNCH_TEST_PIDDIR=$piddir PROG=$prog OSHRUN=$OSHRUN \
    timeout -k 5 100 unshare -n -m sh "$scratch/churn.sh" >"$out" 2>"$err"
status=$?
expect_status 0
expect_no_grep "$err" "No such device"
expect_clean
echo "PASS [$test_name]: 400 start-ups beside a bridge that comes and goes"
