/*
 * fcollect (every member contributes `bytes`; member i's block lands at
 * dest + i * bytes everywhere): recursive doubling, ring, linear.
 *
 * Blocks go straight to their final place in the receivers' dest, and the
 * blocks a member receives never overlap the ones it is sending, so one
 * "ready" per link per call is enough. Under rd, small blocks skip even
 * that: they go through per-source slots in the receivers' sync words
 * (fcollect_slots).
 */
#include "coll_sync.h"

static char *blk(void *dest, int i, size_t bytes)
{
    return (char *)dest + (size_t)i * bytes;
}

/* Recursive doubling over the largest power of two p2 <= n. Members
 * p2..n-1 first hand their block to member v - p2 and get the whole result
 * back at the end. In round r member v swaps with v ^ 2^r everything it
 * holds: the blocks of its aligned group of 2^r members and of their
 * extras. A partner on another node, while the whole result is at most
 * SHMEM_COLL_EAGER_SIZE, gets them as eager messages, with no ready. */
static void rd_extras(int g, int r, int p2, int rem, int *e0, int *e1)
{
    int gend = g + (1 << r);
    *e0 = g + p2;
    *e1 = (gend < rem ? gend : rem) + p2;
}

static void fcollect_rd(const ush_coll_sync_t *s, void *dest, size_t bytes)
{
    int    n = s->set.size, v = s->set.me;
    int    p2 = ush_coll_pow2floor(n), rem = n - p2, R = ush_coll_log2ceil(p2);
    size_t all = (size_t)n * bytes;

    if (v >= p2) {
        int base = v - p2;
        if (ush_coll_eager(s, USH_W_XDATA, all, base)) {
            ush_coll_eager_send(s, USH_W_XDATA, blk(dest, v, bytes), bytes, base);
            ush_coll_eager_recv(s, USH_W_XDATA, dest, (size_t)v * bytes, base);
            if (v + 1 < n)
                ush_coll_eager_recv(s, USH_W_XDATA, blk(dest, v + 1, bytes),
                                    (size_t)(n - v - 1) * bytes, base);
            return;
        }
        ush_coll_signal(s, USH_W_XREADY, base);
        ush_coll_wait(s, USH_W_XREADY);
        ush_coll_put_signal(s, blk(dest, v, bytes), blk(dest, v, bytes), bytes, USH_W_XDATA, base);
        ush_coll_wait(s, USH_W_XDATA);
        return;
    }
    int x = v + p2, xeager = v < rem && ush_coll_eager(s, USH_W_XDATA, all, x);
    if (v < rem && !xeager) ush_coll_signal(s, USH_W_XREADY, x);
    for (int r = 0; r < R; r++) {
        if (!ush_coll_eager(s, USH_W_DATA + r, all, v ^ (1 << r)))
            ush_coll_signal(s, USH_W_READY + r, v ^ (1 << r));
    }
    if (v < rem) {
        if (xeager) {
            ush_coll_eager_recv(s, USH_W_XDATA, blk(dest, x, bytes), bytes, x);
        } else {
            ush_coll_wait(s, USH_W_XDATA);
        }
    }
    for (int r = 0; r < R; r++) {
        int    partner = v ^ (1 << r);
        int    g = v & ~((1 << r) - 1), e0, e1;
        size_t run = (size_t)(1 << r) * bytes;
        rd_extras(g, r, p2, rem, &e0, &e1);
        if (ush_coll_eager(s, USH_W_DATA + r, all, partner)) {
            int pg = partner & ~((1 << r) - 1), p0, p1;
            rd_extras(pg, r, p2, rem, &p0, &p1);
            if (e0 < e1)
                ush_coll_eager_send(s, USH_W_DATA + r, blk(dest, e0, bytes),
                                    (size_t)(e1 - e0) * bytes, partner);
            ush_coll_eager_send(s, USH_W_DATA + r, blk(dest, g, bytes), run, partner);
            if (p0 < p1)
                ush_coll_eager_recv(s, USH_W_DATA + r, blk(dest, p0, bytes),
                                    (size_t)(p1 - p0) * bytes, partner);
            ush_coll_eager_recv(s, USH_W_DATA + r, blk(dest, pg, bytes), run, partner);
            continue;
        }
        ush_coll_wait(s, USH_W_READY + r);
        if (e0 < e1) {
            ush_coll_put(s, blk(dest, e0, bytes), blk(dest, e0, bytes), (size_t)(e1 - e0) * bytes,
                         partner);
            ush_coll_fence();
        }
        ush_coll_put_signal(s, blk(dest, g, bytes), blk(dest, g, bytes), run, USH_W_DATA + r,
                            partner);
        ush_coll_wait(s, USH_W_DATA + r);
    }
    if (v < rem) {
        if (xeager) {
            ush_coll_eager_send(s, USH_W_XDATA, dest, (size_t)x * bytes, x);
            if (x + 1 < n)
                ush_coll_eager_send(s, USH_W_XDATA, blk(dest, x + 1, bytes),
                                    (size_t)(n - x - 1) * bytes, x);
            return;
        }
        ush_coll_wait(s, USH_W_XREADY);
        if (x + 1 < n) {
            ush_coll_put(s, blk(dest, x + 1, bytes), blk(dest, x + 1, bytes),
                         (size_t)(n - x - 1) * bytes, x);
            ush_coll_fence();
        }
        ush_coll_put_signal(s, dest, dest, (size_t)x * bytes, USH_W_XDATA, x);
    }
}

/* Every member's block into its slot on every other member, then the
 * n - 1 blocks out of our slots into dest (ush_coll_slot_half says why no
 * slot needs checking). */
static void fcollect_slots(const ush_coll_sync_t *s, ush_coll_seq_t *q, void *dest, size_t bytes)
{
    int n = s->set.size, v = s->set.me, S = ush_coll_slot_words(s);
    int half = ush_coll_slot_half(s, q);

    for (int k = 1; k < n; k++)
        ush_coll_slot_send(s, half + v * S, blk(dest, v, bytes), bytes, (v + k) % n);
    for (int k = 1; k < n; k++) {
        int i = (v - k + n) % n;
        ush_coll_slot_recv(s, half + i * S, blk(dest, i, bytes), bytes);
    }
}

/* Ring: in step k each member passes block (v - k) to its right. */
static void fcollect_ring(const ush_coll_sync_t *s, void *dest, size_t bytes)
{
    int n = s->set.size, v = s->set.me;
    int left = (v - 1 + n) % n, right = (v + 1) % n;

    ush_coll_signal(s, USH_W_CH_READY, left);
    ush_coll_wait(s, USH_W_CH_READY);
    for (int k = 0; k < n - 1; k++) {
        int b = (v - k + n) % n;
        if (k > 0) ush_coll_wait(s, USH_W_CH_DATA);
        ush_coll_put_signal(s, blk(dest, b, bytes), blk(dest, b, bytes), bytes, USH_W_CH_DATA, right);
    }
    ush_coll_wait(s, USH_W_CH_DATA);
}

/* Everyone puts its block to everyone, once all have counted in. */
static void fcollect_linear(const ush_coll_sync_t *s, void *dest, size_t bytes)
{
    int n = s->set.size, v = s->set.me;

    for (int k = 1; k < n; k++) ush_coll_count(s, USH_W_CNT_READY, (v + k) % n);
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    for (int k = 1; k < n; k++) {
        ush_coll_put_signal(s, blk(dest, v, bytes), blk(dest, v, bytes), bytes, USH_W_CNT_DATA,
                            (v + k) % n);
    }
    ush_coll_wait_count(s, USH_W_CNT_DATA, (uint64_t)n - 1);
}

void ush_coll_fcollect(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes)
{
    char           *mine = blk(dest, s->set.me, bytes);
    ush_coll_seq_t *q;

    if (mine != (const char *)src) memmove(mine, src, bytes);
    if (s->set.size == 1) return;
    switch (ush_coll_select(USH_COLL_FCOLLECT, bytes, s->set.size)) {
    case 1:  fcollect_ring(s, dest, bytes); break;
    case 2:  fcollect_linear(s, dest, bytes); break;
    default:
        if (ush_coll_slot_fits(ush_coll_slot_words(s), bytes) && (q = ush_coll_seq(s)) != NULL) {
            fcollect_slots(s, q, dest, bytes);
        } else {
            fcollect_rd(s, dest, bytes);
        }
        break;
    }
}
