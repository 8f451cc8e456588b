/*
 * Reductions: every active-set *_to_all routine (and/or/xor over the
 * integer types, max/min over integers and reals, sum/prod over those and
 * complexf/complexd), and (1.5+) the team *_reduce routines for every op
 * over several types each, the C11 generic forms, and (1.6) sum_inscan /
 * sum_exscan.
 *
 * Values are small integers (integer-valued floats, Gaussian integers for
 * complex), so every expected result is exact in any order of evaluation.
 * Active-set checks: results on every member, PEs outside the set
 * untouched, pSync back to SHMEM_SYNC_VALUE on return, and pWrk sized
 * exactly max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) with guard
 * elements after it that must stay untouched (no scratch use past pWrk),
 * nreduce up to 100000 (past any pWrk-sized chunk). Two pSync/pWrk pairs
 * used alternately with no barrier in between (SGI's shmem_max page,
 * example 2).
 */
#include "coll_util.h"
#include <complex.h>

#define NLARGE 100000
#define GUARD  4

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];

/* Symmetric buffers big enough for NLARGE + GUARD double complex. */
static void *g_src, *g_dst, *g_wrk[2];

/* ---- values and folds ---------------------------------------------------- */

static const int prod_vals[4] = {2, -1, 1, 1};

#define VAL_BIT(TYPE, pe, i, c)  ((TYPE)pe_key((uint64_t)(c), (uint64_t)(pe), (uint64_t)(i), 7, 0))
#define VAL_MM(TYPE, pe, i, c)   ((TYPE)((int)(((pe) * 7 + (int)((i) % 1009) * 13 + (c)) % 23) - 11))
#define VAL_SUM(TYPE, pe, i, c)  ((TYPE)(((pe) + 1) * (int)((i) % 5 + 1) - 3 * (int)(((i) + (c)) % 2)))
#define VAL_PROD(TYPE, pe, i, c) ((TYPE)prod_vals[((pe) + (int)((i) % 4) + (c)) % 4])
/* Gaussian integers: sums stay small, products of {1+i, -1, i, 1} too. */
#define VAL_CSUM(TYPE, pe, i, c)                                                                  \
    ((TYPE)((double)((pe) + 1) + (double)((int)((i) % 3) - (pe) + (c) % 2) * I))
static const double complex cprod_vals[4] = {1.0 + 1.0 * I, -1.0, 1.0 * I, 1.0};
#define VAL_CPROD(TYPE, pe, i, c) ((TYPE)cprod_vals[((pe) + (int)((i) % 4) + (c)) % 4])

#define FOLD_and(a, b)  ((a) & (b))
#define FOLD_or(a, b)   ((a) | (b))
#define FOLD_xor(a, b)  ((a) ^ (b))
#define FOLD_max(a, b)  ((a) > (b) ? (a) : (b))
#define FOLD_min(a, b)  ((a) < (b) ? (a) : (b))
#define FOLD_sum(a, b)  ((a) + (b))
#define FOLD_prod(a, b) ((a) * (b))

/* Equality for every type here, complex included, reported with both parts. */
#define CHECK_RED(got, want, what, i)                                                             \
    do {                                                                                          \
        if (!((got) == (want))) {                                                                 \
            char e_[96], g_[96], x_[160];                                                         \
            snprintf(e_, sizeof(e_), "%.21Lg%+.21Lgi", (long double)creall(want),                 \
                     (long double)cimagl(want));                                                  \
            snprintf(g_, sizeof(g_), "%.21Lg%+.21Lgi", (long double)creall(got),                  \
                     (long double)cimagl(got));                                                   \
            snprintf(x_, sizeof(x_), "%s element %zu", what, (size_t)(i));                        \
            pe_fail(__FILE__, __LINE__, x_, e_, g_);                                              \
        }                                                                                         \
    } while (0)

static size_t wrk_elems(size_t n)
{
    size_t w = n / 2 + 1;
    return w < (size_t)SHMEM_REDUCE_MIN_WRKDATA_SIZE ? (size_t)SHMEM_REDUCE_MIN_WRKDATA_SIZE : w;
}

/* ---- active set: one routine per (type, op) ------------------------------ */

/* Runs TN_OP_to_all over set a with n elements, case c, pair p; in place
 * when inplace. */
#define DEF_TOALL(TYPE, TN, OP, KIND)                                                             \
    static void toall_##TN##_##OP(aset_t a, size_t n, int c, int p, int inplace)                 \
    {                                                                                             \
        const int me = pe_me, idx = aset_index(a, me);                                            \
        TYPE     *src = g_src, *dst = inplace ? (TYPE *)g_src : (TYPE *)g_dst;                    \
        TYPE     *wrk = g_wrk[p];                                                                 \
        size_t    nw = wrk_elems(n);                                                              \
        long     *ps = psync[p];                                                                  \
        COLL_CASE("shmem_" #TN "_" #OP "_to_all start %d logstride %d size %d n %zu%s", a.start,  \
                  a.logstride, a.size, n, inplace ? " in place" : "");                            \
        for (size_t i = 0; i < n; i++)                                                            \
            src[i] = VAL_##KIND(TYPE, me, i, c);                                                  \
        if (!inplace)                                                                             \
            memset(dst, POISON_BYTE, (n + GUARD) * sizeof(TYPE));                                 \
        memset(wrk + nw, POISON_BYTE, GUARD * sizeof(TYPE));                                      \
        shmem_barrier_all();                                                                      \
        if (idx >= 0) {                                                                           \
            shmem_##TN##_##OP##_to_all(dst, src, (int)n, a.start, a.logstride, a.size, wrk, ps);  \
            CHECK_PSYNC(ps, SHMEM_REDUCE_SYNC_SIZE);                                              \
            for (size_t i = 0; i < n; i++) {                                                      \
                TYPE want = VAL_##KIND(TYPE, aset_pe(a, 0), i, c);                                \
                for (int j = 1; j < a.size; j++)                                                  \
                    want = (TYPE)FOLD_##OP(want, VAL_##KIND(TYPE, aset_pe(a, j), i, c));          \
                TYPE got = PE_READ(dst[i]);                                                       \
                CHECK_RED(got, want, "shmem_" #TN "_" #OP "_to_all target", i);                   \
            }                                                                                     \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
        if (idx < 0 && !inplace)                                                                  \
            pe_check_filled(__FILE__, __LINE__, "target of a PE outside the set", dst,            \
                            (n + GUARD) * sizeof(TYPE), POISON_BYTE);                             \
        if (idx < 0 && inplace)                                                                   \
            for (size_t i = 0; i < n; i++)                                                        \
                CHECK_RED(src[i], VAL_##KIND(TYPE, me, i, c), "source of a PE outside the set", i); \
        if (!inplace)                                                                             \
            pe_check_filled(__FILE__, __LINE__, "target past nreduce", dst + n,                   \
                            GUARD * sizeof(TYPE), POISON_BYTE);                                   \
        pe_check_filled(__FILE__, __LINE__, "guard after pWrk (scratch used past pWrk)", wrk + nw, \
                        GUARD * sizeof(TYPE), POISON_BYTE);                                       \
        CHECK_PSYNC(ps, SHMEM_REDUCE_SYNC_SIZE);                                                  \
    }

/* Spec: and/or/xor over short, int, long, long long; max/min add float,
 * double, long double; sum/prod add complexd and complexf. */
#define BIT_TYPES(X, OP)                                                                          \
    X(short, short, OP, BIT) X(int, int, OP, BIT) X(long, long, OP, BIT)                          \
    X(long long, longlong, OP, BIT)
#define REAL_TYPES(X, OP, KIND)                                                                   \
    X(short, short, OP, KIND) X(int, int, OP, KIND) X(long, long, OP, KIND)                       \
    X(long long, longlong, OP, KIND) X(float, float, OP, KIND) X(double, double, OP, KIND)        \
    X(long double, longdouble, OP, KIND)

BIT_TYPES(DEF_TOALL, and)
BIT_TYPES(DEF_TOALL, or)
BIT_TYPES(DEF_TOALL, xor)
REAL_TYPES(DEF_TOALL, max, MM)
REAL_TYPES(DEF_TOALL, min, MM)
REAL_TYPES(DEF_TOALL, sum, SUM)
REAL_TYPES(DEF_TOALL, prod, PROD)
DEF_TOALL(double complex, complexd, sum, CSUM)
DEF_TOALL(float complex, complexf, sum, CSUM)
DEF_TOALL(double complex, complexd, prod, CPROD)
DEF_TOALL(float complex, complexf, prod, CPROD)

typedef void (*toall_fn)(aset_t, size_t, int, int, int);
#define REF(TYPE, TN, OP, KIND) toall_##TN##_##OP,
static const toall_fn all_toall[] = {
    BIT_TYPES(REF, and) BIT_TYPES(REF, or) BIT_TYPES(REF, xor)
    REAL_TYPES(REF, max, MM) REAL_TYPES(REF, min, MM)
    REAL_TYPES(REF, sum, SUM) REAL_TYPES(REF, prod, PROD)
    toall_complexd_sum, toall_complexf_sum, toall_complexd_prod, toall_complexf_prod,
};
/* One per op for the bigger counts. */
static const toall_fn some_toall[] = {
    toall_int_and, toall_long_or, toall_longlong_xor, toall_double_max, toall_short_min,
    toall_long_sum, toall_float_prod, toall_complexd_sum, toall_complexf_prod,
};
#define NALL  (int)(sizeof(all_toall) / sizeof(all_toall[0]))
#define NSOME (int)(sizeof(some_toall) / sizeof(some_toall[0]))

static void active_set_sweep(void)
{
    const int npes = pe_npes;
    aset_t    sets[ASET_MAX];
    int       ns = aset_list(sets, npes), c = 0;

    for (int s = 0; s < ns; s++) {
        aset_t a = sets[s];
        int    large = aset_is_large(a, npes);
        /* Every routine with 1 and 7 elements, and 7 in place. */
        for (int f = 0; f < NALL; f++) {
            all_toall[f](a, 1, c, c & 1, 0), c++;
            all_toall[f](a, 7, c, c & 1, 0), c++;
            if (s == 0 || large)
                all_toall[f](a, 7, c, c & 1, 1), c++;
        }
        /* One routine per op with 1000 (several pWrk-sized chunks) and, on
         * two sets, 100000 elements. */
        for (int f = 0; f < NSOME; f++) {
            some_toall[f](a, 1000, c, c & 1, 0), c++;
            if (large)
                some_toall[f](a, NLARGE, c, c & 1, f % 2), c++;
        }
    }
}

/* SGI's shmem_max page, example 2, generalised: reductions on one active
 * set alternating two pSync/pWrk pairs with no barrier between calls,
 * each into its own target element. */
static int alt_src[64], alt_dst[64];
static double alt_dsrc[64], alt_ddst[64];
static void alternating_pairs(aset_t a)
{
    const int me = pe_me, idx = aset_index(a, me);
    int      *wrk[2] = {g_wrk[0], g_wrk[1]};
    double   *dwrk[2] = {g_wrk[0], g_wrk[1]};

    COLL_CASE("alternating pSync/pWrk pairs, start %d logstride %d size %d", a.start, a.logstride,
              a.size);
    for (int k = 0; k < 64; k++) {
        alt_src[k] = (me * 31 + k * 17) % 97;
        alt_dsrc[k] = (double)((me + 1) * (k + 1));
        alt_dst[k] = -1;
        alt_ddst[k] = -1;
    }
    shmem_barrier_all();
    if (idx >= 0) {
        for (int k = 0; k < 64; k++) {
            if (k % 3 == 2)
                shmem_double_sum_to_all(&alt_ddst[k], &alt_dsrc[k], 1, a.start, a.logstride,
                                        a.size, dwrk[k & 1], psync[k & 1]);
            else
                shmem_int_max_to_all(&alt_dst[k], &alt_src[k], 1, a.start, a.logstride, a.size,
                                     wrk[k & 1], psync[k & 1]);
        }
        for (int k = 0; k < 64; k++) {
            if (k % 3 == 2) {
                double want = 0;
                for (int j = 0; j < a.size; j++)
                    want += (double)((aset_pe(a, j) + 1) * (k + 1));
                CHECK_RED(alt_ddst[k], want, "alternating double_sum_to_all", k);
            } else {
                int want = -1;
                for (int j = 0; j < a.size; j++)
                    want = FOLD_max(want, (aset_pe(a, j) * 31 + k * 17) % 97);
                CHECK_RED(alt_dst[k], want, "alternating int_max_to_all", k);
            }
        }
        CHECK_PSYNC(psync[0], SHMEM_REDUCE_SYNC_SIZE);
        CHECK_PSYNC(psync[1], SHMEM_REDUCE_SYNC_SIZE);
    }
    shmem_barrier_all();
}

/* ---- teams ------------------------------------------------------------- */

#if PE_SPEC_AT_LEAST(1, 5)
#define DEF_TEAMRED(TYPE, TN, OP, KIND)                                                           \
    static void teamred_##TN##_##OP(shmem_team_t team, size_t n, int c, int inplace)             \
    {                                                                                             \
        const int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);                      \
        TYPE     *src = g_src, *dst = inplace ? (TYPE *)g_src : (TYPE *)g_dst;                    \
        COLL_CASE("shmem_" #TN "_" #OP "_reduce team size %d n %zu%s", tn, n,                     \
                  inplace ? " in place" : "");                                                    \
        for (size_t i = 0; i < n; i++)                                                            \
            src[i] = VAL_##KIND(TYPE, tme, i, c);                                                 \
        if (!inplace)                                                                             \
            memset(dst, POISON_BYTE, (n + GUARD) * sizeof(TYPE));                                 \
        shmem_team_sync(team);                                                                    \
        CHECK_EQ(shmem_##TN##_##OP##_reduce(team, dst, src, n), 0);                               \
        for (size_t i = 0; i < n; i++) {                                                          \
            TYPE want = VAL_##KIND(TYPE, 0, i, c);                                                \
            for (int j = 1; j < tn; j++)                                                          \
                want = (TYPE)FOLD_##OP(want, VAL_##KIND(TYPE, j, i, c));                          \
            TYPE got = PE_READ(dst[i]);                                                           \
            CHECK_RED(got, want, "shmem_" #TN "_" #OP "_reduce dest", i);                         \
        }                                                                                         \
        shmem_team_sync(team);                                                                    \
        if (!inplace)                                                                             \
            pe_check_filled(__FILE__, __LINE__, "dest past nreduce", dst + n,                     \
                            GUARD * sizeof(TYPE), POISON_BYTE);                                   \
    }

/* A few types per op, unsigned, fixed-width and typedef names included. */
#define TEAM_LIST(X)                                                                              \
    X(unsigned char, uchar, and, BIT) X(uint64_t, uint64, and, BIT) X(size_t, size, and, BIT)     \
    X(unsigned short, ushort, or, BIT) X(int32_t, int32, or, BIT) X(unsigned long long, ulonglong, or, BIT) \
    X(unsigned int, uint, xor, BIT) X(int8_t, int8, xor, BIT) X(uint16_t, uint16, xor, BIT)       \
    X(char, char, max, MM) X(long, long, max, MM) X(double, double, max, MM)                      \
    X(long double, longdouble, max, MM) X(ptrdiff_t, ptrdiff, max, MM)                            \
    X(signed char, schar, min, MM) X(int16_t, int16, min, MM) X(float, float, min, MM)                 \
    X(unsigned long, ulong, min, MM)                                                              \
    X(int, int, sum, SUM) X(long long, longlong, sum, SUM) X(double, double, sum, SUM)            \
    X(uint32_t, uint32, sum, SUM) X(double complex, complexd, sum, CSUM)                          \
    X(float complex, complexf, sum, CSUM)                                                         \
    X(short, short, prod, PROD) X(int64_t, int64, prod, PROD) X(float, float, prod, PROD)         \
    X(long double, longdouble, prod, PROD) X(double complex, complexd, prod, CPROD)               \
    X(float complex, complexf, prod, CPROD)

TEAM_LIST(DEF_TEAMRED)

typedef void (*teamred_fn)(shmem_team_t, size_t, int, int);
#define TREF(TYPE, TN, OP, KIND) teamred_##TN##_##OP,
static const teamred_fn all_teamred[] = {TEAM_LIST(TREF)};
#define NTEAMRED (int)(sizeof(all_teamred) / sizeof(all_teamred[0]))

static void team_reduce(shmem_team_t team, const char *name)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    int       c = 100;

    pe_section_set(name);
    for (int f = 0; f < NTEAMRED; f++) {
        all_teamred[f](team, 1, c++, 0);
        all_teamred[f](team, 7, c++, f % 3 == 0);
        all_teamred[f](team, 1000, c++, 0);
    }
    teamred_long_max(team, NLARGE, c++, 0);
    teamred_complexd_sum(team, NLARGE, c++, 1);
    teamred_uint64_and(team, NLARGE, c++, 0);

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    /* The C11 generic forms. */
    COLL_CASE("team %s generic reductions", name);
    {
        static unsigned long us[4], ud[4];
        static int           is[4], id[4];
        static double        ds[4], dd[4];
        for (int i = 0; i < 4; i++) {
            us[i] = 1ul << ((tme + i) % 64);
            is[i] = tme * 3 - i;
            ds[i] = tme + 0.5;
        }
        shmem_team_sync(team);
        unsigned long uor = 0, uand = ~0ul, uxor = 0;
        for (int j = 0; j < tn; j++) {
            uor |= 1ul << ((j + 1) % 64);
            uand &= 1ul << ((j + 1) % 64);
            uxor ^= 1ul << ((j + 1) % 64);
        }
        CHECK_EQ(shmem_or_reduce(team, ud, us, 4), 0);
        CHECK_EQ(ud[1], uor);
        CHECK_EQ(shmem_and_reduce(team, ud, us, 4), 0);
        CHECK_EQ(ud[1], uand);
        CHECK_EQ(shmem_xor_reduce(team, ud, us, 4), 0);
        CHECK_EQ(ud[1], uxor);
        CHECK_EQ(shmem_max_reduce(team, id, is, 4), 0);
        CHECK_EQ(id[2], (tn - 1) * 3 - 2);
        CHECK_EQ(shmem_min_reduce(team, id, is, 4), 0);
        CHECK_EQ(id[3], -3);
        CHECK_EQ(shmem_sum_reduce(team, dd, ds, 4), 0);
        CHECK_EQ(dd[0], tn * (tn - 1) / 2.0 + tn * 0.5);
        CHECK_EQ(shmem_prod_reduce(team, id, is, 2), 0);
        {
            int want = 1;
            for (int j = 0; j < tn; j++)
                want *= j * 3 - 1;
            CHECK_EQ(id[1], want);
        }
        shmem_team_sync(team);
    }
#endif

    /* Back to back: reductions into distinct elements, no sync between. */
    COLL_CASE("team %s back-to-back reductions", name);
    {
        static long bs[16], bd[16];
        for (int k = 0; k < 16; k++)
            bs[k] = tme * 16 + k;
        shmem_team_sync(team);
        for (int k = 0; k < 16; k++)
            CHECK_EQ(shmem_long_sum_reduce(team, &bd[k], &bs[k], 1), 0);
        for (int k = 0; k < 16; k++)
            CHECK_EQ(bd[k], (long)(16 * tn * (tn - 1) / 2 + k * tn));
        shmem_team_sync(team);
    }

#if PE_SPEC_AT_LEAST(1, 6)
    /* Scans: inclusive and exclusive prefix sums in team order. The
     * exclusive scan's dest on team PE 0 is undefined by the spec, so it
     * is not checked. */
    COLL_CASE("team %s sum_inscan/sum_exscan", name);
    {
        size_t counts[3] = {1, 7, 5000};
        for (int k = 0; k < 3; k++) {
            size_t n = counts[k];
            long  *s = g_src, *d = g_dst;
            for (size_t i = 0; i < n; i++)
                s[i] = (long)((tme + 1) * (int)(i % 11 + 1));
            memset(d, POISON_BYTE, (n + GUARD) * sizeof(long));
            shmem_team_sync(team);
            CHECK_EQ(shmem_long_sum_inscan(team, d, s, n), 0);
            for (size_t i = 0; i < n; i++)
                CHECK_EQ(d[i], (long)((tme + 1) * (tme + 2) / 2 * (int)(i % 11 + 1)));
            shmem_team_sync(team);
            pe_check_filled(__FILE__, __LINE__, "inscan dest past nelems", d + n,
                            GUARD * sizeof(long), POISON_BYTE);
            CHECK_EQ(shmem_long_sum_exscan(team, d, s, n), 0);
            if (tme > 0)
                for (size_t i = 0; i < n; i++)
                    CHECK_EQ(d[i], (long)(tme * (tme + 1) / 2 * (int)(i % 11 + 1)));
            shmem_team_sync(team);
        }
        /* Other types, and the generic names. */
        static double        dsrc[3], ddst[3];
        static unsigned char usrc[3], udst[3];
        static int           isrc[1], idst[1];
        for (int i = 0; i < 3; i++) {
            dsrc[i] = tme + 1;
            usrc[i] = (unsigned char)(i + 1);
        }
        isrc[0] = tme;
        shmem_team_sync(team);
        CHECK_EQ(shmem_double_sum_inscan(team, ddst, dsrc, 3), 0);
        CHECK_EQ(ddst[2], (double)((tme + 1) * (tme + 2) / 2));
        CHECK_EQ(shmem_uchar_sum_exscan(team, udst, usrc, 3), 0);
        if (tme > 0)
            CHECK_EQ(udst[1], (unsigned char)(2 * tme));
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
        CHECK_EQ(shmem_sum_inscan(team, idst, isrc, 1), 0);
        CHECK_EQ(idst[0], tme * (tme + 1) / 2);
        CHECK_EQ(shmem_sum_exscan(team, idst, isrc, 1), 0);
        if (tme > 0)
            CHECK_EQ(idst[0], (tme - 1) * tme / 2);
#endif
        /* In place, as the spec's example does with one size_t. */
        static size_t sz;
        sz = (size_t)(tme + 1) * 10;
        shmem_team_sync(team);
        CHECK_EQ(shmem_size_sum_exscan(team, &sz, &sz, 1), 0);
        if (tme > 0)
            CHECK_EQ(sz, (size_t)(10 * tme * (tme + 1) / 2));
        shmem_team_sync(team);
    }
#endif
}
#endif

int main(void)
{
    pe_test_init();
    const int npes = pe_npes;
    size_t    bytes = (NLARGE + 2 * GUARD) * sizeof(long double complex);

    g_src = shmem_malloc(bytes);
    g_dst = shmem_malloc(bytes);
    g_wrk[0] = shmem_malloc(bytes / 2 + 64 * sizeof(long double complex));
    g_wrk[1] = shmem_malloc(bytes / 2 + 64 * sizeof(long double complex));
    CHECK(g_src && g_dst && g_wrk[0] && g_wrk[1]);
    psync_init(psync[0], SHMEM_REDUCE_SYNC_SIZE);
    psync_init(psync[1], SHMEM_REDUCE_SYNC_SIZE);
    shmem_barrier_all();

    pe_section("active-set *_to_all");
    active_set_sweep();

    pe_section("alternating pSync/pWrk pairs");
    alternating_pairs((aset_t){0, 0, npes});
    if (npes > 2)
        alternating_pairs((aset_t){1, 1, (npes - 1 + 1) / 2});
    alternating_pairs((aset_t){npes - 1, 0, 1});

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("team reductions");
    team_reduce(SHMEM_TEAM_WORLD, "world");
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 1) {
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
        team_reduce(odd, "odd");
    }
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
#endif

    shmem_free(g_wrk[1]);
    shmem_free(g_wrk[0]);
    shmem_free(g_dst);
    shmem_free(g_src);
    return pe_test_finish();
}
