/*
 * All-to-all exchange: the active-set shmem_alltoall32/64 and
 * shmem_alltoalls32/64 (strides dst, sst 1..3), and (1.5+) the team forms,
 * typed, _Generic and *mem.
 *
 * The rule checked (Open MPI's shmem_alltoall page): the sst*j-th block
 * sent from member i to member j lands in the dst*i-th block of dest on
 * member j; the gaps the strides leave in dest, anything past the last
 * block, and every PE outside the set stay untouched; pSync is
 * SHMEM_SYNC_VALUE on return.
 */
#include "coll_util.h"

#define NLARGE 100000
#define GUARD  4
#define BUFMAX (3 * NLARGE + 1024)

static long psync[2][SHMEM_ALLTOALLS_SYNC_SIZE > SHMEM_ALLTOALL_SYNC_SIZE
                         ? SHMEM_ALLTOALLS_SYNC_SIZE
                         : SHMEM_ALLTOALL_SYNC_SIZE];
#define PSYNC_WORDS (sizeof(psync[0]) / sizeof(long))

/* Value member i sends to member j as element k. */
static uint64_t v64(int c, int i, int j, size_t k)
{
    return cval64(c, i * 4096 + j, k);
}
static uint32_t v32(int c, int i, int j, size_t k)
{
    return cval32(c, i * 4096 + j, k);
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
        /* 256 and 257 64-bit elements: a block that just fills the
         * largest per-source slot (2 KiB) and one that just misses it. */
        size_t counts[6] = {1, 7, 100, 256, 257, NLARGE / (size_t)a.size + 1};

        for (int k = 0; k < (large ? 6 : 5); k++) {
            size_t n = counts[k];
            /* (dst, sst): (0,0) means plain alltoall. */
            int strides[5][2] = {{0, 0}, {1, 1}, {2, 1}, {1, 3}, {3, 2}};
            for (int st = 0; st < 5; st++) {
                ptrdiff_t dst = strides[st][0], sst = strides[st][1];
                int       plain = dst == 0;
                if (k == 5 && st > 2)
                    continue; /* the large count with strides 1 and 2 only */
                if (plain)
                    dst = sst = 1;
                for (int w = 32; w <= 64; w += 32) {
                    long  *ps = psync[c & 1];
                    size_t extent = (size_t)a.size * n * (size_t)dst + GUARD;
                    c++;
                    COLL_CASE("%s%d start %d logstride %d size %d n %zu dst %td sst %td",
                              plain ? "alltoall" : "alltoalls", w, a.start, a.logstride, a.size, n,
                              dst, sst);
                    memset(dst32, POISON_BYTE, extent * 4);
                    memset(dst64, POISON_BYTE, extent * 8);
                    memset(src32, POISON_BYTE, (size_t)a.size * n * (size_t)sst * 4);
                    memset(src64, POISON_BYTE, (size_t)a.size * n * (size_t)sst * 8);
                    if (idx >= 0)
                        for (int j = 0; j < a.size; j++)
                            for (size_t e = 0; e < n; e++) {
                                size_t at = ((size_t)j * n + e) * (size_t)sst;
                                src32[at] = v32(c, idx, j, e);
                                src64[at] = v64(c, idx, j, e);
                            }
                    shmem_barrier_all();
                    if (idx >= 0) {
                        if (plain && w == 32)
                            shmem_alltoall32(dst32, src32, n, a.start, a.logstride, a.size, ps);
                        else if (plain)
                            shmem_alltoall64(dst64, src64, n, a.start, a.logstride, a.size, ps);
                        else if (w == 32)
                            shmem_alltoalls32(dst32, src32, dst, sst, n, a.start, a.logstride,
                                              a.size, ps);
                        else
                            shmem_alltoalls64(dst64, src64, dst, sst, n, a.start, a.logstride,
                                              a.size, ps);
                        CHECK_PSYNC(ps, plain ? SHMEM_ALLTOALL_SYNC_SIZE : SHMEM_ALLTOALLS_SYNC_SIZE);
                        /* Every element of dest, gaps included. */
                        for (size_t e = 0; e < (size_t)a.size * n * (size_t)dst; e++) {
                            size_t blk = e / (size_t)dst, i = blk / n, el = blk % n;
                            int    gap = e % (size_t)dst != 0;
                            if (w == 32) {
                                uint32_t want = gap ? POISON32 : v32(c, (int)i, idx, el);
                                CHECK_MSG(PE_READ(dst32[e]) == want,
                                          "dst32[%zu] from member %zu: want 0x%x got 0x%x", e, i,
                                          want, PE_READ(dst32[e]));
                            } else {
                                uint64_t want = gap ? POISON64 : v64(c, (int)i, idx, el);
                                CHECK_MSG(PE_READ(dst64[e]) == want,
                                          "dst64[%zu] from member %zu: want 0x%llx got 0x%llx", e,
                                          i, (unsigned long long)want,
                                          (unsigned long long)PE_READ(dst64[e]));
                            }
                        }
                    }
                    shmem_barrier_all();
                    void  *d = w == 32 ? (void *)dst32 : (void *)dst64;
                    size_t wb = (size_t)w / 8;
                    if (idx < 0)
                        pe_check_filled(__FILE__, __LINE__, "dest of a PE outside the set", d,
                                        extent * wb, POISON_BYTE);
                    else
                        pe_check_filled(__FILE__, __LINE__, "dest past the last block",
                                        (char *)d + (extent - GUARD) * wb, GUARD * wb,
                                        POISON_BYTE);
                    CHECK_PSYNC(ps, PSYNC_WORDS);
                }
            }
        }
    }
}

#if PE_SPEC_AT_LEAST(1, 5)
#define TEAM_TYPED(TYPE, TN, team, n, dst, sst, tagexpr)                                              \
    do {                                                                                          \
        const uint64_t tag_ = (tagexpr);                                                          \
        TYPE     *s_ = (TYPE *)src, *d_ = (TYPE *)dstbuf;                                         \
        const int tme_ = shmem_team_my_pe(team), tn_ = shmem_team_n_pes(team);                    \
        for (int j = 0; j < tn_; j++)                                                             \
            for (size_t e = 0; e < (n); e++)                                                      \
                s_[(size_t)j * (n) + e] = PE_VALUE(TYPE, pe_key(tag_, (uint64_t)tme_, (uint64_t)j, e, 3)); \
        /* plain alltoall */                                                                      \
        memset(d_, POISON_BYTE, ((size_t)tn_ * (n) + GUARD) * sizeof(TYPE));                      \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_alltoall(team, d_, s_, (n)), 0);                                    \
        for (int i = 0; i < tn_; i++)                                                             \
            for (size_t e = 0; e < (n); e++)                                                      \
                CHECK_EQ(d_[(size_t)i * (n) + e],                                                 \
                         PE_VALUE(TYPE, pe_key(tag_, (uint64_t)i, (uint64_t)tme_, e, 3)));         \
        shmem_team_sync(team);                                                                    \
        pe_check_filled(__FILE__, __LINE__, "team alltoall past the blocks",                      \
                        d_ + (size_t)tn_ * (n), GUARD * sizeof(TYPE), POISON_BYTE);               \
        /* strided: re-lay the source at stride sst */                                            \
        TYPE *ss_ = s_ + (size_t)tn_ * (n);                                                       \
        for (int j = 0; j < tn_; j++)                                                             \
            for (size_t e = 0; e < (n); e++)                                                      \
                ss_[((size_t)j * (n) + e) * (sst)] = s_[(size_t)j * (n) + e];                     \
        memset(d_, POISON_BYTE, ((size_t)tn_ * (n) * (dst) + GUARD) * sizeof(TYPE));              \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_alltoalls(team, d_, ss_, (dst), (sst), (n)), 0);                    \
        for (int i = 0; i < tn_; i++)                                                             \
            for (size_t e = 0; e < (n); e++)                                                      \
                CHECK_EQ(d_[((size_t)i * (n) + e) * (dst)],                                       \
                         PE_VALUE(TYPE, pe_key(tag_, (uint64_t)i, (uint64_t)tme_, e, 3)));         \
        shmem_team_sync(team);                                                                    \
        for (size_t e = 0; e < (size_t)tn_ * (n) * (dst); e++)                                    \
            if (e % (dst))                                                                        \
                pe_check_filled(__FILE__, __LINE__, "team alltoalls gap", d_ + e, sizeof(TYPE),   \
                                POISON_BYTE);                                                     \
    } while (0)

static void team_alltoall(shmem_team_t team, const char *name, void *src, void *dstbuf)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    uint64_t  tag = 9000;
    size_t    counts[4] = {1, 7, 64, NLARGE / (size_t)tn / 4};

    for (int k = 0; k < 4; k++) {
        size_t n = counts[k];
        COLL_CASE("team %s alltoall/alltoalls n %zu", name, n);
        TEAM_TYPED(int, int, team, n, 1, 1, tag++);
        TEAM_TYPED(long, long, team, n, 2, 3, tag++);
        TEAM_TYPED(short, short, team, n, 3, 1, tag++);
        TEAM_TYPED(double, double, team, n, 1, 2, tag++);
        TEAM_TYPED(uint8_t, uint8, team, n, 2, 2, tag++);
        TEAM_TYPED(unsigned long long, ulonglong, team, n, 1, 1, tag++);

        /* alltoallmem / alltoallsmem: bytes. */
        size_t nb = n * 2 + 1;
        for (int j = 0; j < tn; j++)
            pe_fill_pattern((char *)src + nb * (size_t)j, nb,
                            tag * 131 + (uint64_t)(tme * 64 + j));
        memset(dstbuf, POISON_BYTE, nb * (size_t)tn + GUARD);
        shmem_team_sync(team);
        CHECK_EQ(shmem_alltoallmem(team, dstbuf, src, nb), 0);
        for (int i = 0; i < tn; i++)
            pe_check_pattern(__FILE__, __LINE__, "alltoallmem block",
                             (char *)dstbuf + nb * (size_t)i, nb,
                             tag * 131 + (uint64_t)(i * 64 + tme));
        shmem_team_sync(team);
        pe_check_filled(__FILE__, __LINE__, "alltoallmem past the blocks",
                        (char *)dstbuf + nb * (size_t)tn, GUARD, POISON_BYTE);
        {
            /* alltoallsmem: nelems bytes per block, strides in bytes. */
            unsigned char *s = src, *d = dstbuf;
            size_t         sst = 3, dst = 2;
            for (int j = 0; j < tn; j++)
                for (size_t e = 0; e < n; e++)
                    s[((size_t)j * n + e) * sst] =
                        (unsigned char)(1 + (tme * 37 + j * 11 + (int)e) % 250);
            memset(d, POISON_BYTE, (size_t)tn * n * dst + GUARD);
            shmem_team_sync(team);
            CHECK_EQ(shmem_alltoallsmem(team, d, s, (ptrdiff_t)dst, (ptrdiff_t)sst, n), 0);
            for (int i = 0; i < tn; i++)
                for (size_t e = 0; e < n; e++)
                    CHECK_EQ(d[((size_t)i * n + e) * dst],
                             (unsigned char)(1 + (i * 37 + tme * 11 + (int)e) % 250));
            shmem_team_sync(team);
        }
        tag++;
    }

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    COLL_CASE("team %s generic alltoall", name);
    {
        long *s = src, *d = dstbuf;
        for (int j = 0; j < tn; j++)
            s[j] = tme * 1000 + j;
        shmem_team_sync(team);
        CHECK_EQ(shmem_alltoall(team, d, s, 1), 0);
        for (int i = 0; i < tn; i++)
            CHECK_EQ(d[i], (long)(i * 1000 + tme));
        shmem_team_sync(team);
        CHECK_EQ(shmem_alltoalls(team, d, s, 1, 1, 1), 0);
        for (int i = 0; i < tn; i++)
            CHECK_EQ(d[i], (long)(i * 1000 + tme));
        shmem_team_sync(team);
    }
#endif

    COLL_CASE("team %s back-to-back alltoall", name);
    {
        int *s = src, *d = dstbuf;
        for (int r = 0; r < 4; r++)
            for (int j = 0; j < tn; j++)
                s[r * tn + j] = r * 1000000 + tme * 1000 + j;
        shmem_team_sync(team);
        for (int r = 0; r < 4; r++)
            CHECK_EQ(shmem_int_alltoall(team, d + r * tn, s + r * tn, 1), 0);
        for (int r = 0; r < 4; r++)
            for (int i = 0; i < tn; i++)
                CHECK_EQ(d[r * tn + i], r * 1000000 + i * 1000 + tme);
        shmem_team_sync(team);
    }
}
#endif

int main(void)
{
    pe_test_init();
    const int npes PE_UNUSED = pe_npes;

    uint32_t *src32 = shmem_malloc(BUFMAX * 4), *dst32 = shmem_malloc(BUFMAX * 4);
    uint64_t *src64 = shmem_malloc(BUFMAX * 8), *dst64 = shmem_malloc(BUFMAX * 8);
    CHECK(src32 && dst32 && src64 && dst64);
    psync_init(psync[0], PSYNC_WORDS);
    psync_init(psync[1], PSYNC_WORDS);
    shmem_barrier_all();

    pe_section("active-set alltoall32/64 and alltoalls32/64");
    active_set_sweep(src32, dst32, src64, dst64);

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("team alltoall/alltoalls");
    team_alltoall(SHMEM_TEAM_WORLD, "world", src64, dst64);
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 1) {
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
        team_alltoall(odd, "odd", src64, dst64);
    }
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
#endif

    shmem_free(dst64);
    shmem_free(src64);
    shmem_free(dst32);
    shmem_free(src32);
    return pe_test_finish();
}
