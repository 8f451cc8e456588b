/*
 * pSync the way programs size and share it:
 *
 *  - heat: one pSync declared with SHMEM_REDUCE_SYNC_SIZE serves both a
 *    broadcast32 and a double max reduction, as a published 2-D heat
 *    example does;
 *  - init_bcast_bound: a SHMEM_REDUCE_SYNC_SIZE array set up with a loop to
 *    SHMEM_BCAST_SYNC_SIZE, as a published test suite does (correct only
 *    when broadcast's size is no larger);
 *  - every_size: one pSync of each documented size, each reused for every
 *    collective kind with the barriers the spec requires between uses;
 *  - many_pairs: more (pSync, active set) pairs than the library has
 *    channels, cycled without barriers, and one pSync over many sets;
 *  - outsiders: PEs outside an active set calling its routines return at
 *    once and touch nothing (as Open MPI and SOS do).
 *
 * Every pSync sits in front of a guard of known words, which no routine may
 * write; every pSync must be SHMEM_SYNC_VALUE again once the set is quiet.
 */
#include "coll_util.h"

#include <complex.h>
#include <string.h>

#define GUARD       64
#define GUARD_WORD  0x5a5a5a5a5a5a5a5aL
#define NELEMS      40 /* per PE, small enough for the fast paths */
#define BIG         4096

/* Reduce-sized pSync arrays, each with its guard right after it, and room
 * for a pSync of any documented size ending where its guard starts. */
static long heat_ps[SHMEM_REDUCE_SYNC_SIZE + GUARD];
static long reduce_sized[SHMEM_REDUCE_SYNC_SIZE + GUARD];
static long sizes_area[SHMEM_SYNC_SIZE + GUARD];

static int    i32_src[BIG], i32_dst[BIG * 8];
static long   l_src[BIG], l_dst[BIG * 8];
static double d_src[BIG], d_dst[BIG];
static double pwrk_d[BIG / 2 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long   pwrk_l[BIG / 2 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void guard_set(long *g)
{
    for (int i = 0; i < GUARD; i++) g[i] = GUARD_WORD;
}

static void guard_check(const char *what, const long *g)
{
    for (int i = 0; i < GUARD; i++)
        CHECK_MSG(g[i] == GUARD_WORD, "%s: guard word %d after pSync is %#lx: a routine wrote "
                  "past the pSync the program declared", what, i, (unsigned long)g[i]);
}

/* Once the set is quiet, every pSync word is SHMEM_SYNC_VALUE again. */
static void psync_check(const char *what, const long *ps, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(ps[i] == SHMEM_SYNC_VALUE, "%s: pSync[%d] is %ld after the calls, not "
                  "SHMEM_SYNC_VALUE", what, i, ps[i]);
}

/* A 2-D heat step as the published example does it: a local maximum
 * reduced over all PEs, and the root's step count broadcast, through one
 * reduce-sized pSync, a barrier between the two. */
static void t_heat(void)
{
    pe_section("heat: one reduce-sized pSync for broadcast32 and double max");
    long *ps = heat_ps, *guard = &heat_ps[SHMEM_REDUCE_SYNC_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) ps[i] = SHMEM_SYNC_VALUE;
    guard_set(guard);
    shmem_barrier_all();
    for (int iter = 0; iter < 50; iter++) {
        static double lmax, gmax;
        static int    steps[2];
        lmax = (double)((pe_me * 7 + iter) % (pe_npes + 3));
        shmem_double_max_to_all(&gmax, &lmax, 1, 0, 0, pe_npes, pwrk_d, ps);
        double expect = 0;
        for (int p = 0; p < pe_npes; p++) {
            double v = (double)((p * 7 + iter) % (pe_npes + 3));
            if (v > expect) expect = v;
        }
        CHECK_EQ(gmax, expect);
        shmem_barrier_all();
        steps[0] = pe_me == 0 ? iter * 3 + 1 : -1;
        steps[1] = -1;
        shmem_broadcast32(&steps[1], &steps[0], 1, 0, 0, 0, pe_npes, ps);
        if (pe_me != 0) CHECK_EQ(steps[1], iter * 3 + 1);
        shmem_barrier_all();
    }
    guard_check("heat", guard);
    psync_check("heat", ps, SHMEM_REDUCE_SYNC_SIZE);
}

/* The suite's idiom: long pSync[_SHMEM_REDUCE_SYNC_SIZE], set up to
 * _SHMEM_BCAST_SYNC_SIZE, then used by a broadcast and a reduction. */
static void t_init_bcast_bound(void)
{
    pe_section("init_bcast_bound: reduce-sized pSync set up to the broadcast size");
    guard_set(&reduce_sized[SHMEM_REDUCE_SYNC_SIZE]);
    for (int i = 0; i < _SHMEM_BCAST_SYNC_SIZE; i++) reduce_sized[i] = _SHMEM_SYNC_VALUE;
    guard_check("set-up loop", &reduce_sized[SHMEM_REDUCE_SYNC_SIZE]);
    shmem_barrier_all();
    for (int i = 0; i < NELEMS; i++) l_src[i] = pe_me * 1000 + i;
    shmem_broadcast64(l_dst, l_src, NELEMS, pe_npes - 1, 0, 0, pe_npes, reduce_sized);
    if (pe_me != pe_npes - 1)
        for (int i = 0; i < NELEMS; i++) CHECK_EQ(l_dst[i], (long)(pe_npes - 1) * 1000 + i);
    shmem_barrier_all();
    shmem_long_sum_to_all(l_dst, l_src, NELEMS, 0, 0, pe_npes, pwrk_l, reduce_sized);
    for (int i = 0; i < NELEMS; i++)
        CHECK_EQ(l_dst[i], 1000L * pe_npes * (pe_npes - 1) / 2 + (long)pe_npes * i);
    shmem_barrier_all();
    guard_check("init_bcast_bound", &reduce_sized[SHMEM_REDUCE_SYNC_SIZE]);
    psync_check("init_bcast_bound", reduce_sized, SHMEM_REDUCE_SYNC_SIZE);
}

/* Every collective kind over set a through ps, with a barrier between
 * uses; n elements (per PE). Checks every result on members. */
static void every_kind(aset_t a, long *ps, int n)
{
    int me = aset_index(a, pe_me);
    if (me < 0) return;
    int size = a.size;

    shmem_barrier(a.start, a.logstride, size, ps);
    shmem_sync(a.start, a.logstride, size, ps);

    /* broadcast32 / 64 from the last member */
    for (int i = 0; i < n; i++) i32_src[i] = pe_me * 100 + i;
    for (int i = 0; i < n; i++) i32_dst[i] = -1;
    shmem_barrier(a.start, a.logstride, size, ps);
    shmem_broadcast32(i32_dst, i32_src, n, size - 1, a.start, a.logstride, size, ps);
    if (me != size - 1)
        for (int i = 0; i < n; i++) CHECK_EQ(i32_dst[i], aset_pe(a, size - 1) * 100 + i);
    shmem_barrier(a.start, a.logstride, size, ps);
    for (int i = 0; i < n; i++) l_src[i] = pe_me * 100L + i;
    shmem_broadcast64(l_dst, l_src, n, 0, a.start, a.logstride, size, ps);
    if (me != 0)
        for (int i = 0; i < n; i++) CHECK_EQ(l_dst[i], aset_pe(a, 0) * 100L + i);
    shmem_barrier(a.start, a.logstride, size, ps);

    /* fcollect64, collect32 (member j gives j + 1 elements) */
    shmem_fcollect64(l_dst, l_src, n, a.start, a.logstride, size, ps);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < n; i++) CHECK_EQ(l_dst[j * n + i], aset_pe(a, j) * 100L + i);
    shmem_barrier(a.start, a.logstride, size, ps);
    shmem_collect32(i32_dst, i32_src, me + 1, a.start, a.logstride, size, ps);
    for (int j = 0, k = 0; j < size; j++)
        for (int i = 0; i <= j; i++, k++) CHECK_EQ(i32_dst[k], aset_pe(a, j) * 100 + i);
    shmem_barrier(a.start, a.logstride, size, ps);

    /* alltoall64 and alltoalls32: block j of member i names both */
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 2; i++) l_src[j * 2 + i] = me * 10000L + j * 10 + i;
    shmem_alltoall64(l_dst, l_src, 2, a.start, a.logstride, size, ps);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 2; i++) CHECK_EQ(l_dst[j * 2 + i], j * 10000L + me * 10 + i);
    shmem_barrier(a.start, a.logstride, size, ps);
    for (int k = 0; k < size * 2; k++) i32_src[2 * k] = me * 1000 + k;
    memset(i32_dst, 0xff, sizeof(int) * (size_t)size * 6);
    shmem_alltoalls32(i32_dst, i32_src, 3, 2, 2, a.start, a.logstride, size, ps);
    for (int j = 0; j < size; j++)
        for (int k = 0; k < 2; k++) CHECK_EQ(i32_dst[3 * (j * 2 + k)], j * 1000 + me * 2 + k);
    shmem_barrier(a.start, a.logstride, size, ps);

    /* reductions of several types and operators */
    for (int i = 0; i < n; i++) l_src[i] = (long)(pe_me + 1) * (i + 1);
    shmem_long_sum_to_all(l_dst, l_src, n, a.start, a.logstride, size, pwrk_l, ps);
    long msum = 0;
    for (int j = 0; j < size; j++) msum += aset_pe(a, j) + 1;
    for (int i = 0; i < n; i++) CHECK_EQ(l_dst[i], msum * (i + 1));
    shmem_barrier(a.start, a.logstride, size, ps);
    for (int i = 0; i < n; i++) d_src[i] = (double)((pe_me * 13 + i) % 17);
    shmem_double_min_to_all(d_dst, d_src, n, a.start, a.logstride, size, pwrk_d, ps);
    for (int i = 0; i < n; i++) {
        double m = 1e9;
        for (int j = 0; j < size; j++) {
            double v = (double)((aset_pe(a, j) * 13 + i) % 17);
            if (v < m) m = v;
        }
        CHECK_EQ(d_dst[i], m);
    }
    shmem_barrier(a.start, a.logstride, size, ps);
    for (int i = 0; i < n; i++) i32_src[i] = 1 << (pe_me % 31);
    shmem_int_or_to_all(i32_dst, i32_src, n, a.start, a.logstride, size, (int *)pwrk_l, ps);
    int bits = 0;
    for (int j = 0; j < size; j++) bits |= 1 << (aset_pe(a, j) % 31);
    for (int i = 0; i < n; i++) CHECK_EQ(i32_dst[i], bits);
    shmem_barrier(a.start, a.logstride, size, ps);
}

static void t_every_size(void)
{
    static const struct {
        const char *name;
        int         size;
    } sizes[] = {
        { "SHMEM_BARRIER_SYNC_SIZE", SHMEM_BARRIER_SYNC_SIZE },
        { "SHMEM_BCAST_SYNC_SIZE", SHMEM_BCAST_SYNC_SIZE },
        { "SHMEM_REDUCE_SYNC_SIZE", SHMEM_REDUCE_SYNC_SIZE },
        { "SHMEM_COLLECT_SYNC_SIZE", SHMEM_COLLECT_SYNC_SIZE },
        { "SHMEM_ALLTOALL_SYNC_SIZE", SHMEM_ALLTOALL_SYNC_SIZE },
        { "SHMEM_ALLTOALLS_SYNC_SIZE", SHMEM_ALLTOALLS_SYNC_SIZE },
        { "SHMEM_SYNC_SIZE", SHMEM_SYNC_SIZE },
    };
    CHECK(SHMEM_BARRIER_SYNC_SIZE <= SHMEM_REDUCE_SYNC_SIZE);
    CHECK(SHMEM_BCAST_SYNC_SIZE <= SHMEM_REDUCE_SYNC_SIZE);
    CHECK(SHMEM_REDUCE_SYNC_SIZE == SHMEM_COLLECT_SYNC_SIZE);
    CHECK(SHMEM_REDUCE_SYNC_SIZE == SHMEM_ALLTOALL_SYNC_SIZE);
    CHECK(SHMEM_REDUCE_SYNC_SIZE == SHMEM_ALLTOALLS_SYNC_SIZE);
    CHECK(SHMEM_REDUCE_SYNC_SIZE <= SHMEM_SYNC_SIZE);

    aset_t sets[ASET_MAX];
    int    nsets = aset_list(sets, pe_npes);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        /* The pSync is exactly this many words; the guard starts after it. */
        long *ps = sizes_area + (SHMEM_SYNC_SIZE - sizes[k].size);
        pe_section(sizes[k].name);
        for (int i = 0; i < sizes[k].size; i++) ps[i] = SHMEM_SYNC_VALUE;
        guard_set(&sizes_area[SHMEM_SYNC_SIZE]);
        shmem_barrier_all();
        for (int s = 0; s < nsets; s++) {
            every_kind(sets[s], ps, NELEMS);
            shmem_barrier_all(); /* the next set may share PEs */
        }
        guard_check(sizes[k].name, &sizes_area[SHMEM_SYNC_SIZE]);
        psync_check(sizes[k].name, ps, sizes[k].size);
    }
}

/* More (pSync, set) pairs than channels: 80 pSync arrays cycled with
 * reductions and broadcasts, no barrier between (each reduction waits for
 * every member, so an array is free again long before its next turn);
 * then one pSync over every set in turn. */
#define NPAIRS 80
static long many_ps[NPAIRS][SHMEM_REDUCE_SYNC_SIZE];

static void t_many_pairs(void)
{
    pe_section("many_pairs: 80 pSync arrays cycled");
    for (int p = 0; p < NPAIRS; p++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) many_ps[p][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int round = 0; round < 3; round++) {
        for (int p = 0; p < NPAIRS; p++) {
            static long v, sum;
            v = pe_me + p + round;
            shmem_long_sum_to_all(&sum, &v, 1, 0, 0, pe_npes, pwrk_l, many_ps[p]);
            CHECK_EQ(sum, (long)pe_npes * (p + round) + (long)pe_npes * (pe_npes - 1) / 2);
        }
    }
    shmem_barrier_all();
    for (int p = 0; p < NPAIRS; p++) psync_check("many_pairs", many_ps[p], SHMEM_REDUCE_SYNC_SIZE);

    pe_section("many_pairs: one pSync, every set, twice");
    aset_t sets[ASET_MAX];
    int    nsets = aset_list(sets, pe_npes);
    for (int rep = 0; rep < 2; rep++) {
        for (int s = 0; s < nsets; s++) {
            aset_t a  = sets[s];
            int    me = aset_index(a, pe_me);
            if (me >= 0) {
                static long v, sum;
                v = pe_me * 3 + rep;
                shmem_long_sum_to_all(&sum, &v, 1, a.start, a.logstride, a.size, pwrk_l,
                                      many_ps[0]);
                long expect = 0;
                for (int j = 0; j < a.size; j++) expect += aset_pe(a, j) * 3 + rep;
                CHECK_EQ(sum, expect);
            }
            shmem_barrier_all(); /* the spec's sync before another set reuses it */
        }
    }
    psync_check("many_pairs, every set", many_ps[0], SHMEM_REDUCE_SYNC_SIZE);
}

/* Outsiders: the odd PEs form the set; the even ones call every routine
 * with it too, and must come back at once with dest, pWrk and pSync as
 * they were. */
static long out_ps[SHMEM_SYNC_SIZE];
static long out_dst[NELEMS * 8], out_src[NELEMS], out_wrk[NELEMS + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void t_outsiders(void)
{
    pe_section("outsiders");
    if (pe_npes < 2) return;
    aset_t a  = { 1, 1, pe_npes / 2 };
    int    me = aset_index(a, pe_me);
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++) out_ps[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < NELEMS * 8; i++) out_dst[i] = -7;
    for (int i = 0; i < NELEMS + SHMEM_REDUCE_MIN_WRKDATA_SIZE; i++) out_wrk[i] = -9;
    for (int i = 0; i < NELEMS; i++) out_src[i] = pe_me + i;
    shmem_barrier_all();
    for (int rep = 0; rep < 3; rep++) {
        shmem_long_sum_to_all(out_dst, out_src, NELEMS, a.start, a.logstride, a.size, out_wrk,
                              out_ps);
        shmem_long_max_to_all(out_dst, out_src, NELEMS, a.start, a.logstride, a.size, out_wrk,
                              out_ps);
        shmem_broadcast64(out_dst, out_src, NELEMS, 0, a.start, a.logstride, a.size, out_ps);
        shmem_fcollect64(out_dst, out_src, 2, a.start, a.logstride, a.size, out_ps);
        shmem_collect64(out_dst, out_src, 1, a.start, a.logstride, a.size, out_ps);
        shmem_alltoall64(out_dst, out_src, 1, a.start, a.logstride, a.size, out_ps);
        shmem_barrier(a.start, a.logstride, a.size, out_ps);
        shmem_sync(a.start, a.logstride, a.size, out_ps);
    }
    if (me >= 0) {
        /* the last call that wrote dest on members: alltoall of one each */
        for (int j = 0; j < a.size; j++) CHECK_EQ(out_dst[j], (long)aset_pe(a, j) + me);
    } else {
        for (int i = 0; i < NELEMS * 8; i++) CHECK_EQ(out_dst[i], -7L);
        for (int i = 0; i < NELEMS + SHMEM_REDUCE_MIN_WRKDATA_SIZE; i++)
            CHECK_EQ(out_wrk[i], -9L);
    }
    shmem_barrier_all();
    psync_check("outsiders", out_ps, SHMEM_SYNC_SIZE);
}

int main(void)
{
    pe_test_init();
    t_heat();
    t_init_bcast_bound();
    t_every_size();
    t_many_pairs();
    t_outsiders();
    return pe_test_finish();
}
