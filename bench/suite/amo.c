/* amo.c: fetch-add, add and compare-swap of a long on the partner's
 * counter. Each target has exactly one initiator, so every fetched value
 * is known in advance and checked as it comes back. */
#include "shbench.h"

static void amo_prepare(struct sb_point *pt)
{
    *pt->m->ctr = 0;
}

static long fadd_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++)
        if (shmem_long_atomic_fetch_add(pt->m->ctr, 1, pt->peer) != i) pt->bad++;
    return iters;
}

static long add_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++) {
        shmem_long_atomic_add(pt->m->ctr, 1, pt->peer);
        shmem_quiet();
    }
    return iters;
}

/* Each swap succeeds: the counter holds i when i + 1 is swapped in. */
static long cswap_loop(struct sb_point *pt, long iters)
{
    if (!pt->active) return iters;
    for (long i = 0; i < iters; i++)
        if (shmem_long_atomic_compare_swap(pt->m->ctr, i, i + 1, pt->peer) != i) pt->bad++;
    return iters;
}

/* The initiator checks the values it fetched, the target its final count. */
static int amo_check(struct sb_point *pt, long iters)
{
    if (pt->bad)
        return sb_fail(pt, "atomic", "%ld of %ld operations fetched a wrong old value",
                       pt->bad, iters);
    if (!pt->active && pt->peer >= 0 && *pt->m->ctr != iters)
        return sb_fail(pt, "atomic", "counter is %ld after %ld operations", *pt->m->ctr,
                       iters);
    return 0;
}

const struct sb_bench sb_amo_benches[] = {
    {"fadd", SB_P2P, 1, 0, 0, amo_prepare, fadd_loop, amo_check},
    {"add", SB_P2P, 1, 0, 0, amo_prepare, add_loop, amo_check},
    {"cswap", SB_P2P, 1, 0, 0, amo_prepare, cswap_loop, amo_check},
};
const int sb_n_amo = sizeof(sb_amo_benches) / sizeof(sb_amo_benches[0]);
