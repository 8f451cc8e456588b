/*
 * All-reduce: recursive doubling, ring (reduce-scatter then allgather),
 * linear (member 0 folds everyone in order, then hands the result out).
 *
 * dest is the accumulator: it starts as a copy of src, and partial results
 * move from one member's dest into another's scratch (pWrk, or the team's
 * scratch), the only receive buffer; the data is processed in chunks that
 * fit it. A member announces "ready" for each use of its scratch once it
 * has folded the previous contents in.
 */
#include "coll_sync.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* Recursive doubling on p2 = largest power of two <= n. Members p2..n-1
 * fold their chunk into member v - p2 first and receive the result last.
 * Ticks per chunk: 1 fold, 2..R+1 rounds, R+2 result to the extra. */
static uint64_t reduce_rd(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                          ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    int      p2 = ush_coll_pow2floor(n), rem = n - p2, R = ush_coll_log2ceil(p2);
    size_t   chunk = s->scratch_bytes / es;
    uint64_t S = (uint64_t)R + 2, nch = (count + chunk - 1) / chunk;

    for (uint64_t c = 0; c < nch; c++) {
        size_t   len = MIN(chunk, count - c * chunk);
        char    *d   = dest + c * chunk * es;
        uint64_t t0  = c * S;

        if (v >= p2) {
            int base = v - p2;
            ush_coll_wait(s, USH_W_XREADY, t0 + 1);
            ush_coll_put(s, s->scratch, d, len * es, base);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_XDATA, t0 + 1, base);
            ush_coll_wait(s, USH_W_XDATA, t0 + S);
            continue;
        }
        if (v < rem) {
            ush_coll_signal(s, USH_W_XREADY, t0 + 1, v + p2);
            ush_coll_wait(s, USH_W_XDATA, t0 + 1);
            op(d, s->scratch, len);
        }
        for (int r = 0; r < R; r++) {
            int      partner = v ^ (1 << r);
            uint64_t t       = t0 + 2 + (uint64_t)r;
            ush_coll_signal(s, USH_W_READY + r, t, partner);
            ush_coll_wait(s, USH_W_READY + r, t);
            ush_coll_put(s, s->scratch, d, len * es, partner);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_DATA + r, t, partner);
            ush_coll_wait(s, USH_W_DATA + r, t);
            op(d, s->scratch, len);
        }
        if (v < rem) {
            ush_coll_put(s, d, d, len * es, v + p2);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_XDATA, t0 + S, v + p2);
        }
    }
    return nch * S;
}

/* Ring. A chunk of L elements is cut into n segments of q = ceil(L/n);
 * in reduce-scatter step k member v sends segment v - k to the right's
 * scratch and folds segment v - k - 1 from the left into its dest; after
 * n - 1 steps it holds segment v + 1 complete. In allgather step k it
 * passes segment v + 1 - k, complete, straight into the right's dest.
 * Ticks per chunk: 1..n-1 reduce-scatter, n..2n-2 allgather. */
static uint64_t reduce_ring(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                            ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    int      left = (v - 1 + n) % n, right = (v + 1) % n;
    size_t   chunk = (s->scratch_bytes / es) * (size_t)n;
    uint64_t S = 2 * (uint64_t)n - 2, nch = (count + chunk - 1) / chunk;

    for (uint64_t c = 0; c < nch; c++) {
        size_t   L  = MIN(chunk, count - c * chunk);
        size_t   q  = (L + (size_t)n - 1) / (size_t)n;
        char    *d  = dest + c * chunk * es;
        uint64_t t0 = c * S;
#define SEG_OFF(k) (MIN((size_t)(k) * q, L) * es)
#define SEG_LEN(k) (MIN((size_t)(k) * q + q, L) - MIN((size_t)(k) * q, L))

        ush_coll_signal(s, USH_W_CH_READY, t0 + 1, left);
        for (int k = 0; k < n - 1; k++) {
            int      send = (v - k + 2 * n) % n, recv = (v - k - 1 + 2 * n) % n;
            uint64_t t    = t0 + 1 + (uint64_t)k;
            ush_coll_wait(s, USH_W_CH_READY, t);
            ush_coll_put(s, s->scratch, d + SEG_OFF(send), SEG_LEN(send) * es, right);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_CH_DATA, t, right);
            ush_coll_wait(s, USH_W_CH_DATA, t);
            op(d + SEG_OFF(recv), s->scratch, SEG_LEN(recv));
            ush_coll_signal(s, USH_W_CH_READY, t + 1, left);
        }
        for (int k = 0; k < n - 1; k++) {
            int      send = (v + 1 - k + 2 * n) % n;
            uint64_t t    = t0 + (uint64_t)n + (uint64_t)k;
            ush_coll_wait(s, USH_W_CH_READY, t);
            ush_coll_put(s, d + SEG_OFF(send), d + SEG_OFF(send), SEG_LEN(send) * es, right);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_CH_DATA, t, right);
            ush_coll_wait(s, USH_W_CH_DATA, t);
            if (k < n - 2) ush_coll_signal(s, USH_W_CH_READY, t + 1, left);
        }
#undef SEG_OFF
#undef SEG_LEN
    }
    return nch * S;
}

/* Member 0 takes each member's chunk in turn into its scratch (member j
 * sends on tick j, when 0 calls for it) and folds it in, in member order:
 * the result is the same on every run. Then it puts the result into every
 * member's dest (tick n). */
static uint64_t reduce_linear(const ush_coll_sync_t *s, char *dest, size_t count, size_t es,
                              ush_coll_op_fn_t op)
{
    int      n = s->set.size, v = s->set.me;
    size_t   chunk = s->scratch_bytes / es;
    uint64_t S = (uint64_t)n, nch = (count + chunk - 1) / chunk;

    for (uint64_t c = 0; c < nch; c++) {
        size_t   len = MIN(chunk, count - c * chunk);
        char    *d   = dest + c * chunk * es;
        uint64_t t0  = c * S;

        if (v != 0) {
            ush_coll_wait(s, USH_W_XREADY, t0 + (uint64_t)v);
            ush_coll_put(s, s->scratch, d, len * es, 0);
            ush_coll_fence();
            ush_coll_signal(s, USH_W_CH_DATA, t0 + (uint64_t)v, 0);
            ush_coll_wait(s, USH_W_XDATA, t0 + S);
            continue;
        }
        for (int j = 1; j < n; j++) {
            ush_coll_signal(s, USH_W_XREADY, t0 + (uint64_t)j, j);
            ush_coll_wait(s, USH_W_CH_DATA, t0 + (uint64_t)j);
            op(d, s->scratch, len);
        }
        for (int j = 1; j < n; j++) ush_coll_put(s, d, d, len * es, j);
        ush_coll_fence();
        for (int j = 1; j < n; j++) ush_coll_signal(s, USH_W_XDATA, t0 + S, j);
    }
    return nch * S;
}

uint64_t ush_coll_reduce(const ush_coll_sync_t *s, void *dest, const void *src, size_t count,
                         size_t esize, ush_coll_op_fn_t op)
{
    if (dest != src) memmove(dest, src, count * esize);
    if (s->set.size == 1 || count == 0) return 0;
    switch (ush_coll_select(USH_COLL_REDUCE, count * esize, s->set.size)) {
    case 1:  return reduce_ring(s, dest, count, esize, op);
    case 2:  return reduce_linear(s, dest, count, esize, op);
    default: return reduce_rd(s, dest, count, esize, op);
    }
}
