/* rma.c: put, get, p, g, put_nbi, get_nbi. PEs below npes/2 issue the
 * operations at their partner (PE + npes/2); the partner only waits in the
 * driver's barrier, which is also what drives progress for transports that
 * need the target to call in. */
#include "shbench.h"

/* Every PE's source is its pattern and its destination anything else: a
 * put or get that moved nothing fails the check. */
static void window_prepare(struct sb_point *pt)
{
    size_t len = pt->bytes * (size_t)pt->window;
    sb_fill(pt->m->src, len, pt->me);
    sb_fill_other(pt->m->dst, len, pt->peer < 0 ? 0 : pt->peer);
}

static long put_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++) {
        shmem_putmem(pt->m->dst, pt->m->src, pt->bytes, pt->peer);
        shmem_quiet();
    }
    return iters;
}

/* The target checks what arrived from its initiator. */
static int put_check(struct sb_point *pt, long iters)
{
    (void)iters;
    if (pt->active || pt->peer < 0) return 0;
    return sb_verify("put destination", pt, pt->m->dst, pt->bytes * (size_t)pt->window,
                     pt->peer);
}

/* One put after a barrier, the way a program writes its halo once per
 * step: what a single put costs when the pair is not already streaming
 * (the figure includes the barrier, the same for both libraries). Every PE
 * takes part in the barriers. */
static long put_bar_loop(struct sb_point *pt, long iters)
{
    for (long i = 0; i < iters; i++) {
        shmem_barrier_all();
        if (!pt->active) continue;
        shmem_putmem(pt->m->dst, pt->m->src, pt->bytes, pt->peer);
        shmem_quiet();
    }
    return iters;
}

static long get_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++) shmem_getmem(pt->m->dst, pt->m->src, pt->bytes, pt->peer);
    return iters;
}

static int get_check(struct sb_point *pt, long iters)
{
    (void)iters;
    if (!pt->active) return 0;
    return sb_verify("get destination", pt, pt->m->dst, pt->bytes * (size_t)pt->window,
                     pt->peer);
}

/* A window of operations at consecutive offsets (no two overlap, so the
 * check sees every one of them), then one quiet. */
static long put_nbi_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters * pt->window;
    for (long i = 0; i < iters; i++) {
        size_t off = 0;
        for (int w = 0; w < pt->window; w++, off += pt->bytes)
            shmem_putmem_nbi(pt->m->dst + off, pt->m->src + off, pt->bytes, pt->peer);
        shmem_quiet();
    }
    return iters * pt->window;
}

static long get_nbi_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters * pt->window;
    for (long i = 0; i < iters; i++) {
        size_t off = 0;
        for (int w = 0; w < pt->window; w++, off += pt->bytes)
            shmem_getmem_nbi(pt->m->dst + off, pt->m->src + off, pt->bytes, pt->peer);
        shmem_quiet();
    }
    return iters * pt->window;
}

/* p stores the iteration number: the target must end with the last one. */
static void p_prepare(struct sb_point *pt)
{
    *pt->m->ctr = -1;
}

static long p_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++) {
        shmem_long_p(pt->m->ctr, i, pt->peer);
        shmem_quiet();
    }
    return iters;
}

static int p_check(struct sb_point *pt, long iters)
{
    if (pt->active || pt->peer < 0) return 0;
    if (*pt->m->ctr != iters - 1)
        return sb_fail(pt, "p", "target holds %ld, expected the last value put, %ld",
                       *pt->m->ctr, iters - 1);
    return 0;
}

/* Every PE's counter holds 1000 + its number; g must read the partner's. */
static void g_prepare(struct sb_point *pt)
{
    *pt->m->ctr = 1000 + pt->me;
}

static long g_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    long want = 1000 + pt->peer;
    for (long i = 0; i < iters; i++)
        if (shmem_long_g(pt->m->ctr, pt->peer) != want) pt->bad++;
    return iters;
}

static int g_check(struct sb_point *pt, long iters)
{
    if (pt->bad)
        return sb_fail(pt, "g", "%ld of %ld reads did not return the partner's value %d",
                       pt->bad, iters, 1000 + pt->peer);
    return 0;
}

const struct sb_bench sb_rma_benches[] = {
    {"put", SB_P2P, 0, 0, 1, window_prepare, put_loop, put_check},
    {"get", SB_P2P, 0, 0, 1, window_prepare, get_loop, get_check},
    {"put_bar", SB_P2P, 0, 0, 1, window_prepare, put_bar_loop, put_check},
    {"p", SB_P2P, 1, 0, 1, p_prepare, p_loop, p_check},
    {"g", SB_P2P, 1, 0, 1, g_prepare, g_loop, g_check},
    {"put_nbi", SB_P2P, 0, 0, 1, window_prepare, put_nbi_loop, put_check},
    {"get_nbi", SB_P2P, 0, 0, 1, window_prepare, get_nbi_loop, get_check},
};
const int sb_n_rma = sizeof(sb_rma_benches) / sizeof(sb_rma_benches[0]);
