/*
 * Concatenation: the active-set shmem_collect32/64 (per-PE counts differ,
 * zero included) and shmem_fcollect32/64, and (1.5+) the team forms,
 * typed, _Generic and *mem.
 *
 * Active sets from aset_list(); base counts 1, 7, 1000 and, on two sets,
 * about 100000 elements in all. Checked: every member's dest holds the
 * members' blocks in set order and nothing past them; PEs outside the set
 * are untouched; pSync is SHMEM_SYNC_VALUE on return.
 */
#include "coll_util.h"

#define NLARGE 100000
#define GUARD  4
#define DSTMAX (2 * NLARGE + 256)

static long psync[2][SHMEM_COLLECT_SYNC_SIZE];

/* Elements member j contributes: fixed (fcollect) or varying with j, and
 * in pattern 2 zero on every other member. */
static size_t count_of(int pattern, size_t base, int j)
{
    switch (pattern) {
    case 0: return base;                            /* fcollect and collect */
    case 1: return base + (size_t)(j % 3);          /* uneven */
    default: return (j % 2) ? base : 0;             /* some PEs send nothing */
    }
}

static void active_set_sweep(uint32_t *src32, uint32_t *dst32, uint64_t *src64, uint64_t *dst64)
{
    const int me = pe_me, npes = pe_npes;
    aset_t    sets[ASET_MAX];
    int       ns = aset_list(sets, npes), c = 0;

    for (int s = 0; s < ns; s++) {
        aset_t a = sets[s];
        int    idx = aset_index(a, me);
        int    large = aset_is_large(a, npes);
        size_t bases[4] = {1, 7, 1000, NLARGE / (size_t)a.size + 1};

        for (int k = 0; k < (large ? 4 : 3); k++) {
            for (int pattern = 0; pattern < 3; pattern++) {
                for (int fixed = 0; fixed <= 1; fixed++) {
                    if (fixed && pattern != 0)
                        continue; /* fcollect: same count everywhere */
                    for (int w = 32; w <= 64; w += 32) {
                        long  *ps = psync[c & 1];
                        size_t base = bases[k], total = 0, mine = 0, off[ASET_MAX * 4];
                        c++;
                        for (int j = 0; j < a.size; j++) {
                            off[j] = total;
                            total += count_of(pattern, base, j);
                        }
                        if (idx >= 0)
                            mine = count_of(pattern, base, idx);
                        COLL_CASE("%s%d start %d logstride %d size %d base %zu pattern %d",
                                  fixed ? "fcollect" : "collect", w, a.start, a.logstride,
                                  a.size, base, pattern);
                        memset(dst32, POISON_BYTE, (total + GUARD) * 4);
                        memset(dst64, POISON_BYTE, (total + GUARD) * 8);
                        for (size_t i = 0; i < mine; i++) {
                            src32[i] = cval32(c, me, i);
                            src64[i] = cval64(c, me, i);
                        }
                        shmem_barrier_all();
                        if (idx >= 0) {
                            if (w == 32 && fixed)
                                shmem_fcollect32(dst32, src32, mine, a.start, a.logstride, a.size,
                                                 ps);
                            else if (w == 32)
                                shmem_collect32(dst32, src32, mine, a.start, a.logstride, a.size,
                                                ps);
                            else if (fixed)
                                shmem_fcollect64(dst64, src64, mine, a.start, a.logstride, a.size,
                                                 ps);
                            else
                                shmem_collect64(dst64, src64, mine, a.start, a.logstride, a.size,
                                                ps);
                            CHECK_PSYNC(ps, SHMEM_COLLECT_SYNC_SIZE);
                            for (int j = 0; j < a.size; j++) {
                                size_t nj = count_of(pattern, base, j);
                                int    pj = aset_pe(a, j);
                                if (w == 32) {
                                    uint32_t *blk = dst32 + off[j];
                                    CHECK_ARRAY(blk, nj, cval32(c, pj, i));
                                } else {
                                    uint64_t *blk = dst64 + off[j];
                                    CHECK_ARRAY(blk, nj, cval64(c, pj, i));
                                }
                            }
                        }
                        shmem_barrier_all();
                        void  *dst = w == 32 ? (void *)dst32 : (void *)dst64;
                        size_t wb = (size_t)w / 8;
                        if (idx < 0)
                            CHECK_POISON(dst, (total + GUARD) * wb, "dest of a PE outside the set");
                        else
                            CHECK_POISON((char *)dst + total * wb, GUARD * wb, "dest past the blocks");
                        CHECK_PSYNC(ps, SHMEM_COLLECT_SYNC_SIZE);
                    }
                }
            }
        }
    }
}

#if PE_SPEC_AT_LEAST(1, 5)
/* One typed team collect and fcollect of n elements per member (collect:
 * n + member % 3). */
#define TEAM_TYPED(TYPE, TN, team, n, tagexpr)                                                        \
    do {                                                                                          \
        const uint64_t tag_ = (tagexpr);                                                          \
        TYPE        *s_ = (TYPE *)src, *d_ = (TYPE *)dst;                                         \
        const int    tme_ = shmem_team_my_pe(team), tn_ = shmem_team_n_pes(team);                 \
        const size_t mine_ = (n) + (size_t)(tme_ % 3);                                            \
        size_t       total_ = 0;                                                                  \
        for (int j = 0; j < tn_; j++)                                                             \
            total_ += (n) + (size_t)(j % 3);                                                      \
        for (size_t i = 0; i < mine_; i++)                                                        \
            s_[i] = PE_VALUE(TYPE, pe_key(tag_, (uint64_t)tme_, i, 2, 0));                         \
        memset(d_, POISON_BYTE, (total_ + GUARD) * sizeof(TYPE));                                 \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_collect(team, d_, s_, mine_), 0);                                   \
        for (int j = 0, o = 0; j < tn_; o += (int)(n) + j % 3, j++)                               \
            for (size_t i = 0; i < (n) + (size_t)(j % 3); i++)                                    \
                CHECK_EQ(d_[o + (int)i], PE_VALUE(TYPE, pe_key(tag_, (uint64_t)j, i, 2, 0)));      \
        shmem_team_sync(team);                                                                    \
        CHECK_POISON(d_ + total_, GUARD * sizeof(TYPE), "team collect dest past the blocks");     \
        memset(d_, POISON_BYTE, ((n) * (size_t)tn_ + GUARD) * sizeof(TYPE));                      \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_fcollect(team, d_, s_, (n)), 0);                                    \
        for (int j = 0; j < tn_; j++)                                                             \
            for (size_t i = 0; i < (n); i++)                                                      \
                CHECK_EQ(d_[(size_t)j * (n) + i], PE_VALUE(TYPE, pe_key(tag_, (uint64_t)j, i, 2, 0))); \
        shmem_team_sync(team);                                                                    \
        CHECK_POISON(d_ + (n) * (size_t)tn_, GUARD * sizeof(TYPE), "team fcollect dest past the blocks"); \
    } while (0)

static void team_collect(shmem_team_t team, const char *name, void *src, void *dst)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    uint64_t  tag = 5000;
    size_t    counts[4] = {1, 7, 100, NLARGE / (size_t)tn};

    for (int k = 0; k < 4; k++) {
        size_t n = counts[k];
        COLL_CASE("team %s collect/fcollect n %zu", name, n);
        TEAM_TYPED(int, int, team, n, tag++);
        TEAM_TYPED(long, long, team, n, tag++);
        TEAM_TYPED(unsigned char, uchar, team, n, tag++);
        TEAM_TYPED(float, float, team, n, tag++);
        TEAM_TYPED(int64_t, int64, team, n, tag++);
        TEAM_TYPED(ptrdiff_t, ptrdiff, team, n, tag++);

        /* collectmem / fcollectmem: bytes, odd counts. */
        size_t nb = n * 3 + 1, total = 0;
        for (int j = 0; j < tn; j++)
            total += nb + (size_t)j;
        pe_fill_pattern(src, nb + (size_t)tme, tag * 31 + (uint64_t)tme);
        memset(dst, POISON_BYTE, total + GUARD);
        shmem_team_sync(team);
        CHECK_EQ(shmem_collectmem(team, dst, src, nb + (size_t)tme), 0);
        for (int j = 0, o = 0; j < tn; o += (int)(nb + (size_t)j), j++)
            pe_check_pattern(__FILE__, __LINE__, "collectmem block", (char *)dst + o,
                             nb + (size_t)j, tag * 31 + (uint64_t)j);
        shmem_team_sync(team);
        CHECK_POISON((char *)dst + total, GUARD, "collectmem dest past the blocks");
        memset(dst, POISON_BYTE, nb * (size_t)tn + GUARD);
        shmem_team_sync(team);
        CHECK_EQ(shmem_fcollectmem(team, dst, src, nb), 0);
        for (int j = 0; j < tn; j++)
            pe_check_pattern(__FILE__, __LINE__, "fcollectmem block", (char *)dst + nb * (size_t)j,
                             nb, tag * 31 + (uint64_t)j);
        shmem_team_sync(team);
        CHECK_POISON((char *)dst + nb * (size_t)tn, GUARD, "fcollectmem dest past the blocks");
        tag++;
    }

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    COLL_CASE("team %s generic collect/fcollect", name);
    {
        double *s = src, *d = dst;
        s[0] = tme + 0.25;
        s[1] = -tme;
        shmem_team_sync(team);
        CHECK_EQ(shmem_fcollect(team, d, s, 2), 0);
        for (int j = 0; j < tn; j++) {
            CHECK_EQ(d[2 * j], j + 0.25);
            CHECK_EQ(d[2 * j + 1], (double)-j);
        }
        shmem_team_sync(team);
        CHECK_EQ(shmem_collect(team, d, s, (size_t)(tme % 2 + 1)), 0);
        for (int j = 0, o = 0; j < tn; o += j % 2 + 1, j++) {
            CHECK_EQ(d[o], j + 0.25);
            if (j % 2)
                CHECK_EQ(d[o + 1], (double)-j);
        }
        shmem_team_sync(team);
    }
#endif

    /* Back to back with no synchronisation: fcollects into distinct
     * slices, checked after the last. */
    COLL_CASE("team %s back-to-back fcollect", name);
    {
        long *s = src, *d = dst;
        for (int r = 0; r < 6; r++)
            s[r] = tme * 10 + r;
        shmem_team_sync(team);
        for (int r = 0; r < 6; r++)
            CHECK_EQ(shmem_long_fcollect(team, d + r * tn, s + r, 1), 0);
        for (int r = 0; r < 6; r++)
            for (int j = 0; j < tn; j++)
                CHECK_EQ(d[r * tn + j], (long)(j * 10 + r));
        shmem_team_sync(team);
    }
}
#endif

int main(void)
{
    pe_test_init();
    const int npes PE_UNUSED = pe_npes;

    uint32_t *src32 = shmem_malloc((NLARGE + 64) * 4), *dst32 = shmem_malloc(DSTMAX * 4);
    uint64_t *src64 = shmem_malloc((NLARGE + 64) * 8), *dst64 = shmem_malloc(DSTMAX * 8);
    CHECK(src32 && dst32 && src64 && dst64);
    psync_init(psync[0], SHMEM_COLLECT_SYNC_SIZE);
    psync_init(psync[1], SHMEM_COLLECT_SYNC_SIZE);
    shmem_barrier_all();

    pe_section("active-set collect32/64 and fcollect32/64");
    active_set_sweep(src32, dst32, src64, dst64);

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("team collect/fcollect");
    team_collect(SHMEM_TEAM_WORLD, "world", src64, dst64);
    shmem_team_t even = SHMEM_TEAM_INVALID;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even), 0);
    team_collect(even, "even", src64, dst64);
    shmem_barrier_all();
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
#endif

    shmem_free(dst64);
    shmem_free(src64);
    shmem_free(dst32);
    shmem_free(src32);
    return pe_test_finish();
}
