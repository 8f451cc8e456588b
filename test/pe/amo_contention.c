/*
 * Atomics under contention, for every type of each AMO family.
 *
 *  - sums: every PE does K inc/add/fetch_add/fetch_inc on one counter on
 *    PE 0 and adds to every PE's counter; totals must be exact, and every
 *    value fetch_inc returned on a separate counter must be distinct
 *    (0..npes*K-1 each exactly once), which a read-modify-write race breaks;
 *  - compare_swap claims: every PE tries to claim every slot on PE 0;
 *    each slot is claimed by exactly one PE, the one it names;
 *  - swap chains: every value swapped in comes out exactly once (returned
 *    by a later swap, or left in the variable), also for float and double;
 *  - set/fetch for every extended type (float and double included);
 *  - and/or/xor and their fetching forms: each PE owns one bit;
 *  - the deprecated 1.4 names (shmem_int_finc, shmem_long_fadd, ...).
 */
#include "pe_test.h"
#include <ushmem/types.h>

/* Headers before 1.5 had no fixed-width names (int32, size, ...) for the
 * standard and extended AMOs; the bitwise ones always had them. */
#if PE_SPEC_AT_LEAST(1, 5)
#define AMO_TYPES     USHMEM_AMO_TYPES
#define AMO_EXT_TYPES USHMEM_AMO_EXT_TYPES
#else
#define AMO_TYPES     USHMEM_AMO_TYPES_STD
#define AMO_EXT_TYPES USHMEM_AMO_EXT_TYPES_STD
#endif

#define K        200 /* operations per PE per phase: enough to collide */
#define K_ALL    3  /* operations per PE per target in the all-targets sum */
#define MAX_BITS 31 /* bit phase: one bit per PE, below int32_t's sign bit */

/* A fetched value must lie in [0, hi); a wrapped-around unsigned one fails
 * too, since it converts to a negative long long. */
static int in_range(long long v, long long hi)
{
    return v >= 0 && v < hi;
}
#define CHECK_IN_RANGE(v, hi)                                                                     \
    CHECK_MSG(in_range((long long)(v), (long long)(hi)), #v " = %lld outside [0, %lld)",          \
              (long long)(v), (long long)(hi))

/* Counts values in [0, n): each must be seen exactly once. */
static void check_each_once(const long *values, size_t nvalues, long lo, long n, const char *what)
{
    unsigned char *seen = calloc((size_t)n, 1);
    CHECK(seen != NULL);
    for (size_t i = 0; i < nvalues; i++) {
        long v = values[i];
        CHECK_MSG(v >= lo && v < lo + n, "%s: value %ld outside [%ld, %ld)", what, v, lo, lo + n);
        CHECK_MSG(!seen[v - lo], "%s: value %ld seen twice", what, v);
        seen[v - lo] = 1;
    }
    for (long v = 0; v < n; v++)
        CHECK_MSG(seen[v], "%s: value %ld never seen", what, v + lo);
    free(seen);
}

/* ---- standard AMO types: inc, fetch_inc, add, fetch_add, compare_swap --- */

#define DEFINE_STD_TEST(TYPE, TN)                                                                 \
    static void test_std_##TN(void)                                                               \
    {                                                                                             \
        const int me = pe_me, npes = pe_npes;                                                     \
        const int nslots = 4 * npes;                                                              \
        TYPE     *ctr     = shmem_calloc(3, sizeof(TYPE)); /* hot, all-targets, fetch_inc */     \
        TYPE     *got     = shmem_calloc(K, sizeof(TYPE)); /* this PE's fetch_inc results */     \
        TYPE     *slots   = shmem_calloc((size_t)nslots, sizeof(TYPE));                           \
        int      *claimed = shmem_calloc((size_t)nslots, sizeof(int));                            \
        const TYPE hot_total = (TYPE)(7 * K * npes);                                              \
                                                                                                  \
        CHECK(ctr && got && slots && claimed);                                                    \
        pe_section("sums " #TN);                                                                  \
        for (int k = 0; k < K; k++) {                                                             \
            TYPE r;                                                                               \
            shmem_##TN##_atomic_inc(&ctr[0], 0);                                                  \
            shmem_##TN##_atomic_add(&ctr[0], (TYPE)2, 0);                                         \
            r = shmem_##TN##_atomic_fetch_add(&ctr[0], (TYPE)3, 0);                               \
            CHECK_IN_RANGE(r, hot_total);                                                         \
            r = shmem_##TN##_atomic_fetch_inc(&ctr[0], 0);                                        \
            CHECK_IN_RANGE(r, hot_total);                                                         \
        }                                                                                         \
        for (int k = 0; k < K_ALL; k++)                                                           \
            for (int i = 1; i <= npes; i++) {                                                     \
                const int t = (me + i) % npes;                                                    \
                shmem_ctx_##TN##_atomic_add(SHMEM_CTX_DEFAULT, &ctr[1], (TYPE)(me + 1), t);       \
                shmem_ctx_##TN##_atomic_inc(SHMEM_CTX_DEFAULT, &ctr[1], t);                       \
                (void)shmem_ctx_##TN##_atomic_fetch_add(SHMEM_CTX_DEFAULT, &ctr[1], (TYPE)1, t);  \
                (void)shmem_ctx_##TN##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, &ctr[1], t);           \
            }                                                                                     \
        for (int k = 0; k < K; k++)                                                               \
            got[k] = shmem_##TN##_atomic_fetch_inc(&ctr[2], 0);                                   \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        CHECK_EQ(shmem_##TN##_atomic_fetch(&ctr[0], 0), hot_total);                               \
        CHECK_EQ(ctr[1], (TYPE)(K_ALL * (npes * (npes + 1) / 2 + 3 * npes)));                     \
        if (me == 0) {                                                                            \
            long *all = malloc(sizeof(long) * K * (size_t)npes);                                  \
            TYPE  buf[K];                                                                         \
            CHECK(all != NULL);                                                                   \
            CHECK_EQ(ctr[2], (TYPE)(K * npes));                                                   \
            for (int s = 0; s < npes; s++) {                                                      \
                shmem_##TN##_get(buf, got, K, s);                                                 \
                for (int k = 0; k < K; k++)                                                       \
                    all[s * K + k] = (long)buf[k];                                                \
            }                                                                                     \
            check_each_once(all, (size_t)K * npes, 0, (long)K * npes, "fetch_inc " #TN);          \
            free(all);                                                                            \
        }                                                                                         \
                                                                                                  \
        pe_section("compare_swap claims " #TN);                                                   \
        for (int i = 0; i < nslots; i++) {                                                        \
            const int slot = (i + 3 * me) % nslots; /* PEs collide at different slots */          \
            TYPE      old  = shmem_##TN##_atomic_compare_swap(&slots[slot], (TYPE)0,              \
                                                              (TYPE)(me + 1), 0);                 \
            if (old == 0)                                                                         \
                claimed[slot] = 1;                                                                \
            else                                                                                  \
                CHECK(old >= (TYPE)1 && old <= (TYPE)npes && old != (TYPE)(me + 1));              \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
        if (me == 0) {                                                                            \
            int *c = malloc(sizeof(int) * (size_t)nslots);                                        \
            int *owners = calloc((size_t)nslots, sizeof(int));                                    \
            CHECK(c && owners);                                                                   \
            for (int s = 0; s < npes; s++) {                                                      \
                shmem_int_get(c, claimed, (size_t)nslots, s);                                     \
                for (int i = 0; i < nslots; i++)                                                  \
                    if (c[i]) {                                                                   \
                        CHECK_MSG(owners[i] == 0, "slot %d claimed by PE %d and PE %d", i,        \
                                  owners[i] - 1, s);                                              \
                        owners[i] = s + 1;                                                        \
                    }                                                                             \
            }                                                                                     \
            for (int i = 0; i < nslots; i++) {                                                    \
                CHECK_MSG(owners[i] != 0, "slot %d claimed by nobody", i);                        \
                CHECK_EQ(slots[i], (TYPE)owners[i]);                                              \
            }                                                                                     \
            free(owners);                                                                         \
            free(c);                                                                              \
        }                                                                                         \
        shmem_free(claimed);                                                                      \
        shmem_free(slots);                                                                        \
        shmem_free(got);                                                                          \
        shmem_free(ctr);                                                                          \
    }

AMO_TYPES(DEFINE_STD_TEST)

/* ---- extended AMO types: fetch, set, swap ------------------------------- */

#define DEFINE_EXT_TEST(TYPE, TN)                                                                 \
    static void test_ext_##TN(void)                                                               \
    {                                                                                             \
        const int me = pe_me, npes = pe_npes;                                                     \
        const int right = (me + 1) % npes, left = (me + npes - 1) % npes;                         \
        TYPE     *v   = shmem_calloc(2, sizeof(TYPE)); /* set target, swap chain */               \
        TYPE     *got = shmem_calloc(K, sizeof(TYPE));                                            \
        const long init = (long)K * npes + 1;                                                     \
                                                                                                  \
        CHECK(v && got);                                                                          \
        pe_section("set/fetch/swap " #TN);                                                        \
        if (me == 0)                                                                              \
            v[1] = (TYPE)init;                                                                    \
        shmem_barrier_all();                                                                      \
        shmem_##TN##_atomic_set(&v[0], PE_VALUE(TYPE, pe_key(me, right, 5, 0, 0)), right);       \
        for (int k = 0; k < K; k++)                                                               \
            got[k] = shmem_##TN##_atomic_swap(&v[1], (TYPE)(me * K + k + 1), 0);                  \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        CHECK_EQ(shmem_##TN##_atomic_fetch(&v[0], me), PE_VALUE(TYPE, pe_key(left, me, 5, 0, 0))); \
        CHECK_EQ(shmem_ctx_##TN##_atomic_fetch(SHMEM_CTX_DEFAULT, &v[0], right),                 \
                 PE_VALUE(TYPE, pe_key(me, right, 5, 0, 0)));                                     \
        if (me == 0) {                                                                            \
            /* Values 1..npes*K went in, init was there first: all come out once. */              \
            long *all = malloc(sizeof(long) * ((size_t)K * npes + 1));                            \
            TYPE  buf[K];                                                                         \
            CHECK(all != NULL);                                                                   \
            for (int s = 0; s < npes; s++) {                                                      \
                shmem_##TN##_get(buf, got, K, s);                                                 \
                for (int k = 0; k < K; k++)                                                       \
                    all[s * K + k] = (long)buf[k];                                                \
            }                                                                                     \
            all[K * npes] = (long)v[1];                                                           \
            check_each_once(all, (size_t)K * npes + 1, 1, init, "swap chain " #TN);               \
            free(all);                                                                            \
        }                                                                                         \
        shmem_free(got);                                                                          \
        shmem_free(v);                                                                            \
    }

AMO_EXT_TYPES(DEFINE_EXT_TEST)

/* ---- bitwise AMO types: and, or, xor and fetching forms ----------------- */

#define DEFINE_BIT_TEST(TYPE, TN)                                                                 \
    static void test_bit_##TN(void)                                                               \
    {                                                                                             \
        const int  me = pe_me, npes = pe_npes;                                                    \
        const TYPE bit = (TYPE)((TYPE)1 << me);                                                   \
        const TYPE all = (TYPE)(((TYPE)1 << npes) - 1);                                           \
        TYPE      *w   = shmem_malloc(7 * sizeof(TYPE));                                          \
        TYPE       r;                                                                             \
                                                                                                  \
        CHECK(w != NULL);                                                                         \
        pe_section("and/or/xor " #TN);                                                            \
        w[0] = w[2] = w[3] = w[5] = w[6] = 0;                                                     \
        w[1] = w[4] = (TYPE)~(TYPE)0;                                                             \
        shmem_barrier_all();                                                                      \
        shmem_##TN##_atomic_or(&w[0], bit, 0);                                                    \
        shmem_##TN##_atomic_and(&w[1], (TYPE)~bit, 0);                                            \
        for (int i = 0; i < 3; i++) /* toggles: set, clear, set */                                \
            shmem_##TN##_atomic_xor(&w[2], bit, 0);                                               \
        r = shmem_##TN##_atomic_fetch_or(&w[3], bit, 0);                                          \
        CHECK_EQ((TYPE)(r & bit), 0); /* only this PE sets its bit */                             \
        r = shmem_##TN##_atomic_fetch_and(&w[4], (TYPE)~bit, 0);                                  \
        CHECK_EQ((TYPE)(r & bit), bit);                                                           \
        r = shmem_##TN##_atomic_fetch_xor(&w[5], bit, 0);                                         \
        CHECK_EQ((TYPE)(r & bit), 0);                                                             \
        for (int i = 1; i <= npes; i++)                                                           \
            shmem_ctx_##TN##_atomic_or(SHMEM_CTX_DEFAULT, &w[6], bit, (me + i) % npes);           \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        if (me == 0) {                                                                            \
            CHECK_EQ(w[0], all);                                                                  \
            CHECK_EQ(w[1], (TYPE)~all);                                                           \
            CHECK_EQ(w[2], all);                                                                  \
            CHECK_EQ(w[3], all);                                                                  \
            CHECK_EQ(w[4], (TYPE)~all);                                                           \
            CHECK_EQ(w[5], all);                                                                  \
        }                                                                                         \
        CHECK_EQ(w[6], all);                                                                      \
        shmem_free(w);                                                                            \
    }

USHMEM_AMO_BIT_TYPES(DEFINE_BIT_TEST)

/* ---- deprecated names, once each ---------------------------------------- */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define DEFINE_DEPR_TEST(TYPE, TN)                                                                \
    static void test_depr_##TN(void)                                                              \
    {                                                                                             \
        const int me = pe_me, npes = pe_npes;                                                     \
        TYPE     *d  = shmem_calloc(3, sizeof(TYPE)); /* sum, cswap target, winners */            \
        TYPE      r;                                                                              \
                                                                                                  \
        CHECK(d != NULL);                                                                         \
        pe_section("deprecated " #TN);                                                            \
        shmem_##TN##_inc(&d[0], 0);                                                               \
        shmem_##TN##_add(&d[0], (TYPE)2, 0);                                                      \
        r = shmem_##TN##_fadd(&d[0], (TYPE)3, 0);                                                 \
        CHECK_IN_RANGE(r, 7 * npes);                                                              \
        r = shmem_##TN##_finc(&d[0], 0);                                                          \
        CHECK_IN_RANGE(r, 7 * npes);                                                              \
        if (shmem_##TN##_cswap(&d[1], (TYPE)0, (TYPE)(me + 1), 0) == 0)                           \
            shmem_##TN##_inc(&d[2], 0);                                                           \
        shmem_barrier_all();                                                                      \
        if (me == 0) {                                                                            \
            CHECK_EQ(d[0], (TYPE)(7 * npes));                                                     \
            CHECK(d[1] >= (TYPE)1 && d[1] <= (TYPE)npes);                                         \
            CHECK_EQ(d[2], (TYPE)1); /* exactly one winner */                                     \
        }                                                                                         \
        shmem_free(d);                                                                            \
    }

#define DEFINE_DEPR_EXT_TEST(TYPE, TN)                                                            \
    static void test_depr_ext_##TN(void)                                                          \
    {                                                                                             \
        const int me = pe_me, npes = pe_npes, right = (me + 1) % npes;                            \
        TYPE     *d   = shmem_calloc(2, sizeof(TYPE)); /* set target, swap chain */               \
        TYPE     *got = shmem_calloc(1, sizeof(TYPE));                                            \
                                                                                                  \
        CHECK(d && got);                                                                          \
        pe_section("deprecated set/fetch/swap " #TN);                                             \
        shmem_##TN##_set(&d[0], (TYPE)(me + 1), right);                                           \
        *got = shmem_##TN##_swap(&d[1], (TYPE)(me + 1), 0);                                       \
        shmem_barrier_all();                                                                      \
        CHECK_EQ(shmem_##TN##_fetch(&d[0], right), (TYPE)(me + 1));                               \
        if (me == 0) {                                                                            \
            long *all = malloc(sizeof(long) * ((size_t)npes + 1));                                \
            CHECK(all != NULL);                                                                   \
            for (int s = 0; s < npes; s++)                                                        \
                all[s] = (long)shmem_##TN##_g(got, s);                                            \
            all[npes] = (long)d[1];                                                               \
            check_each_once(all, (size_t)npes + 1, 0, npes + 1, "deprecated swap " #TN);          \
            free(all);                                                                            \
        }                                                                                         \
        shmem_free(got);                                                                          \
        shmem_free(d);                                                                            \
    }

USHMEM_AMO_DEPR_TYPES(DEFINE_DEPR_TEST)
USHMEM_AMO_DEPR_EXT_TYPES(DEFINE_DEPR_EXT_TEST)

static void test_deprecated(void)
{
#define RUN_DEPR(TYPE, TN) test_depr_##TN();
    USHMEM_AMO_DEPR_TYPES(RUN_DEPR)
#define RUN_DEPR_EXT(TYPE, TN) test_depr_ext_##TN();
    USHMEM_AMO_DEPR_EXT_TYPES(RUN_DEPR_EXT)
}

#pragma GCC diagnostic pop

int main(void)
{
    pe_test_init();
#define RUN_STD(TYPE, TN) test_std_##TN();
    AMO_TYPES(RUN_STD)
#define RUN_EXT(TYPE, TN) test_ext_##TN();
    AMO_EXT_TYPES(RUN_EXT)
    if (pe_npes <= MAX_BITS) {
#define RUN_BIT(TYPE, TN) test_bit_##TN();
        USHMEM_AMO_BIT_TYPES(RUN_BIT)
    } else {
        pe_section("more PEs than bits: and/or/xor not tested");
    }
    test_deprecated();
    return pe_test_finish();
}
