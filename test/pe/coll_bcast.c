/*
 * Broadcast: the active-set shmem_broadcast32/64 and (OpenSHMEM 1.5+) the
 * team forms, typed, _Generic and shmem_broadcastmem.
 *
 * Active sets: every set from aset_list() (strides 1, 2, 4; odd and even
 * sizes; PEs left out at both ends), roots first, middle and last, counts
 * 1, 7, 1000 and, on two sets, 100000 (past any internal chunk). Checked:
 * non-root members receive the root's data and nothing past nelems; the
 * root's dest is untouched (the active-set rule of the specification's
 * broadcast page and the HPVM text); PEs outside the set are untouched;
 * pSync is SHMEM_SYNC_VALUE on return.
 *
 * Teams: the root's dest is updated too (the team broadcast page); world,
 * a strided split and a reversed split; back-to-back broadcasts with no
 * barrier.
 *
 * A root whose source is private memory (malloc): the specification asks
 * for a symmetric source, but other implementations put from any local
 * buffer and programs rely on it; every size, small and past the sizes
 * where receivers copy from the root's source themselves.
 */
#include "coll_util.h"

#define NLARGE 100000
#define GUARD  4 /* elements after nelems that must stay poisoned */

static long psync[2][SHMEM_BCAST_SYNC_SIZE];

static void active_set_sweep(uint32_t *src32, uint32_t *dst32, uint64_t *src64, uint64_t *dst64)
{
    const int me = pe_me, npes = pe_npes;
    aset_t    sets[ASET_MAX];
    int       ns = aset_list(sets, npes), c = 0;

    for (int s = 0; s < ns; s++) {
        aset_t a = sets[s];
        int    roots[3] = {0, a.size / 2, a.size - 1};
        int    idx = aset_index(a, me);

        for (int r = 0; r < 3; r++) {
            int root = roots[r];
            if ((r == 1 && root == 0) || (r == 2 && (root == roots[1] || root == 0)))
                continue;
            /* The large count on the whole world and on one strided set. */
            int    large = r == 0 && aset_is_large(a, npes);
            size_t counts[4] = {1, 7, 1000, NLARGE};
            for (int k = 0; k < (large ? 4 : 3); k++) {
                size_t n = counts[k];
                for (int w = 32; w <= 64; w += 32) {
                    long *ps = psync[c & 1];
                    c++;
                    COLL_CASE("broadcast%d start %d logstride %d size %d root %d n %zu", w,
                              a.start, a.logstride, a.size, root, n);
                    memset(dst32, POISON_BYTE, (n + GUARD) * 4);
                    memset(dst64, POISON_BYTE, (n + GUARD) * 8);
                    for (size_t i = 0; i < n; i++) {
                        src32[i] = cval32(c, me, i);
                        src64[i] = cval64(c, me, i);
                    }
                    shmem_barrier_all();
                    if (idx >= 0) {
                        if (w == 32)
                            shmem_broadcast32(dst32, src32, n, root, a.start, a.logstride,
                                              a.size, ps);
                        else
                            shmem_broadcast64(dst64, src64, n, root, a.start, a.logstride,
                                              a.size, ps);
                        CHECK_PSYNC(ps, SHMEM_BCAST_SYNC_SIZE);
                        const int rpe = aset_pe(a, root);
                        if (idx != root) {
                            if (w == 32)
                                CHECK_ARRAY(dst32, n, cval32(c, rpe, i));
                            else
                                CHECK_ARRAY(dst64, n, cval64(c, rpe, i));
                        }
                    }
                    shmem_barrier_all();
                    /* Late writes have landed by now: the root's dest, every
                     * non-member's, and everyone's tail are still poison. */
                    void  *dst = w == 32 ? (void *)dst32 : (void *)dst64;
                    size_t wb = (size_t)w / 8;
                    if (idx < 0 || idx == root)
                        CHECK_POISON(dst, (n + GUARD) * wb,
                                     idx < 0 ? "dest of a PE outside the set"
                                             : "dest of the root (active set)");
                    else
                        CHECK_POISON((char *)dst + n * wb, GUARD * wb, "dest past nelems");
                    CHECK_PSYNC(ps, SHMEM_BCAST_SYNC_SIZE);
                }
            }
        }
    }
    /* The source is intact everywhere, root included. */
    for (size_t i = 0; i < 7; i++)
        CHECK_EQ(src64[i], cval64(c, me, i));
}

#if PE_SPEC_AT_LEAST(1, 5)
static long double ld_src[64], ld_dst[64];

#define TEAM_TYPED(TYPE, TN, team, n, root, tagexpr)                                                  \
    do {                                                                                          \
        const uint64_t tag_ = (tagexpr);                                                          \
        TYPE *s_ = (TYPE *)src, *d_ = (TYPE *)dst;                                                \
        int   tme_ = shmem_team_my_pe(team);                                                      \
        memset(d_, POISON_BYTE, ((n) + GUARD) * sizeof(TYPE));                                    \
        for (size_t i = 0; i < (n); i++)                                                          \
            s_[i] = PE_VALUE(TYPE, pe_key(tag_, (uint64_t)tme_, i, 1, 0));                         \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_broadcast(team, d_, s_, (n), (root)), 0);                           \
        for (size_t i = 0; i < (n); i++)                                                          \
            CHECK_EQ(d_[i], PE_VALUE(TYPE, pe_key(tag_, (uint64_t)(root), i, 1, 0)));              \
        shmem_team_sync(team);                                                                    \
        CHECK_POISON(d_ + (n), GUARD * sizeof(TYPE), "team broadcast dest past nelems");          \
    } while (0)

static void team_bcast(shmem_team_t team, const char *name, void *src, void *dst)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    uint64_t  tag = 1000;

    for (int root = 0; root < tn; root++) {
        size_t counts[3] = {1, 7, root == 0 ? NLARGE : 33};
        for (int k = 0; k < 3; k++) {
            size_t n = counts[k];
            COLL_CASE("team %s broadcast root %d n %zu", name, root, n);
            TEAM_TYPED(int, int, team, n, root, tag++);
            TEAM_TYPED(long, long, team, n, root, tag++);
            TEAM_TYPED(char, char, team, n, root, tag++);
            TEAM_TYPED(double, double, team, n, root, tag++);
            TEAM_TYPED(uint16_t, uint16, team, n, root, tag++);
            TEAM_TYPED(size_t, size, team, n, root, tag++);
            if (n <= 64 - GUARD) {
                /* long double compared by value, never by padding. */
                for (size_t i = 0; i < n; i++)
                    ld_src[i] = (long double)(tme * 1000 + (int)i) + 0.5L;
                shmem_team_sync(team);
                CHECK_EQ(shmem_longdouble_broadcast(team, ld_dst, ld_src, n, root), 0);
                for (size_t i = 0; i < n; i++)
                    CHECK_EQ(ld_dst[i], (long double)(root * 1000 + (int)i) + 0.5L);
                shmem_team_sync(team);
            }
            /* broadcastmem: n bytes, odd lengths included. */
            pe_fill_pattern(src, n, tag * 977 + (uint64_t)tme);
            memset(dst, POISON_BYTE, n + GUARD);
            shmem_team_sync(team);
            CHECK_EQ(shmem_broadcastmem(team, dst, src, n, root), 0);
            pe_check_pattern(__FILE__, __LINE__, "broadcastmem dest", dst, n,
                             tag * 977 + (uint64_t)root);
            shmem_team_sync(team);
            CHECK_POISON((char *)dst + n, GUARD, "broadcastmem dest past nelems");
            tag++;
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
            /* C11 generic form, exactly as the team broadcast page calls it. */
            {
                long *s = src, *d = dst;
                for (int i = 0; i < 4; i++)
                    s[i] = tme == root ? i : -1;
                memset(d, POISON_BYTE, 4 * sizeof(long));
                shmem_team_sync(team);
                CHECK_EQ(shmem_broadcast(team, d, s, 4, root), 0);
                for (int i = 0; i < 4; i++)
                    CHECK_EQ(d[i], (long)i);
                shmem_team_sync(team);
            }
#endif
        }
    }

    /* Back to back: one broadcast per root into separate slices, no
     * synchronisation in between; every slice right on return of the last. */
    COLL_CASE("team %s back-to-back broadcasts", name);
    {
        long *s = src, *d = dst;
        const int per = 5;
        for (int r = 0; r < tn; r++)
            for (int i = 0; i < per; i++)
                s[r * per + i] = tme * 100000 + r * 100 + i;
        memset(d, POISON_BYTE, (size_t)(tn * per) * sizeof(long));
        shmem_team_sync(team);
        for (int round = 0; round < 3; round++)
            for (int r = 0; r < tn; r++)
                CHECK_EQ(shmem_long_broadcast(team, d + r * per, s + r * per, (size_t)per, r), 0);
        for (int r = 0; r < tn; r++)
            for (int i = 0; i < per; i++)
                CHECK_EQ(d[r * per + i], (long)(r * 100000 + r * 100 + i));
        shmem_team_sync(team);
    }
}
#endif

static void private_source(uint64_t *dst64)
{
    const int me = pe_me, npes = pe_npes;
    const size_t counts[] = {1, 300, NLARGE};

    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t    nelems = counts[c];
        int       root   = (int)c % npes;
        uint64_t *priv   = malloc(nelems * 8);
        CHECK(priv != NULL);
        for (size_t i = 0; i < nelems; i++) priv[i] = 0x5000000000ull + c * 1000000 + i;
        for (size_t i = 0; i < nelems + GUARD; i++) dst64[i] = POISON64;
        shmem_barrier_all();
        shmem_broadcast64(dst64, priv, nelems, root, 0, 0, npes,
                          psync[c & 1]);
        if (me != root) {
            for (size_t i = 0; i < nelems; i++) CHECK_EQ(dst64[i], 0x5000000000ull + c * 1000000 + i);
        }
        for (size_t i = nelems; i < nelems + GUARD; i++) CHECK_EQ(dst64[i], POISON64);
        free(priv);
    }
    shmem_barrier_all();
}

int main(void)
{
    pe_test_init();
    const int npes PE_UNUSED = pe_npes;

    size_t    bytes = (NLARGE + GUARD) * 8;
    uint32_t *src32 = shmem_malloc(bytes), *dst32 = shmem_malloc(bytes);
    uint64_t *src64 = shmem_malloc(bytes), *dst64 = shmem_malloc(bytes);
    CHECK(src32 && dst32 && src64 && dst64);
    psync_init(psync[0], SHMEM_BCAST_SYNC_SIZE);
    psync_init(psync[1], SHMEM_BCAST_SYNC_SIZE);
    shmem_barrier_all();

    pe_section("active-set broadcast32/64");
    active_set_sweep(src32, dst32, src64, dst64);

    pe_section("active-set broadcast64 from a private source");
    private_source(dst64);

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("team broadcast");
    team_bcast(SHMEM_TEAM_WORLD, "world", src64, dst64);
    shmem_team_t odd = SHMEM_TEAM_INVALID, rev = SHMEM_TEAM_INVALID;
    if (npes > 1) {
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
        team_bcast(odd, "odd", src64, dst64);
    }
    /* Reversed order (1.6: negative strides), odd sizes included. */
#if PE_SPEC_AT_LEAST(1, 6)
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev), 0);
    team_bcast(rev, "reversed", src64, dst64);
#endif
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    if (rev != SHMEM_TEAM_INVALID)
        shmem_team_destroy(rev);
#endif

    shmem_free(dst64);
    shmem_free(src64);
    shmem_free(dst32);
    shmem_free(src32);
    return pe_test_finish();
}
