/* p2p.c: ping-pong. The initiator puts `bytes` and then a flag; its partner
 * waits for the flag and answers the same way. 8 bytes: the flag alone
 * (shmem_long_p). Larger: putmem, fence (the data lands before the flag),
 * then the flag. The figure is half a round trip. Flags count up (1, 2, ...)
 * so no reset is needed between iterations. */
#include "shbench.h"

static void pp_prepare(struct sb_point *pt)
{
    *pt->m->flag = 0;
    sb_fill(pt->m->src, pt->bytes, pt->me);
    sb_fill_other(pt->m->dst, pt->bytes, pt->peer < 0 ? 0 : pt->peer);
}

static void pp_send(struct sb_point *pt, long seq)
{
    if (pt->bytes > sizeof(long)) {
        shmem_putmem(pt->m->dst, pt->m->src, pt->bytes, pt->peer);
        shmem_fence();
    }
    shmem_long_p(pt->m->flag, seq, pt->peer);
}

static long pp_loop(struct sb_point *pt, long iters)
{
    if (pt->peer < 0) return 2 * iters;
    for (long i = 1; i <= iters; i++) {
        if (pt->active) {
            pp_send(pt, i);
            shmem_long_wait_until(pt->m->flag, SHMEM_CMP_GE, i);
        } else {
            shmem_long_wait_until(pt->m->flag, SHMEM_CMP_GE, i);
            pp_send(pt, i);
        }
    }
    return 2 * iters;
}

/* Both sides: the last flag, and for > 8 bytes the partner's data. */
static int pp_check(struct sb_point *pt, long iters)
{
    if (pt->peer < 0) return 0;
    if (*pt->m->flag != iters)
        return sb_fail(pt, "pingpong", "flag is %ld after %ld round trips", *pt->m->flag, iters);
    if (pt->bytes > sizeof(long))
        return sb_verify("pingpong destination", pt, pt->m->dst, pt->bytes, pt->peer);
    return 0;
}

const struct sb_bench sb_p2p_benches[] = {
    {"pingpong", SB_P2P, 0, 0, 1, pp_prepare, pp_loop, pp_check},
};
const int sb_n_p2p = sizeof(sb_p2p_benches) / sizeof(sb_p2p_benches[0]);
