/*
 * Put-with-signal: the payload, then the signal, with nothing able to
 * overtake in between. The payload and the signal may take different
 * routes (a mapped heap and static data reached through UCX, or CPU
 * atomics refused on a multi-node job), so the order is made with
 * ush_fence, which covers every pair of routes: a release barrier for
 * direct stores, and a flush when UCX operations are outstanding, so a
 * UCX put has landed before the signal is updated by a direct store or by
 * a UCX atomic (UCX does not promise that a put and a later atomic to the
 * same PE arrive in order).
 *
 * On a weakly ordered CPU, per pair of routes: direct payload, direct
 * signal: the release fence, then the signal's seq_cst CPU atomic; the
 * waiter's relaxed load and acquire fence (signal_api.c) pair with it.
 * UCX payload, direct signal: the flush returns once the target has the
 * data, and the acquire fence after it (ush_tp_quiet) keeps the signal's
 * store after the acknowledgement was read. Direct payload, UCX signal:
 * the release fence orders the stores before UCX's own publication of the
 * atomic (its shared-memory FIFOs and network doorbells fence
 * themselves), and the target applies it after reading it. UCX both:
 * UCX's fence where the peer's endpoint keeps order (one lane), else the
 * flush (transport/order.c).
 */
#include "ush.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

void ush_put_signal(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes,
                    uint64_t *sig_addr, uint64_t signal, ush_amo_op_t sig_op, int pe,
                    int blocking)
{
    if (nbytes) {
        if (blocking) {
            ush_put(ctx, dest, src, nbytes, pe);
        } else {
            ush_put_nbi(ctx, dest, src, nbytes, pe);
        }
        ush_fence(ctx);
    }
    /* An atomic, never a put: the waiting PE must not see a torn word,
     * and concurrent ADDs from several PEs must all count. */
    ush_amo_post(ctx, sig_op, sig_addr, signal, sizeof(uint64_t), pe);
}

void ush_put_add_own(void *dest, const void *src, size_t nbytes, uint64_t *sig_addr, uint64_t add,
                     int pe)
{
    size_t soff, off = 0;
    int    sseg = ush_seg_find(sig_addr, sizeof *sig_addr, &soff);
    int    seg  = nbytes ? ush_seg_find(dest, nbytes, &off) : sseg;

    if (sseg < 0 || seg < 0) {
        ush_fatal("shmem collectives", "internal: flag %p or data %p is not symmetric",
                  (void *)sig_addr, dest);
    }
    /* Another node, atomics the CPU's: one message carries both. */
    if (ush_tp_am && ush_tp_direct_amo && ush_tp_mapped(pe, sseg) == NULL &&
        (nbytes == 0 || ush_tp_mapped(pe, seg) == NULL)) {
        ush_tp_put_add(ush_ctx_default.tp, pe, seg, off, src, nbytes, sseg, soff, add);
        return;
    }
    ush_tp_unowed = 1;
    if (nbytes) {
        ush_put(SHMEM_CTX_DEFAULT, dest, src, nbytes, pe);
        ush_fence(SHMEM_CTX_DEFAULT);
    }
    ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, sig_addr, add, sizeof *sig_addr, pe);
    ush_tp_unowed = 0;
}
