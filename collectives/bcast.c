/*
 * Broadcast: binomial tree, pipelined chain, linear.
 *
 * Members are renumbered relative to the root (v = 0 is the root). Data
 * goes straight into the receivers' dest: each receiver first tells its
 * sender it is ready (it is in this call, so its dest may be overwritten),
 * then waits for the data flag. To a receiver on another node, data up to
 * SHMEM_COLL_EAGER_SIZE goes at once as an eager message instead, which
 * the receiver copies into its dest when it gets there. The root sends
 * from src and its own dest is left alone. In sets of up to USH_COLL_MBOX_N members, linear sends
 * small payloads through mailboxes instead (bcast_mbox), and the root runs
 * ahead of its receivers. Where every member maps every other, pull turns
 * the direction round: each receiver copies from the root's source itself,
 * all at once.
 */
#include "coll_sync.h"

#include "core/ush_symm.h"

/* Chunk of the pipelined chain: big enough to amortise a flag, small
 * enough that the next hop starts early. */
#define USH_COLL_CHAIN_CHUNK (64u << 10)

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
    int         top;

    if (v != 0) {
        int r = __builtin_ctz((unsigned)v), parent = member_of(s, v - (1 << r), root);
        if (ush_coll_eager(s, USH_W_DATA + r, bytes, parent)) {
            ush_coll_eager_recv(s, USH_W_DATA + r, dest, bytes, parent);
        } else {
            ush_coll_signal(s, USH_W_READY + r, parent);
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
        if (ush_coll_eager(s, USH_W_DATA + q, bytes, child)) {
            ush_coll_eager_send(s, USH_W_DATA + q, from, bytes, child);
            continue;
        }
        ush_coll_wait(s, USH_W_READY + q);
        ush_coll_put_signal(s, dest, from, bytes, USH_W_DATA + q, child);
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
            ush_coll_put_signal(s, (char *)dest + off, from + off, len, USH_W_CH_DATA, next);
        }
    }
}

/* Mailboxes. To a receiver on another node the data goes as an eager
 * message instead: its flow control is the receiver's own reports, one
 * way, where a mailbox's root reads the receiver's slots, a round trip
 * every few calls (every 4 for the 2048-byte class of a channel). Each
 * member's words hold, per payload class (8, 56, 256, 2048 bytes),
 * one queue of slots per possible root. Root x's k-th broadcast (of the
 * class, on these words and set) goes to slot k mod D of x's queue on
 * every receiver: one writer per queue, whose order the receiver follows,
 * so the root needs only to know that slot k - D has been taken. It keeps
 * per receiver a count it knows taken and looks at the slots again only
 * when that count runs out; a receiver D calls behind is all that stops
 * it. */
typedef struct {
    int base;   /* first word of the class's region */
    int slot;   /* words per slot: tag and payload */
    int depth;  /* D, slots per root */
} bcast_mbox_t;

/* The class serving bytes on s, with its geometry in m; or -1: too many
 * members or bytes, or no room for that class in s's layout. */
static int bcast_mbox_class(const ush_coll_sync_t *s, size_t bytes, bcast_mbox_t *m)
{
    /* Payload words per slot: with its tag a slot is 16, 64, 264 or 2056
     * bytes. */
    static const int payload[USH_COLL_MBOX_CLASSES] = { 1, 7, 32, USH_COLL_MBOX_MAX / 8 };
    int              n = s->set.size, cls = 0;

    /* Between two running PEs that map each other the handshake is one
     * cheap round trip, and beyond 1 KiB the mailbox's second copy (slot
     * to dest) costs more: 2 KiB took 0.47-0.68 us through it against
     * 0.30-0.37. Across the network the round trip costs far more than
     * the copy. (ush_tp_all_mapped is the same on every PE.) */
    if (n > USH_COLL_MBOX_N || (n <= 2 && bytes > 1024 && ush_tp_all_mapped)) return -1;
    m->base = USH_W_RED + s->lay->red_words;
    while (cls < USH_COLL_MBOX_CLASSES && bytes > (size_t)payload[cls] * sizeof(uint64_t))
        m->base += s->lay->mbox_words[cls++];
    if (cls == USH_COLL_MBOX_CLASSES) return -1;
    m->slot  = 1 + payload[cls];
    m->depth = s->lay->mbox_words[cls] / (n * m->slot);
    return m->depth > 0 ? cls : -1;
}

static int mbox_word(const bcast_mbox_t *m, int root, uint64_t k)
{
    return m->base + (root * m->depth + (int)(k % (uint64_t)m->depth)) * m->slot;
}

static void bcast_mbox(const ush_coll_sync_t *s, ush_coll_seq_t *q, int cls,
                       const bcast_mbox_t *m, void *dest, const void *src, size_t bytes, int root)
{
    int      n = s->set.size, me = s->set.me;
    uint64_t k = q->sent[cls][root]++, D = (uint64_t)m->depth;

    if (me != root) {
        if (ush_coll_eager(s, USH_W_DATA, bytes, root)) {
            ush_coll_eager_recv(s, USH_W_DATA, dest, bytes, root);
            return;
        }
        ush_coll_slot_recv(s, mbox_word(m, root, k), dest, bytes);
        /* A root ahead of us has filled the next slot already: start
         * fetching it (for writing: we clear it after reading). */
        __builtin_prefetch(&s->w[mbox_word(m, root, k + 1)], 1);
        return;
    }
    for (int i = 1; i < n; i++) {
        int       to    = (me + i) % n;
        uint64_t *taken = &q->taken[cls][to];
        if (ush_coll_eager(s, USH_W_DATA, bytes, to)) {
            ush_coll_eager_send(s, USH_W_DATA, src, bytes, to);
            continue;
        }
        if (k >= D && *taken < k - D + 1) {
            /* Everything up to the newest may be taken already. Else wait
             * until half the queue is: waiting for just this slot would
             * keep the root writing into the cache line the receiver is
             * reading, one transfer each way per call. */
            uint64_t mid = k - (D > 1 ? D / 2 : 1);
            if (ush_coll_slot_empty(s, mbox_word(m, root, k - 1), to)) {
                *taken = k;
            } else {
                USH_WAIT_UNTIL(ush_coll_slot_empty(s, mbox_word(m, root, mid), to));
                *taken = mid + 1;
            }
        }
        ush_coll_slot_send(s, mbox_word(m, root, k), src, bytes, to);
    }
}

/* The root sends to everyone once all have counted themselves in (or at
 * once, through the mailboxes). */
static void bcast_linear(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                         int root)
{
    int             n = s->set.size, me = s->set.me, cls;
    bcast_mbox_t    m;
    ush_coll_seq_t *q;

    if ((cls = bcast_mbox_class(s, bytes, &m)) >= 0 && (q = ush_coll_seq(s)) != NULL) {
        bcast_mbox(s, q, cls, &m, dest, src, bytes, root);
        return;
    }
    if (me != root) {
        if (ush_coll_eager(s, USH_W_DATA, bytes, root)) {
            ush_coll_eager_recv(s, USH_W_DATA, dest, bytes, root);
            return;
        }
        ush_coll_count(s, USH_W_CNT_READY, root);
        ush_coll_wait(s, USH_W_DATA);
        return;
    }
    /* Eager receivers first: they need no count-in. */
    int ready = 0;
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n;
        if (ush_coll_eager(s, USH_W_DATA, bytes, to)) {
            ush_coll_eager_send(s, USH_W_DATA, src, bytes, to);
        } else {
            ready++;
        }
    }
    if (ready == 0) return;
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)ready);
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n;
        if (!ush_coll_eager(s, USH_W_DATA, bytes, to))
            ush_coll_put_signal(s, dest, src, bytes, USH_W_DATA, to);
    }
}

/* Pull, for members that map each other: once every receiver has counted
 * itself in, the root tells each where its source is (segment and offset,
 * in the data word's value), and the receivers copy it into their own dest
 * at the same time, each on its own core: one copy's time where linear
 * makes the root copy n - 1 times and the chain passes every byte through
 * n - 1 hops (at 4 PEs on 2 cores, 256 KiB: 22 us against the chain's 34).
 * The root returns when all have counted their copy done, so its source
 * may change again. A root whose source is not symmetric (other
 * implementations put from any local buffer, and programs rely on it)
 * writes into the receivers' dest itself, as linear does, and says so
 * with the value 1. At most one value waits in a receiver's data word:
 * the next one needs its next count in. */
#define BCAST_PUSHED 1u

static void bcast_pull(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                       int root)
{
    int    n = s->set.size, me = s->set.me;
    size_t off = 0; /* set by ush_seg_find where seg >= 0, its only use */

    if (me != root) {
        ush_coll_count(s, USH_W_CNT_READY, root);
        uint64_t where;
        USH_WAIT_UNTIL((where = __atomic_load_n(&s->w[USH_W_DATA], __ATOMIC_ACQUIRE)) != 0);
        ush_coll_amo_self(s, USH_W_DATA, (uint64_t)0 - where);
        if (where == BCAST_PUSHED) return;
        const char *from = (const char *)ush_seg[(where >> 1) & 0x3f].base + (where >> 8);
        ush_get(SHMEM_CTX_DEFAULT, dest, from, bytes, ush_coll_world(s, root));
        ush_coll_count(s, USH_W_CNT_DATA, root);
        return;
    }
    int seg = ush_seg_find(src, bytes, &off);
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    if (seg < 0) {
        for (int k = 1; k < n; k++) ush_coll_put(s, dest, src, bytes, (me + k) % n);
        ush_coll_fence();
    }
    /* bit 0 clear: pull; bits 1-6 the segment; then the offset */
    uint64_t where = seg < 0 ? BCAST_PUSHED : (uint64_t)off << 8 | (uint64_t)seg << 1 | 0x80;
    for (int k = 1; k < n; k++)
        ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &s->w[USH_W_DATA], where, sizeof(uint64_t),
                     ush_coll_world(s, (me + k) % n));
    if (seg >= 0) ush_coll_wait_count(s, USH_W_CNT_DATA, (uint64_t)n - 1);
}

void ush_coll_bcast(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                    int root)
{
    int          n = s->set.size, algo;
    bcast_mbox_t m;

    if (n == 1) return;
    algo = ush_coll_select(USH_COLL_BCAST, bytes, n);
    /* The table takes linear for sets larger than USH_COLL_LINEAR_MAX for
     * its mailboxes only; a team's layout has none there beyond 56 bytes,
     * and then the tree serves, as it does for still larger sets. */
    if (algo == 2 && n > USH_COLL_LINEAR_MAX && ush_coll_forced_algo(USH_COLL_BCAST) < 0 &&
        bcast_mbox_class(s, bytes, &m) < 0)
        algo = 0;
    switch (algo) {
    case 1:  bcast_chain(s, dest, src, bytes, root); break;
    case 2:  bcast_linear(s, dest, src, bytes, root); break;
    case 3:  bcast_pull(s, dest, src, bytes, root); break;
    default: bcast_tree(s, dest, src, bytes, root); break;
    }
}
