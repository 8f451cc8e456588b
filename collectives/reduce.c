/*
 * All-reduce: recursive doubling, ring (reduce-scatter then allgather),
 * linear (member 0 folds everyone in order, then hands the result out),
 * direct (members that map each other fold and copy in place).
 *
 * dest is the accumulator: it starts as a copy of src, and partial results
 * move from one member's dest into another's scratch (pWrk, or the team's
 * scratch), the only receive buffer; the data is processed in chunks that
 * fit it. A member announces "ready" for each use of its scratch once it
 * has folded the previous contents in.
 */
#include "coll_sync.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* Recursive doubling through slots in the sync words: small data goes
 * straight into the partner's slot, with no "ready" round trip and no
 * check that the slot is free (ush_coll_slot_half says why). A half has
 * one slot per round and one for the extras (at the base: the extra's
 * contribution; at the extra: the result). */
static size_t rd_slot_words(const ush_coll_sync_t *s)
{
    int R = ush_coll_log2ceil(ush_coll_pow2floor(s->set.size));
    return (size_t)(s->lay->red_words / 2) / (size_t)(R + 1);
}

/* Waits for the slot at word, then folds its payload into d. */
static void fold_slot(const ush_coll_sync_t *s, char *d, size_t count, size_t es, int word,
                      ush_coll_op_fn_t op)
{
    uint64_t x[USH_COLL_ASET_RED / 2]; /* more than any slot's payload */
    ush_coll_slot_recv(s, word, x, count * es);
    op(d, x, count);
}

static void reduce_rd_slots(const ush_coll_sync_t *s, ush_coll_seq_t *q, char *dest,
                            size_t count, size_t es, ush_coll_op_fn_t op)
{
    int    n = s->set.size, v = s->set.me;
    int    p2 = ush_coll_pow2floor(n), rem = n - p2, R = ush_coll_log2ceil(p2);
    int    S = (int)rd_slot_words(s);
    int    base = ush_coll_slot_half(s, q), xslot = base + R * S;
    size_t bytes = count * es;

    if (v >= p2) {
        ush_coll_slot_send(s, xslot, dest, bytes, v - p2);
        ush_coll_slot_recv(s, xslot, dest, bytes);
        return;
    }
    if (v < rem) fold_slot(s, dest, count, es, xslot, op);
    for (int r = 0; r < R; r++) {
        ush_coll_slot_send(s, base + r * S, dest, bytes, v ^ (1 << r));
        fold_slot(s, dest, count, es, base + r * S, op);
    }
    if (v < rem) ush_coll_slot_send(s, xslot, dest, bytes, v + p2);
}

/* Recursive doubling on a power-of-two set, for data larger than the
 * scratch. The scratch is cut in two halves, used by alternate steps
 * (step t = chunk * R + round), and a member tells the partner of step
 * t + 2 that its half is free as soon as it has folded step t out of it.
 * So a partner copies the next step in while this member folds the
 * current one, and no step waits for a "ready" that could have been sent
 * a step earlier. Every READY + r signal is for the next step of round r
 * with that partner, and each step of round r takes one: the counts pair
 * them up in order. */
static void reduce_rd_pipe(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                           ush_coll_op_fn_t op)
{
    int      v = s->set.me, R = ush_coll_log2ceil(s->set.size);
    size_t   chunk = s->scratch_bytes / 2 / es;
    uint64_t steps = (count + chunk - 1) / chunk * (uint64_t)R;
    char    *half[2] = { s->scratch, (char *)s->scratch + chunk * es };

    for (uint64_t t = 0; t < 2 && t < steps; t++)
        ush_coll_signal(s, USH_W_READY + (int)(t % R), v ^ (1 << (t % R)));
    for (uint64_t t = 0; t < steps; t++) {
        uint64_t c = t / (uint64_t)R;
        int      r = (int)(t % (uint64_t)R), partner = v ^ (1 << r);
        size_t   len = MIN(chunk, count - c * chunk);
        char    *d   = dest + c * chunk * es;

        ush_coll_wait(s, USH_W_READY + r);
        ush_coll_put_signal(s, half[t & 1], d, len * es, USH_W_DATA + r, partner);
        ush_coll_wait(s, USH_W_DATA + r);
        op(d, half[t & 1], len);
        if (t + 2 < steps)
            ush_coll_signal(s, USH_W_READY + (int)((t + 2) % R), v ^ (1 << ((t + 2) % R)));
    }
}

/* Waits for member's eager message under word and folds it into d,
 * straight out of the library's buffer. That buffer is UCX's, at whatever
 * offset its headers leave: the operators may assume their type's
 * alignment (a vectorised loop, a 16-byte long double), so a message not
 * on 16 bytes is copied into the scratch first, which a chunk fits and no
 * peer writes while this member's partners send eagerly. */
static void fold_eager(const ush_coll_sync_t *s, char *d, size_t count, size_t es, int word,
                       int member, ush_coll_op_fn_t op)
{
    const void *x;
    void       *m = ush_coll_eager_take(s, word, count * es, member, &x);
    if ((uintptr_t)x % 16 != 0) {
        memcpy(s->scratch, x, count * es);
        x = s->scratch;
    }
    op(d, x, count);
    ush_eager_done(m);
}

/* Recursive doubling on p2 = largest power of two <= n. Members p2..n-1
 * fold their chunk into member v - p2 first and receive the result last.
 * Per chunk: the fold, then R rounds, then the result to the extra. */
static void reduce_rd(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                      ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    int      p2 = ush_coll_pow2floor(n), rem = n - p2, R = ush_coll_log2ceil(p2);
    size_t   chunk = s->scratch_bytes / es;
    uint64_t nch = (count + chunk - 1) / chunk;
    ush_coll_seq_t *q;

    if (ush_coll_slot_fits((int)rd_slot_words(s), count * es) && (q = ush_coll_seq(s)) != NULL) {
        reduce_rd_slots(s, q, dest, count, es, op);
        return;
    }
    /* From four scratches of data: below that, halving the chunks cost
     * more than the overlap gained (4 PEs, 128 KiB: 84-88 us against
     * 63-64; 1 MiB: 645-658 against 751-765). */
    if (rem == 0 && nch >= 4 && s->scratch_bytes / 2 >= es) {
        reduce_rd_pipe(s, dest, count, es, op);
        return;
    }
    for (uint64_t c = 0; c < nch; c++) {
        size_t len = MIN(chunk, count - c * chunk);
        char  *d   = dest + c * chunk * es;

        if (v >= p2) {
            int base = v - p2;
            if (ush_coll_eager(s, USH_W_XDATA, len * es, base)) {
                ush_coll_eager_send(s, USH_W_XDATA, d, len * es, base);
                ush_coll_eager_recv(s, USH_W_XDATA, d, len * es, base);
                continue;
            }
            ush_coll_wait(s, USH_W_XREADY);
            ush_coll_put_signal(s, s->scratch, d, len * es, USH_W_XDATA, base);
            ush_coll_wait(s, USH_W_XDATA);
            continue;
        }
        int xeager = v < rem && ush_coll_eager(s, USH_W_XDATA, len * es, v + p2);
        if (xeager) {
            fold_eager(s, d, len, es, USH_W_XDATA, v + p2, op);
        } else if (v < rem) {
            ush_coll_signal(s, USH_W_XREADY, v + p2);
            ush_coll_wait(s, USH_W_XDATA);
            op(d, s->scratch, len);
        }
        for (int r = 0; r < R; r++) {
            int partner = v ^ (1 << r);
            if (ush_coll_eager(s, USH_W_DATA + r, len * es, partner)) {
                ush_coll_eager_send(s, USH_W_DATA + r, d, len * es, partner);
                fold_eager(s, d, len, es, USH_W_DATA + r, partner, op);
                continue;
            }
            ush_coll_signal(s, USH_W_READY + r, partner);
            ush_coll_wait(s, USH_W_READY + r);
            ush_coll_put_signal(s, s->scratch, d, len * es, USH_W_DATA + r, partner);
            ush_coll_wait(s, USH_W_DATA + r);
            op(d, s->scratch, len);
        }
        if (xeager) {
            ush_coll_eager_send(s, USH_W_XDATA, d, len * es, v + p2);
        } else if (v < rem) {
            ush_coll_put_signal(s, d, d, len * es, USH_W_XDATA, v + p2);
        }
    }
}

/* Ring. A chunk of L elements is cut into n segments of q = ceil(L/n);
 * in reduce-scatter step k member v sends segment v - k to the right's
 * scratch and folds segment v - k - 1 from the left into its dest; after
 * n - 1 steps it holds segment v + 1 complete. In allgather step k it
 * passes segment v + 1 - k, complete, straight into the right's dest. */
static void reduce_ring(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                        ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    int      left = (v - 1 + n) % n, right = (v + 1) % n;
    size_t   chunk = (s->scratch_bytes / es) * (size_t)n;
    uint64_t nch = (count + chunk - 1) / chunk;

    for (uint64_t c = 0; c < nch; c++) {
        size_t L = MIN(chunk, count - c * chunk);
        size_t q = (L + (size_t)n - 1) / (size_t)n;
        char  *d = dest + c * chunk * es;
#define SEG_OFF(k) (MIN((size_t)(k) * q, L) * es)
#define SEG_LEN(k) (MIN((size_t)(k) * q + q, L) - MIN((size_t)(k) * q, L))

        ush_coll_signal(s, USH_W_CH_READY, left);
        for (int k = 0; k < n - 1; k++) {
            int send = (v - k + 2 * n) % n, recv = (v - k - 1 + 2 * n) % n;
            ush_coll_wait(s, USH_W_CH_READY);
            ush_coll_put_signal(s, s->scratch, d + SEG_OFF(send), SEG_LEN(send) * es, USH_W_CH_DATA, right);
            ush_coll_wait(s, USH_W_CH_DATA);
            op(d + SEG_OFF(recv), s->scratch, SEG_LEN(recv));
            ush_coll_signal(s, USH_W_CH_READY, left);
        }
        for (int k = 0; k < n - 1; k++) {
            int send = (v + 1 - k + 2 * n) % n;
            ush_coll_wait(s, USH_W_CH_READY);
            ush_coll_put_signal(s, d + SEG_OFF(send), d + SEG_OFF(send), SEG_LEN(send) * es, USH_W_CH_DATA, right);
            ush_coll_wait(s, USH_W_CH_DATA);
            if (k < n - 2) ush_coll_signal(s, USH_W_CH_READY, left);
        }
#undef SEG_OFF
#undef SEG_LEN
    }
}

/* Member 0 takes each member's chunk in turn into its scratch (member j
 * sends when 0 calls for it) and folds it in, in member order: the result
 * is the same on every run. Then it puts the result into every member's
 * dest. */
static void reduce_linear(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                          ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    size_t   chunk = s->scratch_bytes / es;
    uint64_t nch = (count + chunk - 1) / chunk;

    for (uint64_t c = 0; c < nch; c++) {
        size_t len = MIN(chunk, count - c * chunk);
        char  *d   = dest + c * chunk * es;

        if (v != 0) {
            ush_coll_wait(s, USH_W_XREADY);
            ush_coll_put_signal(s, s->scratch, d, len * es, USH_W_CH_DATA, 0);
            ush_coll_wait(s, USH_W_XDATA);
            continue;
        }
        for (int j = 1; j < n; j++) {
            ush_coll_signal(s, USH_W_XREADY, j);
            ush_coll_wait(s, USH_W_CH_DATA);
            op(d, s->scratch, len);
        }
        for (int j = 1; j < n; j++) ush_coll_put_signal(s, d, d, len * es, USH_W_XDATA, j);
    }
}

/* Direct, for sets whose members all map each other's memory: no copy
 * into a scratch and no chunks. dest is cut into one segment per member;
 * each member folds every other member's dest segment into its own
 * segment, reading it where it lies, then writes its segment, final, into
 * the others' dest. Per member that is (n-1)/n of the data folded and
 * (n-1)/n copied, against all of it twice for recursive doubling.
 *
 * Two counts order it. CNT_READY: every dest holds its owner's
 * contribution (nobody reads a dest before). CNT_DATA: a member's final
 * segment is in this dest. Segment k of a dest is read by member k alone
 * (its fold) and written by member k alone (after its fold), so the
 * writes need no count of their own; and the last count in tells a member
 * that every peer has finished its fold, so none reads this dest any more
 * and the program may have it back. A member one call ahead only adds to
 * a count this member has not yet waited for: the counts absorb it. */
static void reduce_direct(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                          ush_coll_op_fn_t op)
{
    int    n = s->set.size, v = s->set.me;
    size_t q = (count + (size_t)n - 1) / (size_t)n;
    char  *peer[USH_COLL_DIRECT_MAX];
#define SEG_OFF(k) (MIN((size_t)(k) * q, count) * es)
#define SEG_LEN(k) (MIN((size_t)(k) * q + q, count) - MIN((size_t)(k) * q, count))

    for (int i = 1; i < n; i++) {
        int u = (v + i) % n;
        peer[u] = ush_ptr(dest, ush_coll_world(s, u));
        if (peer[u] == NULL) {
            ush_fatal("shmem reductions",
                      "the direct reduction needs every member's dest mapped, and PE %d's is "
                      "not; set SHMEM_REDUCE_ALGORITHM to rd or ring",
                      ush_coll_world(s, u));
        }
    }
    for (int i = 1; i < n; i++) ush_coll_count(s, USH_W_CNT_READY, (v + i) % n);
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    for (int i = 1; i < n; i++) {
        int u = (v + i) % n; /* each member starts with a different peer */
        op(dest + SEG_OFF(v), peer[u] + SEG_OFF(v), SEG_LEN(v));
    }
    /* Plain stores into mapped memory; each count is a sequentially
     * consistent atomic on it, which orders them before it. */
    for (int i = 1; i < n; i++) {
        int u = (v + i) % n;
        memcpy(peer[u] + SEG_OFF(v), dest + SEG_OFF(v), SEG_LEN(v) * es);
    }
    for (int i = 1; i < n; i++) ush_coll_count(s, USH_W_CNT_DATA, (v + i) % n);
    ush_coll_wait_count(s, USH_W_CNT_DATA, (uint64_t)n - 1);
#undef SEG_OFF
#undef SEG_LEN
}

void ush_coll_reduce(const ush_coll_sync_t *s, void *dest, const void *src, size_t count,
                     size_t esize, ush_coll_op_fn_t op)
{
    if (dest != src) memmove(dest, src, count * esize);
    if (s->set.size == 1 || count == 0) return;
    switch (ush_coll_select(USH_COLL_REDUCE, count * esize, s->set.size)) {
    case 1:  reduce_ring(s, dest, count, esize, op); break;
    case 2:  reduce_linear(s, dest, count, esize, op); break;
    case 3:  reduce_direct(s, dest, count, esize, op); break;
    default: reduce_rd(s, dest, count, esize, op); break;
    }
}
