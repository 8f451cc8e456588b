/*
 * Broadcast: binomial tree, pipelined chain, linear.
 *
 * Members are renumbered relative to the root (v = 0 is the root). Data
 * goes straight into the receivers' dest: each receiver first tells its
 * sender it is ready (it is in this call, so its dest may be overwritten),
 * then waits for the data flag. The root sends from src and its own dest
 * is left alone. Between two members, up to USH_COLL_WORDS_MAX bytes
 * travel in the receiver's sync words instead (bcast_in_words).
 */
#include "coll_sync.h"

/* Chunk of the pipelined chain: big enough to amortise a flag, small
 * enough that the next hop starts early. */
#define USH_COLL_CHAIN_CHUNK (64u << 10)

/* Whether the data travels in the receivers' sync words, without the
 * ready round trip. Only with two members: ush_coll_send_words keeps one
 * sender from overwriting its own unread payload, but with more members a
 * later call with another root (on the same pSync, two calls on, which
 * broadcast does not order) could have another sender fill the words
 * before this call's sender, and the receiver would take that data. */
static int bcast_in_words(const ush_coll_sync_t *s, size_t bytes)
{
    return s->set.size == 2 && bytes <= USH_COLL_WORDS_MAX;
}

static int member_of(const ush_coll_sync_t *s, int v, int root)
{
    return (v + root) % s->set.size;
}

/* Binomial tree: v receives from v - 2^r where r is v's lowest set bit, in
 * round r; then sends to v + 2^q for q < r (largest subtree first). */
static void bcast_tree(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                       int root)
{
    int         n    = s->set.size;
    int         v    = (s->set.me - root + n) % n;
    const void *from = v == 0 ? src : dest;
    int         small = bcast_in_words(s, bytes);
    int         top;

    if (v != 0) {
        int r = __builtin_ctz((unsigned)v);
        if (small) {
            ush_coll_recv_words(s, USH_W_VAL, dest, bytes, USH_W_DATA + r);
        } else {
            ush_coll_signal(s, USH_W_READY + r, member_of(s, v - (1 << r), root));
            ush_coll_wait(s, USH_W_DATA + r);
        }
        top = r;
    } else {
        top = ush_coll_log2ceil(n);
    }
    for (int q = top - 1; q >= 0; q--) {
        int c = v + (1 << q);
        if (c >= n) continue;
        int child = member_of(s, c, root);
        if (small) {
            ush_coll_send_words(s, USH_W_VAL, from, bytes, USH_W_DATA + q, child);
            continue;
        }
        ush_coll_wait(s, USH_W_READY + q);
        ush_coll_put(s, dest, from, bytes, child);
        ush_coll_fence();
        ush_coll_signal(s, USH_W_DATA + q, child);
    }
}

/* Chain v -> v + 1, cut into chunks so every link works at once. */
static void bcast_chain(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                        int root)
{
    int         n      = s->set.size;
    int         v      = (s->set.me - root + n) % n;
    size_t      chunk  = USH_COLL_CHAIN_CHUNK;
    uint64_t    nch    = bytes ? (bytes + chunk - 1) / chunk : 1;
    int         next   = v + 1 < n ? member_of(s, v + 1, root) : -1;
    const char *from   = v == 0 ? src : dest;

    if (v > 0) ush_coll_signal(s, USH_W_CH_READY, member_of(s, v - 1, root));
    if (next >= 0) ush_coll_wait(s, USH_W_CH_READY);
    for (uint64_t c = 0; c < nch; c++) {
        size_t off = c * chunk, len = bytes - off < chunk ? bytes - off : chunk;
        if (v > 0) ush_coll_wait(s, USH_W_CH_DATA);
        if (next >= 0) {
            ush_coll_put(s, (char *)dest + off, from + off, len, next);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_CH_DATA, next);
        }
    }
}

/* The root sends to everyone once all have counted themselves in (or at
 * once, through the sync words). */
static void bcast_linear(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                         int root)
{
    int n = s->set.size, me = s->set.me;

    if (bcast_in_words(s, bytes)) {
        if (me != root) {
            ush_coll_recv_words(s, USH_W_VAL, dest, bytes, USH_W_DATA);
            return;
        }
        for (int k = 1; k < n; k++) {
            ush_coll_send_words(s, USH_W_VAL, src, bytes, USH_W_DATA, (me + k) % n);
        }
        return;
    }
    if (me != root) {
        ush_coll_count(s, USH_W_CNT_READY, root);
        ush_coll_wait(s, USH_W_DATA);
        return;
    }
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    for (int k = 1; k < n; k++) ush_coll_put(s, dest, src, bytes, (me + k) % n);
    ush_coll_fence();
    for (int k = 1; k < n; k++) ush_coll_signal(s, USH_W_DATA, (me + k) % n);
}

void ush_coll_bcast(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                    int root)
{
    if (s->set.size == 1) return;
    switch (ush_coll_select(USH_COLL_BCAST, bytes, s->set.size)) {
    case 1:  bcast_chain(s, dest, src, bytes, root); break;
    case 2:  bcast_linear(s, dest, src, bytes, root); break;
    default: bcast_tree(s, dest, src, bytes, root); break;
    }
}
