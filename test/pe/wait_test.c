/*
 * Point-to-point synchronisation for every P2P type: shmem_wait_until with
 * each comparison operator, shmem_test polling, and (1.5 headers) the
 * _all/_any/_some forms and their _vector variants for both wait and test.
 *
 * Each PE is consumer once: its left neighbour produces the values while it
 * waits.  Producer/consumer pairs run in phases so that no PE has to produce
 * and consume at the same time (with one PE it produces first, then
 * consumes).  The producer first writes a value that does NOT satisfy the
 * condition, fences, then one that does: a wait that returns on any change,
 * or compares the wrong way, returns early and fails the value check.
 * Masked (status 1) elements are written with satisfying values first, so a
 * routine that ignores the mask returns the wrong index.
 * Every negative answer (test returning 0, test_any returning SIZE_MAX) is
 * checked before the producer starts, so it is deterministic.
 */
#include "pe_test.h"
#include <ushmem/types.h>

#define N     6 /* elements in each array of the _all/_any/_some tests */
#define NOPS  6
#define PAUSE 200 /* microseconds the producer sleeps, so consumers block */

#if PE_SPEC_AT_LEAST(1, 5)
#define HAVE_MULTI 1
#else
#define HAVE_MULTI 0
#endif

/* Per operator: initial value, a written value that still fails the
 * condition, the final value that meets it, and the comparison value. */
static const struct {
    int         cmp;
    const char *name;
    int         init, mid, final, value;
} ops[NOPS] = {
    {SHMEM_CMP_EQ, "EQ", 10, 12, 20, 20}, {SHMEM_CMP_NE, "NE", 10, 10, 11, 10},
    {SHMEM_CMP_GT, "GT", 10, 15, 16, 15}, {SHMEM_CMP_GE, "GE", 10, 14, 15, 15},
    {SHMEM_CMP_LT, "LT", 10, 5, 4, 5},    {SHMEM_CMP_LE, "LE", 10, 6, 5, 5},
};

/* Comparison values that the initial value 10 does satisfy, and the
 * nearest ones that it does not (so GT/GE and LT/LE cannot be confused). */
static const int satisfied_by_init[NOPS] = {10, 9, 9, 10, 11, 10};
static const int boundary_fail[NOPS]     = {11, 10, 10, 11, 10, 9};

/* Arrays of the multi-element tests, N elements each. */
enum {
    A_ALL, A_ANY, A_SOME, A_ALLV, A_ANYV, A_SOMEV,
    A_TALL, A_TANY, A_TSOME, A_TALLV, A_TANYV, A_TSOMEV, A_EMPTY, A_COUNT
};


static int left_of(int pe)
{
    return (pe + pe_npes - 1) % pe_npes;
}

/* The phase in which consumer c and its producer left_of(c) run: pairs of
 * different parity in phase c % 2, a same-parity pair (an odd number of
 * PEs wrapping round, or a single PE) alone in phase 2. */
static int phase_of(int c)
{
    return left_of(c) % 2 != c % 2 ? c % 2 : 2;
}

static void pause_producer(void)
{
    usleep(PAUSE);
}

/* Collects the two indices expected from a wait_until_some/test_some style
 * routine, masking each one found so it is not returned again. */
#define COLLECT_SOME(CALL, st, idx, expect0, expect1)                                             \
    do {                                                                                          \
        int got_ = 0;                                                                             \
        while (got_ < 2) {                                                                        \
            size_t n_ = (CALL);                                                                   \
            CHECK(n_ <= N);                                                                       \
            for (size_t j_ = 0; j_ < n_; j_++) {                                                  \
                CHECK_MSG(idx[j_] == (expect0) || idx[j_] == (expect1),                           \
                          "index %zu returned, expected %d or %d", idx[j_], (expect0),            \
                          (expect1));                                                             \
                CHECK_MSG(st[idx[j_]] == 0, "index %zu returned twice or while masked",           \
                          idx[j_]);                                                               \
                st[idx[j_]] = 1;                                                                  \
                got_++;                                                                           \
            }                                                                                     \
        }                                                                                         \
    } while (0)

#if HAVE_MULTI
static const int mask_all[N]  = {0, 0, 1, 0, 1, 0};
static const int mask_any[N]  = {0, 1, 0, 0, 0, 0};
static const int mask_some[N] = {0, 0, 1, 0, 0, 0};
static const int mask_none[N] = {1, 1, 1, 1, 1, 1};

#define DEFINE_MULTI(TYPE, TN)                                                                    \
    static void multi_init_##TN(TYPE *a)                                                          \
    {                                                                                             \
        TYPE   vals[N];                                                                           \
        size_t idx[N];                                                                            \
        TYPE  *e = a + A_EMPTY * N;                                                               \
                                                                                                  \
        /* Negative answers, before any producer writes. */                                       \
        CHECK_EQ(shmem_##TN##_test_all(a + A_TALL * N, N, NULL, SHMEM_CMP_EQ, (TYPE)7), 0);       \
        CHECK_EQ(shmem_##TN##_test_any(a + A_TANY * N, N, NULL, SHMEM_CMP_EQ, (TYPE)7), SIZE_MAX); \
        CHECK_EQ(shmem_##TN##_test_some(a + A_TSOME * N, N, idx, NULL, SHMEM_CMP_EQ, (TYPE)7), 0); \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)0;                                                                    \
        CHECK_EQ(shmem_##TN##_test_all_vector(a + A_TALLV * N, N, NULL, SHMEM_CMP_NE, vals), 0);  \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)i;                                                                    \
        CHECK_EQ(shmem_##TN##_test_any_vector(a + A_TANYV * N, N, NULL, SHMEM_CMP_GT, vals),      \
                 SIZE_MAX);                                                                       \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)(70 + i);                                                             \
        CHECK_EQ(shmem_##TN##_test_some_vector(a + A_TSOMEV * N, N, idx, NULL, SHMEM_CMP_EQ,      \
                                               vals),                                             \
                 0);                                                                              \
        /* Empty sets: nothing to wait for. */                                                    \
        CHECK_EQ(shmem_##TN##_wait_until_any(e, 0, NULL, SHMEM_CMP_EQ, (TYPE)0), SIZE_MAX);       \
        CHECK_EQ(shmem_##TN##_wait_until_any(e, N, mask_none, SHMEM_CMP_EQ, (TYPE)0), SIZE_MAX);  \
        CHECK_EQ(shmem_##TN##_wait_until_some(e, N, idx, mask_none, SHMEM_CMP_EQ, (TYPE)0), 0);   \
        CHECK_EQ(shmem_##TN##_test_any(e, N, mask_none, SHMEM_CMP_EQ, (TYPE)0), SIZE_MAX);        \
        CHECK_EQ(shmem_##TN##_test_some(e, N, idx, mask_none, SHMEM_CMP_EQ, (TYPE)0), 0);         \
        CHECK_EQ(shmem_##TN##_test_all(e, 0, NULL, SHMEM_CMP_EQ, (TYPE)1), 1);                    \
        shmem_##TN##_wait_until_all(e, 0, NULL, SHMEM_CMP_EQ, (TYPE)1);                           \
        shmem_##TN##_wait_until_all(e, N, mask_none, SHMEM_CMP_EQ, (TYPE)1);                      \
    }                                                                                             \
                                                                                                  \
    static void multi_produce_##TN(TYPE *a, int c)                                                \
    {                                                                                             \
        static const int all_order[] = {5, 3, 1, 0};                                              \
        for (int k = 0; k < 4; k++)                                                               \
            shmem_##TN##_p(a + A_ALL * N + all_order[k], (TYPE)7, c);                             \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_ANY * N + 1, (TYPE)7, c); /* masked */                               \
        shmem_fence();                                                                            \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_ANY * N + 3, (TYPE)7, c);                                            \
        shmem_##TN##_p(a + A_SOME * N + 2, (TYPE)7, c); /* masked */                              \
        shmem_fence();                                                                            \
        shmem_##TN##_p(a + A_SOME * N + 0, (TYPE)7, c);                                           \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_SOME * N + 4, (TYPE)7, c);                                           \
        for (int i = 0; i < N; i++)                                                               \
            shmem_##TN##_p(a + A_ALLV * N + i, (TYPE)(20 + i), c);                                \
        shmem_##TN##_p(a + A_ANYV * N + 1, (TYPE)31, c); /* masked */                             \
        shmem_fence();                                                                            \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_ANYV * N + 5, (TYPE)35, c);                                          \
        shmem_##TN##_p(a + A_SOMEV * N + 0, (TYPE)99, c); /* fails EQ 40 */                       \
        shmem_##TN##_p(a + A_SOMEV * N + 2, (TYPE)42, c);                                         \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_SOMEV * N + 3, (TYPE)43, c);                                         \
        for (int i = 0; i < N; i++)                                                               \
            shmem_##TN##_p(a + A_TALL * N + i, (TYPE)7, c);                                       \
        shmem_##TN##_p(a + A_TANY * N + 4, (TYPE)7, c);                                           \
        shmem_##TN##_p(a + A_TSOME * N + 1, (TYPE)7, c);                                          \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_TSOME * N + 5, (TYPE)7, c);                                          \
        for (int i = 0; i < N; i++)                                                               \
            shmem_##TN##_p(a + A_TALLV * N + i, (TYPE)(1 + i), c);                                \
        shmem_##TN##_p(a + A_TANYV * N + 2, (TYPE)100, c);                                        \
        shmem_##TN##_p(a + A_TSOMEV * N + 3, (TYPE)73, c);                                        \
        pause_producer();                                                                         \
        shmem_##TN##_p(a + A_TSOMEV * N + 4, (TYPE)74, c);                                        \
    }                                                                                             \
                                                                                                  \
    static void multi_consume_##TN(TYPE *a)                                                       \
    {                                                                                             \
        TYPE   vals[N];                                                                           \
        size_t idx[N];                                                                            \
        int    st[N];                                                                             \
        size_t r;                                                                                 \
                                                                                                  \
        shmem_##TN##_wait_until_all(a + A_ALL * N, N, mask_all, SHMEM_CMP_EQ, (TYPE)7);           \
        for (int i = 0; i < N; i++)                                                               \
            CHECK_EQ(PE_READ(a[A_ALL * N + i]), mask_all[i] ? 0 : 7);                             \
                                                                                                  \
        r = shmem_##TN##_wait_until_any(a + A_ANY * N, N, mask_any, SHMEM_CMP_EQ, (TYPE)7);       \
        CHECK_EQ(r, 3);                                                                           \
                                                                                                  \
        memcpy(st, mask_some, sizeof(st));                                                        \
        COLLECT_SOME(shmem_##TN##_wait_until_some(a + A_SOME * N, N, idx, st, SHMEM_CMP_EQ,       \
                                                  (TYPE)7),                                       \
                     st, idx, 0, 4);                                                              \
                                                                                                  \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)(20 + i);                                                             \
        shmem_##TN##_wait_until_all_vector(a + A_ALLV * N, N, NULL, SHMEM_CMP_EQ, vals);          \
        for (int i = 0; i < N; i++)                                                               \
            CHECK_EQ(PE_READ(a[A_ALLV * N + i]), 20 + i);                                         \
                                                                                                  \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)(30 + i);                                                             \
        r = shmem_##TN##_wait_until_any_vector(a + A_ANYV * N, N, mask_any, SHMEM_CMP_GE, vals);  \
        CHECK_EQ(r, 5);                                                                           \
                                                                                                  \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)(40 + i);                                                             \
        memset(st, 0, sizeof(st));                                                                \
        COLLECT_SOME(shmem_##TN##_wait_until_some_vector(a + A_SOMEV * N, N, idx, st,             \
                                                         SHMEM_CMP_EQ, vals),                     \
                     st, idx, 2, 3);                                                              \
                                                                                                  \
        while (!shmem_##TN##_test_all(a + A_TALL * N, N, NULL, SHMEM_CMP_EQ, (TYPE)7))            \
            ;                                                                                     \
        for (int i = 0; i < N; i++)                                                               \
            CHECK_EQ(PE_READ(a[A_TALL * N + i]), 7);                                              \
        while ((r = shmem_##TN##_test_any(a + A_TANY * N, N, NULL, SHMEM_CMP_EQ, (TYPE)7)) ==     \
               SIZE_MAX)                                                                          \
            ;                                                                                     \
        CHECK_EQ(r, 4);                                                                           \
        memset(st, 0, sizeof(st));                                                                \
        COLLECT_SOME(shmem_##TN##_test_some(a + A_TSOME * N, N, idx, st, SHMEM_CMP_EQ, (TYPE)7),  \
                     st, idx, 1, 5);                                                              \
                                                                                                  \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)0;                                                                    \
        while (!shmem_##TN##_test_all_vector(a + A_TALLV * N, N, NULL, SHMEM_CMP_NE, vals))       \
            ;                                                                                     \
        for (int i = 0; i < N; i++)                                                               \
            CHECK_EQ(PE_READ(a[A_TALLV * N + i]), 1 + i);                                         \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)i;                                                                    \
        while ((r = shmem_##TN##_test_any_vector(a + A_TANYV * N, N, NULL, SHMEM_CMP_GT, vals)) == \
               SIZE_MAX)                                                                          \
            ;                                                                                     \
        CHECK_EQ(r, 2);                                                                           \
        for (int i = 0; i < N; i++)                                                               \
            vals[i] = (TYPE)(70 + i);                                                             \
        memset(st, 0, sizeof(st));                                                                \
        COLLECT_SOME(shmem_##TN##_test_some_vector(a + A_TSOMEV * N, N, idx, st, SHMEM_CMP_EQ,    \
                                                   vals),                                         \
                     st, idx, 3, 4);                                                              \
    }
#else
#define DEFINE_MULTI(TYPE, TN)                                                                    \
    static void multi_init_##TN(TYPE *a) { (void)a; }                                             \
    static void multi_produce_##TN(TYPE *a, int c) { (void)a, (void)c; }                          \
    static void multi_consume_##TN(TYPE *a) { (void)a; }
#endif

#define DEFINE_TYPE_TEST(TYPE, TN)                                                                \
    DEFINE_MULTI(TYPE, TN)                                                                        \
                                                                                                  \
    static void test_##TN(void)                                                                   \
    {                                                                                             \
        const int me = pe_me, right = (me + 1) % pe_npes;                                         \
        TYPE     *v = shmem_calloc(2 * NOPS + A_COUNT * N, sizeof(TYPE));                         \
        TYPE     *waitv = v, *testv = v + NOPS, *multi = v + 2 * NOPS;                            \
                                                                                                  \
        CHECK(v != NULL);                                                                         \
        pe_section("wait/test " #TN);                                                             \
        for (int o = 0; o < NOPS; o++) {                                                          \
            waitv[o] = testv[o] = (TYPE)ops[o].init;                                              \
            CHECK_MSG(!shmem_##TN##_test(&testv[o], ops[o].cmp, (TYPE)ops[o].value),              \
                      "test %s %d true on %d", ops[o].name, ops[o].value, ops[o].init);           \
            CHECK_MSG(shmem_##TN##_test(&testv[o], ops[o].cmp, (TYPE)satisfied_by_init[o]),       \
                      "test %s %d false on %d", ops[o].name, satisfied_by_init[o],                \
                      ops[o].init);                                                               \
            CHECK_MSG(!shmem_##TN##_test(&testv[o], ops[o].cmp, (TYPE)boundary_fail[o]),          \
                      "test %s %d true on %d", ops[o].name, boundary_fail[o], ops[o].init);       \
        }                                                                                         \
        multi_init_##TN(multi);                                                                   \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        for (int phase = 0; phase < 3; phase++) {                                                 \
            if (phase_of(right) == phase) { /* produce for the right neighbour */                 \
                for (int o = 0; o < NOPS; o++) {                                                  \
                    shmem_##TN##_p(&waitv[o], (TYPE)ops[o].mid, right);                           \
                    shmem_fence();                                                                \
                    pause_producer();                                                             \
                    shmem_##TN##_p(&waitv[o], (TYPE)ops[o].final, right);                         \
                }                                                                                 \
                for (int o = 0; o < NOPS; o++) {                                                  \
                    shmem_##TN##_p(&testv[o], (TYPE)ops[o].mid, right);                           \
                    shmem_fence();                                                                \
                    pause_producer();                                                             \
                    shmem_##TN##_p(&testv[o], (TYPE)ops[o].final, right);                         \
                }                                                                                 \
                multi_produce_##TN(multi, right);                                                 \
                shmem_quiet();                                                                    \
            }                                                                                     \
            if (phase_of(me) == phase) { /* consume from the left neighbour */                    \
                for (int o = 0; o < NOPS; o++) {                                                  \
                    shmem_##TN##_wait_until(&waitv[o], ops[o].cmp, (TYPE)ops[o].value);           \
                    CHECK_MSG(PE_READ(waitv[o]) == (TYPE)ops[o].final,                            \
                              "wait_until %s %d returned on %lld", ops[o].name, ops[o].value,     \
                              (long long)PE_READ(waitv[o]));                                      \
                }                                                                                 \
                for (int o = 0; o < NOPS; o++) {                                                  \
                    while (!shmem_##TN##_test(&testv[o], ops[o].cmp, (TYPE)ops[o].value))         \
                        ;                                                                         \
                    CHECK_MSG(PE_READ(testv[o]) == (TYPE)ops[o].final,                            \
                              "test %s %d true on %lld", ops[o].name, ops[o].value,               \
                              (long long)PE_READ(testv[o]));                                      \
                }                                                                                 \
                multi_consume_##TN(multi);                                                        \
            }                                                                                     \
            shmem_barrier_all();                                                                  \
        }                                                                                         \
        shmem_free(v);                                                                            \
    }

USHMEM_P2P_TYPES(DEFINE_TYPE_TEST)

int main(void)
{
    pe_test_init();
    if (!HAVE_MULTI)
        pe_section("header older than 1.5: _all/_any/_some not tested");
#define RUN_TYPE_TEST(TYPE, TN) test_##TN();
    USHMEM_P2P_TYPES(RUN_TYPE_TEST)
    return pe_test_finish();
}
