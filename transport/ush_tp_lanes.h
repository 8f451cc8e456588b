#ifndef USH_TP_LANES_H
#define USH_TP_LANES_H

/* 1 if the lanes that ucp_ep_print_info printed in info carry every RMA,
 * atomic and active message to the peer on one lane of a transport that
 * keeps order, else 0 (lanes.c). */
int ush_tp_lanes_ordered(const char *info);

#endif
