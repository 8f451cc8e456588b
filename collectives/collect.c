/*
 * collect: like fcollect, but each member brings its own number of bytes
 * and the blocks are concatenated in member order.
 *
 * First every member learns where its block starts: an inclusive prefix
 * sum of the sizes (Hillis-Steele: in round r add what member v - 2^r held,
 * ceil(log2 n) rounds, the partial sums travel in the VAL words). Then the
 * blocks move, linearly or around a ring. The slots algorithm skips all
 * that for sets small enough to give every member a slot (collect_slots).
 */
#include "coll_sync.h"

/* Members a set may have for collect_slots: a slot (a tag at least) per
 * member in half of the slot region, whichever layout. */
#define USH_COLL_COLLECT_SLOTS_N (USH_COLL_ASET_RED / 2)
_Static_assert(USH_COLL_TEAM_RED <= USH_COLL_ASET_RED, "team slots larger than a channel's");

/* Returns the sum of the sizes of members 0..me-1. */
static uint64_t collect_offset(const ush_coll_sync_t *s, uint64_t mine)
{
    int      n = s->set.size, v = s->set.me;
    uint64_t x = mine;

    for (int r = 0; (1 << r) < n; r++) {
        if (v - (1 << r) >= 0) ush_coll_signal(s, USH_W_READY + r, v - (1 << r));
    }
    for (int r = 0; (1 << r) < n; r++) {
        int to = v + (1 << r), from = v - (1 << r);
        if (to < n) {
            ush_coll_wait(s, USH_W_READY + r);
            ush_coll_put_signal(s, &s->w[USH_W_VAL + r], &x, sizeof x, USH_W_DATA + r, to);
        }
        if (from >= 0) {
            ush_coll_wait(s, USH_W_DATA + r);
            x += ush_coll_take(s, USH_W_VAL + r);
        }
    }
    return x - mine;
}

/* Our block, already at off in dest, put into every other member's dest
 * and counted in their DATA counters. */
static void collect_send(const ush_coll_sync_t *s, char *dest, uint64_t off, size_t bytes)
{
    int n = s->set.size, v = s->set.me;

    for (int k = 1; k < n; k++)
        ush_coll_put_signal(s, dest + off, dest + off, bytes, USH_W_CNT_DATA, (v + k) % n);
}

/* Each member puts its block to all, once all have counted in. */
static void collect_linear(const ush_coll_sync_t *s, char *dest, uint64_t off, size_t bytes)
{
    int n = s->set.size, v = s->set.me;

    for (int k = 1; k < n; k++) ush_coll_count(s, USH_W_CNT_READY, (v + k) % n);
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    collect_send(s, dest, off, bytes);
    ush_coll_wait_count(s, USH_W_CNT_DATA, (uint64_t)n - 1);
}

/* Every member sends its length (as its slot's tag: length + 1, never 0)
 * and its block, when that fits, into its slot on every other member. One
 * transfer each way and no handshake, where the prefix sum and the linear
 * exchange take ceil(log2 n) + 2 round trips; on an oversubscribed node
 * each round trip may wait for a peer to get a core. Every member learns
 * every length, so all know the offsets and which blocks did not fit;
 * those go straight into the others' dest, which may be written now:
 * holding a member's slot of this call, we know it is in the call.
 * To a member on another node a block too large for the slot goes instead
 * of the tag as an eager message (up to SHMEM_COLL_EAGER_SIZE), whose
 * length is the block's: the receiver, not knowing the length yet, takes
 * whichever of the two comes. The message is named by the sender's slot
 * of this call's half, so one of the next call (the other half) is never
 * taken for it, whatever the order the two kinds of message travel in.
 * ush_coll_slot_half says why no slot needs checking before a send. */
static void collect_slots(const ush_coll_sync_t *s, ush_coll_seq_t *q, char *dest,
                          const void *src, size_t bytes)
{
    int      n = s->set.size, v = s->set.me, S = ush_coll_slot_words(s);
    int      half = ush_coll_slot_half(s, q);
    size_t   cap  = (size_t)(S - 1) * sizeof(uint64_t);
    uint64_t len[USH_COLL_COLLECT_SLOTS_N], off = 0, mine = 0, big = 0;
    void       *msg[USH_COLL_COLLECT_SLOTS_N];
    const void *data[USH_COLL_COLLECT_SLOTS_N];

    for (int k = 1; k < n; k++) {
        int to = (v + k) % n;
        if (bytes > cap && ush_coll_eager(s, half + v * S, bytes, to)) {
            ush_coll_eager_send(s, half + v * S, src, bytes, to);
        } else {
            ush_coll_slot_send_tag(s, half + v * S, src, bytes <= cap ? bytes : 0,
                                   (uint64_t)bytes + 1, to);
        }
    }
    for (int i = 0; i < n; i++) {
        msg[i] = NULL;
        if (i == v) {
            len[i] = bytes;
        } else if (ush_coll_eager(s, half + i * S, 0, i)) {
            size_t   l;
            uint64_t tag = 0;
            USH_WAIT_UNTIL((tag = __atomic_load_n(&s->w[half + i * S], __ATOMIC_ACQUIRE)) != 0 ||
                           (msg[i] = ush_eager_poll(&s->w[half + i * S], ush_coll_world(s, i),
                                                    &data[i], &l)) != NULL);
            len[i] = msg[i] ? l : tag - 1;
        } else {
            len[i] = ush_coll_slot_wait(s, half + i * S) - 1;
        }
    }
    for (int i = 0; i < n; i++) {
        if (i == v) {
            mine = off;
        } else if (msg[i]) {
            if (len[i]) memcpy(dest + off, data[i], len[i]);
            ush_eager_done(msg[i]);
        } else {
            ush_coll_slot_take(s, half + i * S, dest + off, len[i] <= cap ? len[i] : 0);
            big += len[i] > cap;
        }
        off += len[i];
    }
    if (bytes && dest + mine != (const char *)src) memmove(dest + mine, src, bytes);
    if (bytes > cap) {
        for (int k = 1; k < n; k++) {
            int to = (v + k) % n;
            if (!ush_coll_eager(s, half + v * S, bytes, to))
                ush_coll_put_signal(s, dest + mine, dest + mine, bytes, USH_W_CNT_DATA, to);
        }
    }
    if (big) ush_coll_wait_count(s, USH_W_CNT_DATA, big);
}

/* Ring: step k passes on the block received in step k - 1 (our own at
 * k = 0), with its offset and length in the right's META words. The
 * right's ready for step k means it has read step k - 1's META. */
static void collect_ring(const ush_coll_sync_t *s, char *dest, uint64_t off, size_t bytes)
{
    int      n = s->set.size, v = s->set.me;
    int      left = (v - 1 + n) % n, right = (v + 1) % n;
    uint64_t meta[2] = { off, bytes };

    ush_coll_signal(s, USH_W_CH_READY, left);
    for (int k = 0; k < n - 1; k++) {
        ush_coll_wait(s, USH_W_CH_READY);
        ush_coll_put(s, dest + meta[0], dest + meta[0], meta[1], right);
        ush_coll_fence();
        ush_coll_put_signal(s, &s->w[USH_W_META], meta, sizeof meta, USH_W_CH_DATA, right);
        ush_coll_wait(s, USH_W_CH_DATA);
        meta[0] = ush_coll_take(s, USH_W_META);
        meta[1] = ush_coll_take(s, USH_W_META + 1);
        if (k < n - 2) ush_coll_signal(s, USH_W_CH_READY, left);
    }
}

void ush_coll_collect(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes)
{
    int             algo = ush_coll_select(USH_COLL_COLLECT, 0, s->set.size);
    ush_coll_seq_t *q;

    /* (a member with nothing to give may pass NULL buffers) */
    if (s->set.size == 1) {
        if (bytes && dest != src) memmove(dest, src, bytes);
        return;
    }
    /* Decided by the set alone (not by bytes, which differ per member), so
     * every member takes the same path; slots where they cannot serve (a
     * larger set, or a job whose threads share the call counters) is
     * linear. */
    if (algo == 2 && s->set.size <= USH_COLL_COLLECT_SLOTS_N && ush_coll_slot_words(s) >= 1 &&
        (q = ush_coll_seq(s)) != NULL) {
        collect_slots(s, q, dest, src, bytes);
        return;
    }
    uint64_t off = collect_offset(s, bytes);
    char    *d   = dest;
    if (bytes && d + off != (const char *)src) memmove(d + off, src, bytes);
    if (algo == 1) {
        collect_ring(s, d, off, bytes);
    } else {
        collect_linear(s, d, off, bytes);
    }
}
