/*
 * The reader of ucp_ep_print_info's lanes (transport/lanes.c): samples of
 * UCX 1.13's text for the layouts it meets. Only one lane of a transport
 * that keeps order lets shmem_fence skip its round trip; anything else,
 * and anything it cannot read, must say "out of order".
 */
#include <criterion/criterion.h>

#include "transport/ush_tp_lanes.h"

/* TCP between nodes: RMA and atomics emulated on the one am lane. */
static const char tcp[] =
    "#\n# UCP endpoint \n#\n#               peer: <no debug data>\n"
    "#                 lane[0]:  2:tcp/eth0.0 md[0]            -> md[0]/tcp/sysdev[255] am "
    "am_bw#0 wireup\n#\n#\n#                  rma_bw: mds #\n";

/* One HCA port: everything on one RC lane. */
static const char rc_one[] =
    "#                 lane[0]:  3:rc_mlx5/mlx5_0:1 md[1] -> md[1]/ib/sysdev[0] am am_bw#0 "
    "rma_bw#0 amo#0 wireup\n"
    "#                  put[0]: 0..<short>..64..<bcopy>..(inf)\n";

/* Two HCA ports: bandwidth on both, atomics on the first. */
static const char rc_two[] =
    "#                 lane[0]:  3:rc_mlx5/mlx5_0:1 md[1] -> md[1]/ib/sysdev[0] am rma_bw#0 "
    "amo#0 wireup\n"
    "#                 lane[1]:  4:rc_mlx5/mlx5_1:1 md[2] -> md[2]/ib/sysdev[1] rma_bw#1\n";

/* Active messages on TCP, RMA on another transport's lane. */
static const char split[] =
    "#                 lane[0]:  2:tcp/eth0.0 md[0] -> md[0]/tcp/sysdev[255] am am_bw#0 wireup\n"
    "#                 lane[1]:  1:rc_verbs/mlx4_0:1 md[1] -> md[1]/ib/sysdev[0] rma_bw#0\n";

/* On one node: self, then put[i] lines on the shared-memory lanes. */
static const char loopback[] =
    "#                 lane[0]:  0:self/memory0.0 md[0]          -> md[0]/self/sysdev[255] amo#0 "
    "am am_bw#0\n"
    "#                 lane[1]:  4:sysv/memory.0 md[2]           -> md[2]/sysv/sysdev[255]\n"
    "#                  put[0]: 0..<short>..4294967296..<bcopy>..(inf)\n"
    "#                  put[1]: 0..<short>..4294967296..<bcopy>..(inf)\n";

/* DC: an endpoint may send on any initiator of a pool. */
static const char dc[] =
    "#                 lane[0]:  3:dc_mlx5/mlx5_0:1 md[1] -> md[1]/ib/sysdev[0] am rma_bw#0 "
    "amo#0 wireup\n";

Test(lanes, one_ordered_lane)
{
    cr_assert_eq(ush_tp_lanes_ordered(tcp), 1);
    cr_assert_eq(ush_tp_lanes_ordered(rc_one), 1);
}

Test(lanes, several_lanes)
{
    cr_assert_eq(ush_tp_lanes_ordered(rc_two), 0);
    cr_assert_eq(ush_tp_lanes_ordered(split), 0);
    cr_assert_eq(ush_tp_lanes_ordered(loopback), 0);
}

Test(lanes, transport_not_known_to_keep_order)
{
    cr_assert_eq(ush_tp_lanes_ordered(dc), 0);
}

Test(lanes, unreadable)
{
    cr_assert_eq(ush_tp_lanes_ordered(""), 0);
    cr_assert_eq(ush_tp_lanes_ordered("# UCP endpoint\n#   peer: <no debug data>\n"), 0);
    /* no am lane */
    cr_assert_eq(ush_tp_lanes_ordered("#  lane[0]:  2:tcp/eth0.0 md[0] -> md[0]/tcp rma_bw#0\n"), 0);
    /* a lane number beyond what it tracks */
    cr_assert_eq(ush_tp_lanes_ordered("#  lane[99]:  2:tcp/eth0.0 md[0] -> md[0]/tcp am\n"), 0);
    cr_assert_eq(ush_tp_lanes_ordered("#  lane[0]:  garbage -> am\n"), 0);
}
