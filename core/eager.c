/*
 * A collective's eager messages, named by a symmetric address: the
 * address becomes the transport's key (its segment and offset, the same
 * on every PE), and the waits are the library's own (wait.c), so a
 * receiver or a sender out of room serves its peers while it waits.
 */
#include "ush.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

static uint64_t ush_eager_key(const void *tag)
{
    size_t off;
    int    seg = ush_seg_find(tag, sizeof(uint64_t), &off);
    if (seg < 0) ush_fatal("shmem collectives", "internal: message tag %p is not symmetric", tag);
    return (uint64_t)off << 8 | (uint64_t)seg;
}

int ush_eager_ok(const void *tag, size_t len, int pe)
{
    /* ush_tp_am and the limit are the same on every PE; whether two PEs
     * map each other is the same both ways. */
    return ush_tp_am && len <= ush_g.env.coll_eager_size && ush_ptr(tag, pe) == NULL;
}

void ush_eager_send(const void *tag, const void *src, size_t len, int pe)
{
    uint64_t key = ush_eager_key(tag);
    USH_WAIT_UNTIL(ush_tp_eager_room(pe));
    ush_tp_eager_send(ush_ctx_default.tp, pe, key, src, len);
}

void *ush_eager_recv(const void *tag, int pe, const void **data, size_t *len)
{
    uint64_t            key = ush_eager_key(tag);
    ush_tp_eager_msg_t *m;
    USH_WAIT_UNTIL((m = ush_tp_eager_find(pe, key, data, len)) != NULL);
    return m;
}

void *ush_eager_poll(const void *tag, int pe, const void **data, size_t *len)
{
    return ush_tp_eager_find(pe, ush_eager_key(tag), data, len);
}

void ush_eager_done(void *msg)
{
    ush_tp_eager_done(msg);
}
