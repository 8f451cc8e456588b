/*
 * Whether the endpoints to other nodes keep operations in order, so that a
 * fence need not complete them.
 *
 * ucp_worker_fence orders the operations of each of the worker's
 * transports (UCX 1.13 asks each interface for its own fence: nothing on
 * TCP, whose stream is in order; a fenced work request on an RC queue
 * pair), but not operations that travel different lanes of one endpoint:
 * a put on a bandwidth lane of a second HCA and an atomic on the first may
 * land in either order. So shmem_fence (and every flag a collective sets
 * after its data) may be UCX's fence only where every RMA and atomic
 * operation to that peer travels one lane of a transport that delivers in
 * order (lanes.c); elsewhere it stays a flush, a round trip. Each
 * endpoint to another node is read once, when it is made.
 */
#include "ush_tp_impl.h"
#include "ush_tp_lanes.h"

#include <stdio.h>
#include <stdlib.h>

int ush_tp_unordered;

void ush_tp_ep_check_order(ucp_ep_h ep, int pe)
{
    char  *text = NULL;
    size_t len  = 0;
    FILE  *f;

    if (ush_tp_local(pe) || __atomic_load_n(&ush_tp_unordered, __ATOMIC_RELAXED)) return;
    if ((f = open_memstream(&text, &len)) != NULL) {
        ucp_ep_print_info(ep, f);
        fclose(f);
    }
    if (text == NULL || !ush_tp_lanes_ordered(text)) {
        /* before the endpoint is published, so no operation to this peer
         * is issued while fences still take the short path */
        __atomic_store_n(&ush_tp_unordered, 1, __ATOMIC_SEQ_CST);
    }
    free(text);
}
