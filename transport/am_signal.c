/*
 * Put-with-add in one active message, for the collectives' traffic to
 * PEs that are not mapped.
 *
 * Where UCX has no RMA or atomics in hardware (TCP, or any path where it
 * emulates them with active messages), a put and an atomic are each a
 * message that the target answers with a completion message of its own,
 * so data and flag cost four messages, and the target sends two of them
 * before its wait can see the flag. One message carrying both, applied by
 * the target's handler (the data copied, then the flag added with a
 * release), costs one: the receiver of a collective is waiting in it, so
 * it runs the handler as soon as the message is in.
 *
 * The flag is added with the CPU's atomics, so this serves only jobs whose
 * atomics are the CPU's everywhere (ush_tp_direct_amo); with device
 * atomics a flag word must take no other kind. And only jobs that span
 * nodes ask UCX for active messages (ush_tp_am): on one node the unmapped
 * peers are rare (UCX_TLS without shared memory), and UCX's TCP transport
 * with active messages crashes under QEMU's user-mode emulation, where
 * the cross builds' tests run.
 *
 * A quiet does not complete these (UCX flushes active messages only
 * locally); the receiver's wait for the flag is what completes them, which
 * is all the collectives need.
 */
#include "ush_tp_impl.h"

#include <string.h>

int ush_tp_am;

/* Our active message's id on the default worker (am_eager.c has 8, 9). */
#define USH_TP_AM_PUT_ADD 7

typedef struct {
    uint64_t off;     /* where the data goes: offset in segment seg */
    uint64_t sig_off; /* the flag: offset in segment sig_seg */
    uint64_t add;
    uint8_t  seg, sig_seg;
} ush_tp_am_put_add_t;

void ush_tp_am_header(void *h, size_t size, const void *header, size_t header_length,
                      const ucp_am_recv_param_t *param)
{
    if (header_length != size || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        ush_tp_fatal("malformed collective message (%zu header bytes, flags 0x%llx)",
                     header_length, (unsigned long long)param->recv_attr);
    }
    memcpy(h, header, size);
}

static ucs_status_t ush_tp_am_put_add_cb(void *arg, const void *header, size_t header_length,
                                         void *data, size_t length,
                                         const ucp_am_recv_param_t *param)
{
    ush_tp_am_put_add_t h;
    (void)arg;

    ush_tp_am_header(&h, sizeof h, header, header_length, param);
    if (length) memcpy((char *)ush_tp.seg_base[h.seg] + h.off, data, length);
    /* the data before the flag, for the acquire load that sees the flag */
    __atomic_add_fetch((uint64_t *)((char *)ush_tp.seg_base[h.sig_seg] + h.sig_off), h.add,
                       __ATOMIC_RELEASE);
    return UCS_OK;
}

ush_tp_status_t ush_tp_am_set_handler(ucp_worker_h worker, unsigned id, ucp_am_recv_callback_t cb)
{
    ucp_am_handler_param_t prm = {
        .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_ARG,
        .id         = id,
        .cb         = cb,
        .arg        = NULL,
    };
    ucs_status_t st = ucp_worker_set_am_recv_handler(worker, &prm);
    if (st != UCS_OK) {
        ush_tp_set_error("ucp_worker_set_am_recv_handler: %s", ucs_status_string(st));
        return USH_TP_ERR_UCX;
    }
    return USH_TP_OK;
}

void ush_tp_am_send(ush_tp_ctx_t *c, int pe, unsigned id, const void *hdr, size_t hdr_len,
                    const void *src, size_t len)
{
    /* Eager: the handler finds the data in the message, never a
     * rendezvous to complete first. Waited for: the header is the
     * caller's. */
    ucp_request_param_t prm = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
        .flags        = UCP_AM_SEND_FLAG_EAGER,
    };
    ucs_status_ptr_t req = ucp_am_send_nbx(ush_tp_ep(c, pe), id, hdr, hdr_len, src, len, &prm);
    ucs_status_t     st  = ush_tp_wait(c, req);
    if (st != UCS_OK) ush_tp_fatal_op("ucp_am_send_nbx", pe, st);
}

ush_tp_status_t ush_tp_am_init(ucp_worker_h worker)
{
    ush_tp_status_t ret = ush_tp_am_set_handler(worker, USH_TP_AM_PUT_ADD, ush_tp_am_put_add_cb);
    if (ret == USH_TP_OK) ush_tp_am = 1;
    return ret;
}

void ush_tp_put_add(ush_tp_ctx_t *c, int pe, int seg, size_t off, const void *src, size_t len,
                    int sig_seg, size_t sig_off, uint64_t add)
{
    ush_tp_am_put_add_t h = {
        .off = off, .sig_off = sig_off, .add = add, .seg = (uint8_t)seg, .sig_seg = (uint8_t)sig_seg,
    };
    ush_tp_am_send(c, pe, USH_TP_AM_PUT_ADD, &h, sizeof h, src, len);
}
