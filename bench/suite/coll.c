/* coll.c: barrier_all, broadcast64, long/float/double_sum_to_all,
 * collect64, fcollect64 and alltoall64 over all PEs (the 1.4 active-set API). Calls alternate
 * between two pSync (and pWrk) arrays with no barrier between them, the
 * way a program that issues collectives back to back must.
 *
 * bcast_iso and reduce_float_iso measure as OSU's osu_oshm_broadcast and
 * osu_oshm_reduce do, and alltoall_iso (OSU has no alltoall) the same
 * way: shmem_barrier_all between calls, each call timed alone, so the figure is one call entered from a barrier. It includes
 * how long a receiver waits for a root that left the barrier after it:
 * the barrier's release order shows up in the broadcast's figure. */
#include "shbench.h"
#include "timer.h"

static int nelems(const struct sb_point *pt)
{
    return (int)(pt->bytes / 8);
}

/* Barrier: nothing to fill; the check is that an add issued before a
 * barrier is visible after it. */
static void barrier_prepare(struct sb_point *pt)
{
    *pt->m->ctr = 0;
}

static long barrier_loop(struct sb_point *pt, long iters)
{
    (void)pt;
    for (long i = 0; i < iters; i++) shmem_barrier_all();
    return iters;
}

static int barrier_check(struct sb_point *pt, long iters)
{
    (void)iters;
    shmem_long_atomic_add(pt->m->ctr, 1, 0);
    shmem_barrier_all();
    if (pt->me == 0 && *pt->m->ctr != pt->npes)
        return sb_fail(pt, "barrier", "counter is %ld after one add per PE and a barrier, "
                       "expected %d", *pt->m->ctr, pt->npes);
    return 0;
}

static void bcast_prepare(struct sb_point *pt)
{
    sb_fill(pt->m->src, pt->bytes, pt->me);
    sb_fill_other(pt->m->dst, pt->bytes, 0);
}

static long bcast_loop(struct sb_point *pt, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_broadcast64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, 0, pt->npes,
                          pt->m->psync[i & 1]);
    return iters;
}

static long bcast_iso_loop(struct sb_point *pt, long iters)
{
    double t = 0;
    for (long i = 0; i < iters; i++) {
        shmem_barrier_all();
        double t0 = sb_now_us();
        shmem_broadcast64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, 0, pt->npes,
                          pt->m->psync[i & 1]);
        t += sb_now_us() - t0;
    }
    pt->timed_us = t;
    return iters;
}

/* The root's dest is not written by a 1.4 broadcast: only others check. */
static int bcast_check(struct sb_point *pt, long iters)
{
    (void)iters;
    return pt->me == 0 ? 0 : sb_verify("broadcast destination", pt, pt->m->dst, pt->bytes, 0);
}

/* Element j of PE p is j % 1000 + 3 p: the sum is known without overflow. */
static void reduce_prepare(struct sb_point *pt)
{
    long *src = (long *)pt->m->src, *dst = (long *)pt->m->dst;
    for (int j = 0; j < nelems(pt); j++) {
        src[j] = j % 1000 + 3L * pt->me;
        dst[j] = -1;
    }
}

static long reduce_loop(struct sb_point *pt, long iters)
{
    long *src = (long *)pt->m->src, *dst = (long *)pt->m->dst;
    for (long i = 0; i < iters; i++)
        shmem_long_sum_to_all(dst, src, nelems(pt), 0, 0, pt->npes, pt->m->pwrk[i & 1],
                              pt->m->psync[i & 1]);
    return iters;
}

static int reduce_check(struct sb_point *pt, long iters)
{
    (void)iters;
    const long *dst = (const long *)pt->m->dst;
    long pes = pt->npes, base = 3 * pes * (pes - 1) / 2;
    for (int j = 0; j < nelems(pt); j++)
        if (dst[j] != pes * (j % 1000) + base)
            return sb_fail(pt, "reduce", "element %d is %ld, expected %ld", j, dst[j],
                           pes * (j % 1000) + base);
    return 0;
}

/* Floating-point sums (the vectorised operators and the chunk pipeline):
 * element j of PE p is j % 64 + p, exact in float and double at any size
 * here, so the check compares exactly. */
#define SB_FP_REDUCE_(T, NAME)                                                                 \
    static void reduce_##NAME##_prepare(struct sb_point *pt)                                   \
    {                                                                                          \
        T *src = (T *)pt->m->src, *dst = (T *)pt->m->dst;                                      \
        for (size_t j = 0; j < pt->bytes / sizeof(T); j++) {                                   \
            src[j] = (T)(j % 64 + (size_t)pt->me);                                             \
            dst[j] = -1;                                                                       \
        }                                                                                      \
    }                                                                                          \
    static long reduce_##NAME##_loop(struct sb_point *pt, long iters)                          \
    {                                                                                          \
        T  *src = (T *)pt->m->src, *dst = (T *)pt->m->dst;                                     \
        int n   = (int)(pt->bytes / sizeof(T));                                                \
        for (long i = 0; i < iters; i++)                                                       \
            shmem_##NAME##_sum_to_all(dst, src, n, 0, 0, pt->npes, (T *)pt->m->pwrk[i & 1],    \
                                      pt->m->psync[i & 1]);                                    \
        return iters;                                                                          \
    }                                                                                          \
    static int reduce_##NAME##_check(struct sb_point *pt, long iters)                          \
    {                                                                                          \
        (void)iters;                                                                           \
        const T *dst = (const T *)pt->m->dst;                                                  \
        T        base = (T)(pt->npes * (pt->npes - 1) / 2);                                    \
        for (size_t j = 0; j < pt->bytes / sizeof(T); j++)                                     \
            if (dst[j] != (T)(pt->npes * (j % 64)) + base)                                     \
                return sb_fail(pt, "reduce_" #NAME, "element %zu is %g, expected %g", j,       \
                               (double)dst[j], (double)((T)(pt->npes * (j % 64)) + base));     \
        return 0;                                                                              \
    }
SB_FP_REDUCE_(float, float)
SB_FP_REDUCE_(double, double)

static long reduce_float_iso_loop(struct sb_point *pt, long iters)
{
    float *src = (float *)pt->m->src, *dst = (float *)pt->m->dst;
    int    n   = (int)(pt->bytes / sizeof(float));
    double t   = 0;
    for (long i = 0; i < iters; i++) {
        shmem_barrier_all();
        double t0 = sb_now_us();
        shmem_float_sum_to_all(dst, src, n, 0, 0, pt->npes, (float *)pt->m->pwrk[i & 1],
                               pt->m->psync[i & 1]);
        t += sb_now_us() - t0;
    }
    pt->timed_us = t;
    return iters;
}

/* collect and fcollect: PE p contributes its pattern; block p of every
 * PE's dest must hold it. */
static void collect_prepare(struct sb_point *pt)
{
    sb_fill(pt->m->src, pt->bytes, pt->me);
    for (int p = 0; p < pt->npes; p++)
        sb_fill_other(pt->m->dst + (size_t)p * pt->bytes, pt->bytes, p);
}

static long collect_loop(struct sb_point *pt, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_collect64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, pt->npes,
                        pt->m->psync[i & 1]);
    return iters;
}

static long fcollect_loop(struct sb_point *pt, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_fcollect64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, pt->npes,
                         pt->m->psync[i & 1]);
    return iters;
}

static int collect_check(struct sb_point *pt, long iters)
{
    (void)iters;
    for (int p = 0; p < pt->npes; p++)
        if (sb_verify("collect destination", pt, pt->m->dst + (size_t)p * pt->bytes, pt->bytes,
                      p))
            return 1;
    return 0;
}

/* alltoall: block q of PE p's source goes to PE q; its seed names both. */
static int a2a_seed(int from, int to)
{
    return from * 97 + to;
}

static void a2a_prepare(struct sb_point *pt)
{
    for (int q = 0; q < pt->npes; q++) {
        sb_fill(pt->m->src + (size_t)q * pt->bytes, pt->bytes, a2a_seed(pt->me, q));
        sb_fill_other(pt->m->dst + (size_t)q * pt->bytes, pt->bytes, a2a_seed(q, pt->me));
    }
}

static long a2a_loop(struct sb_point *pt, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_alltoall64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, pt->npes,
                         pt->m->psync[i & 1]);
    return iters;
}

/* OSU has no alltoall: this is one measured the way its collectives are. */
static long a2a_iso_loop(struct sb_point *pt, long iters)
{
    double t = 0;
    for (long i = 0; i < iters; i++) {
        shmem_barrier_all();
        double t0 = sb_now_us();
        shmem_alltoall64(pt->m->dst, pt->m->src, (size_t)nelems(pt), 0, 0, pt->npes,
                         pt->m->psync[i & 1]);
        t += sb_now_us() - t0;
    }
    pt->timed_us = t;
    return iters;
}

static int a2a_check(struct sb_point *pt, long iters)
{
    (void)iters;
    for (int p = 0; p < pt->npes; p++)
        if (sb_verify("alltoall destination", pt, pt->m->dst + (size_t)p * pt->bytes, pt->bytes,
                      a2a_seed(p, pt->me)))
            return 1;
    return 0;
}

const struct sb_bench sb_coll_benches[] = {
    {"barrier", SB_COLL, 1, 0, 0, barrier_prepare, barrier_loop, barrier_check},
    {"bcast", SB_COLL, 0, 0, 0, bcast_prepare, bcast_loop, bcast_check},
    {"reduce", SB_COLL, 0, 0, 0, reduce_prepare, reduce_loop, reduce_check},
    {"reduce_float", SB_COLL, 0, 0, 0, reduce_float_prepare, reduce_float_loop,
     reduce_float_check},
    {"reduce_double", SB_COLL, 0, 0, 0, reduce_double_prepare, reduce_double_loop,
     reduce_double_check},
    {"collect", SB_COLL, 0, 1, 0, collect_prepare, collect_loop, collect_check},
    {"fcollect", SB_COLL, 0, 1, 0, collect_prepare, fcollect_loop, collect_check},
    {"alltoall", SB_COLL, 0, 1, 0, a2a_prepare, a2a_loop, a2a_check},
    {"bcast_iso", SB_COLL, 0, 0, 0, bcast_prepare, bcast_iso_loop, bcast_check},
    {"reduce_float_iso", SB_COLL, 0, 0, 0, reduce_float_prepare, reduce_float_iso_loop,
     reduce_float_check},
    {"alltoall_iso", SB_COLL, 0, 1, 0, a2a_prepare, a2a_iso_loop, a2a_check},
};
const int sb_n_coll = sizeof(sb_coll_benches) / sizeof(sb_coll_benches[0]);
