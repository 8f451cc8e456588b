/*
 * Point-to-point synchronisation on sets, to OpenSHMEM 1.6 and its errata,
 * for every point-to-point type:
 *
 *  - empty sets, both nelems == 0 (ivars may then be NULL) and every element
 *    excluded by status: wait_until_all returns, test_all returns 1 (the
 *    1.5 erratum), _any returns SIZE_MAX, _some returns 0 and leaves
 *    indices alone; the same for every _vector form;
 *  - _some: indices holds exactly the satisfied, included elements in
 *    ascending order; _any: a series of calls returns every satisfied
 *    element (none hides the others), never an excluded one;
 *  - updates arriving from every other PE while the owner waits: each PE
 *    writes its own slot of everyone's array, staggered so that owners are
 *    already waiting when most values land;
 *  - the deprecated shmem_wait, shmem_wait_until (long) and the short /
 *    ushort / int / long long forms.
 */
#include "pe_test.h"
#include <ushmem/types.h>

#define K 8 /* elements of the local-set arrays */

static const size_t POISON = (size_t)0xdeadbeef;

static void poison(size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++) idx[i] = POISON;
}

/* Puts from every PE, staggered: PE p waits p * 100 us, so the owner
 * usually sits in its wait before the slots fill. */
#define PUT_ALL(N, arr, value)                                                         \
    do {                                                                               \
        usleep(100u * (unsigned)pe_me);                                                \
        for (int k_ = 1; k_ <= pe_npes; k_++)                                          \
            shmem_##N##_p(&(arr)[pe_me], (value), (pe_me + k_) % pe_npes);            \
    } while (0)

#define TEST_TYPE(T, N)                                                                         \
    static void test_##N(void)                                                                  \
    {                                                                                           \
        size_t idx[K];                                                                          \
        int    st[K];                                                                           \
        T      cv[K];                                                                           \
        T     *a = shmem_calloc(K, sizeof(T));                                                  \
        CHECK(a != NULL);                                                                       \
                                                                                                \
        pe_section("empty sets: " #N);                                                          \
        T one = 1;                                                                              \
        poison(idx, K);                                                                         \
        shmem_##N##_wait_until_all(NULL, 0, NULL, SHMEM_CMP_EQ, one);                           \
        shmem_##N##_wait_until_all_vector(NULL, 0, NULL, SHMEM_CMP_EQ, NULL);                   \
        CHECK_EQ(shmem_##N##_test_all(NULL, 0, NULL, SHMEM_CMP_EQ, one), 1);                    \
        CHECK_EQ(shmem_##N##_test_all_vector(NULL, 0, NULL, SHMEM_CMP_EQ, NULL), 1);            \
        CHECK_EQ(shmem_##N##_wait_until_any(NULL, 0, NULL, SHMEM_CMP_EQ, one), SIZE_MAX);       \
        CHECK_EQ(shmem_##N##_wait_until_any_vector(NULL, 0, NULL, SHMEM_CMP_EQ, NULL), SIZE_MAX); \
        CHECK_EQ(shmem_##N##_test_any(NULL, 0, NULL, SHMEM_CMP_EQ, one), SIZE_MAX);             \
        CHECK_EQ(shmem_##N##_test_any_vector(NULL, 0, NULL, SHMEM_CMP_EQ, NULL), SIZE_MAX);     \
        CHECK_EQ(shmem_##N##_wait_until_some(NULL, 0, idx, NULL, SHMEM_CMP_EQ, one), 0);        \
        CHECK_EQ(shmem_##N##_wait_until_some_vector(NULL, 0, idx, NULL, SHMEM_CMP_EQ, NULL), 0); \
        CHECK_EQ(shmem_##N##_test_some(NULL, 0, idx, NULL, SHMEM_CMP_EQ, one), 0);              \
        CHECK_EQ(shmem_##N##_test_some_vector(NULL, 0, idx, NULL, SHMEM_CMP_EQ, NULL), 0);      \
        /* Every element excluded; none satisfies, so a routine that ignores                    \
         * the mask blocks (wait) or answers wrongly (test). */                                 \
        for (int i = 0; i < K; i++) { a[i] = 0; st[i] = 1 + i; cv[i] = 1; }                    \
        shmem_##N##_wait_until_all(a, K, st, SHMEM_CMP_EQ, one);                                \
        shmem_##N##_wait_until_all_vector(a, K, st, SHMEM_CMP_EQ, cv);                          \
        CHECK_EQ(shmem_##N##_test_all(a, K, st, SHMEM_CMP_EQ, one), 1);                         \
        CHECK_EQ(shmem_##N##_test_all_vector(a, K, st, SHMEM_CMP_EQ, cv), 1);                   \
        CHECK_EQ(shmem_##N##_wait_until_any(a, K, st, SHMEM_CMP_EQ, one), SIZE_MAX);            \
        CHECK_EQ(shmem_##N##_wait_until_any_vector(a, K, st, SHMEM_CMP_EQ, cv), SIZE_MAX);      \
        CHECK_EQ(shmem_##N##_test_any(a, K, st, SHMEM_CMP_EQ, one), SIZE_MAX);                  \
        CHECK_EQ(shmem_##N##_test_any_vector(a, K, st, SHMEM_CMP_EQ, cv), SIZE_MAX);            \
        CHECK_EQ(shmem_##N##_wait_until_some(a, K, idx, st, SHMEM_CMP_EQ, one), 0);             \
        CHECK_EQ(shmem_##N##_wait_until_some_vector(a, K, idx, st, SHMEM_CMP_EQ, cv), 0);       \
        CHECK_EQ(shmem_##N##_test_some(a, K, idx, st, SHMEM_CMP_EQ, one), 0);                   \
        CHECK_EQ(shmem_##N##_test_some_vector(a, K, idx, st, SHMEM_CMP_EQ, cv), 0);             \
        for (int i = 0; i < K; i++) CHECK_EQ(idx[i], POISON);                                   \
                                                                                                \
        pe_section("local sets: " #N);                                                          \
        /* a[i] = i; status excludes 1 and 6; cmp GE 3: satisfied and                           \
         * included are 3, 4, 5, 7. */                                                          \
        for (int i = 0; i < K; i++) { a[i] = (T)i; st[i] = (i == 1 || i == 6); }                \
        T three = 3;                                                                            \
        poison(idx, K);                                                                         \
        CHECK_EQ(shmem_##N##_test_some(a, K, idx, st, SHMEM_CMP_GE, three), 4);                 \
        CHECK_EQ(idx[0], 3); CHECK_EQ(idx[1], 4); CHECK_EQ(idx[2], 5); CHECK_EQ(idx[3], 7);     \
        CHECK_EQ(idx[4], POISON);                                                               \
        poison(idx, K);                                                                         \
        CHECK_EQ(shmem_##N##_wait_until_some(a, K, idx, st, SHMEM_CMP_GE, three), 4);           \
        CHECK_EQ(idx[0], 3); CHECK_EQ(idx[3], 7); CHECK_EQ(idx[4], POISON);                     \
        CHECK_EQ(shmem_##N##_test_all(a, K, st, SHMEM_CMP_GE, three), 0);                       \
        CHECK_EQ(shmem_##N##_test_all(a, K, NULL, SHMEM_CMP_LE, (T)(K - 1)), 1);               \
        CHECK_EQ(shmem_##N##_test_all(a, K, NULL, SHMEM_CMP_LT, (T)(K - 1)), 0);               \
        /* _any: over a series of calls, every one of 3, 4, 5, 7 and nothing                    \
         * else. */                                                                             \
        {                                                                                       \
            int seen[K] = {0};                                                                  \
            for (int r = 0; r < 4 * K; r++) {                                                   \
                size_t i = shmem_##N##_test_any(a, K, st, SHMEM_CMP_GE, three);                 \
                CHECK(i < K && i >= 3 && i != 6);                                               \
                seen[i]++;                                                                      \
                size_t j = shmem_##N##_wait_until_any(a, K, st, SHMEM_CMP_GE, three);           \
                CHECK(j < K && j >= 3 && j != 6);                                               \
                seen[j]++;                                                                      \
            }                                                                                   \
            CHECK(seen[3] && seen[4] && seen[5] && seen[7]);                                    \
        }                                                                                       \
        /* Vector forms: element i is compared with cv[i]. cv = a except at                     \
         * 2 and 5, so EQ holds everywhere else; with st excluding 1 and 6                      \
         * that is 0, 3, 4, 7. */                                                               \
        for (int i = 0; i < K; i++) cv[i] = a[i];                                               \
        cv[2] = 9; cv[5] = 0;                                                                   \
        poison(idx, K);                                                                         \
        CHECK_EQ(shmem_##N##_test_some_vector(a, K, idx, st, SHMEM_CMP_EQ, cv), 4);             \
        CHECK_EQ(idx[0], 0); CHECK_EQ(idx[1], 3); CHECK_EQ(idx[2], 4); CHECK_EQ(idx[3], 7);     \
        poison(idx, K);                                                                         \
        CHECK_EQ(shmem_##N##_wait_until_some_vector(a, K, idx, st, SHMEM_CMP_EQ, cv), 4);       \
        CHECK_EQ(idx[0], 0); CHECK_EQ(idx[3], 7); CHECK_EQ(idx[4], POISON);                     \
        CHECK_EQ(shmem_##N##_test_all_vector(a, K, st, SHMEM_CMP_EQ, cv), 0);                   \
        st[2] = st[5] = 1;                                                                      \
        CHECK_EQ(shmem_##N##_test_all_vector(a, K, st, SHMEM_CMP_EQ, cv), 1);                   \
        shmem_##N##_wait_until_all_vector(a, K, st, SHMEM_CMP_EQ, cv);                          \
        st[2] = st[5] = 0;                                                                      \
        {                                                                                       \
            size_t i = shmem_##N##_test_any_vector(a, K, st, SHMEM_CMP_GT, cv);                 \
            CHECK_EQ(i, 5); /* a[5] = 5 > 0 is the only one */                                  \
            CHECK_EQ(shmem_##N##_wait_until_any_vector(a, K, st, SHMEM_CMP_LT, cv), 2);         \
        }                                                                                       \
        shmem_barrier_all();                                                                    \
        shmem_free(a);                                                                          \
                                                                                                \
        /* Remote updates: slot p of every PE's array is written by PE p. */                    \
        T *r = shmem_calloc((size_t)pe_npes, sizeof(T));                                        \
        T *rv = malloc((size_t)pe_npes * sizeof(T));                                            \
        int *rst = calloc((size_t)pe_npes, sizeof(int));                                        \
        size_t *ridx = malloc((size_t)pe_npes * sizeof(size_t));                                \
        CHECK(r && rv && rst && ridx);                                                          \
        size_t np = (size_t)pe_npes;                                                            \
                                                                                                \
        pe_section("remote wait_until_all: " #N);                                               \
        PUT_ALL(N, r, (T)(pe_me + 1));                                                          \
        shmem_##N##_wait_until_all(r, np, NULL, SHMEM_CMP_GT, (T)0);                            \
        for (int i = 0; i < pe_npes; i++) CHECK_EQ(r[i], (T)(i + 1));                           \
        shmem_barrier_all();                                                                    \
                                                                                                \
        pe_section("remote wait_until_any: " #N);                                               \
        /* Second round: the new value is i + 2, compared per element. */                       \
        for (int i = 0; i < pe_npes; i++) { rv[i] = (T)(i + 2); rst[i] = 0; r[i] = 0; }                   \
        shmem_barrier_all();                                                                    \
        PUT_ALL(N, r, (T)(pe_me + 2));                                                          \
        for (int n = 0; n < pe_npes; n++) {                                                     \
            size_t i = n % 2 ? shmem_##N##_wait_until_any(r, np, rst, SHMEM_CMP_GE, (T)2)       \
                             : shmem_##N##_wait_until_any_vector(r, np, rst, SHMEM_CMP_EQ, rv); \
            CHECK(i < np);                                                                      \
            CHECK_EQ(rst[i], 0);                                                                \
            CHECK_EQ(r[i], (T)(i + 2));                                                         \
            rst[i] = 1;                                                                         \
        }                                                                                       \
        CHECK_EQ(shmem_##N##_wait_until_any(r, np, rst, SHMEM_CMP_GE, (T)2), SIZE_MAX);         \
        shmem_barrier_all();                                                                    \
                                                                                                \
        pe_section("remote wait_until_some / test_some: " #N);                                  \
        for (int i = 0; i < pe_npes; i++) { rv[i] = (T)(i + 3); rst[i] = 0; r[i] = 0; }                   \
        shmem_barrier_all();                                                                    \
        PUT_ALL(N, r, (T)(pe_me + 3));                                                          \
        {                                                                                       \
            size_t done = 0, n;                                                                 \
            int use_test = 0;                                                                   \
            while (done < np) {                                                                 \
                n = use_test ? shmem_##N##_test_some_vector(r, np, ridx, rst, SHMEM_CMP_EQ, rv) \
                             : shmem_##N##_wait_until_some(r, np, ridx, rst, SHMEM_CMP_GE,      \
                                                           (T)3);                               \
                use_test = !use_test;                                                           \
                for (size_t k = 0; k < n; k++) {                                                \
                    CHECK(ridx[k] < np);                                                        \
                    if (k) CHECK(ridx[k] > ridx[k - 1]);                                        \
                    CHECK_EQ(rst[ridx[k]], 0);                                                  \
                    CHECK_EQ(r[ridx[k]], (T)(ridx[k] + 3));                                     \
                    rst[ridx[k]] = 1;                                                           \
                }                                                                               \
                done += n;                                                                      \
            }                                                                                   \
            CHECK_EQ(done, np);                                                                 \
            CHECK_EQ(shmem_##N##_wait_until_some(r, np, ridx, rst, SHMEM_CMP_GE, (T)3), 0);     \
        }                                                                                       \
        shmem_barrier_all();                                                                    \
                                                                                                \
        pe_section("remote test_all / test_any: " #N);                                          \
        for (int i = 0; i < pe_npes; i++) { rv[i] = (T)(i + 4); rst[i] = 0; r[i] = 0; }                   \
        shmem_barrier_all();                                                                    \
        PUT_ALL(N, r, (T)(pe_me + 4));                                                          \
        while (!shmem_##N##_test_all_vector(r, np, NULL, SHMEM_CMP_EQ, rv)) {}                  \
        CHECK_EQ(shmem_##N##_test_all(r, np, NULL, SHMEM_CMP_GE, (T)4), 1);                     \
        for (int n = 0; n < pe_npes; n++) {                                                     \
            size_t i = shmem_##N##_test_any(r, np, rst, SHMEM_CMP_GE, (T)4);                    \
            CHECK(i < np);                                                                      \
            rst[i] = 1;                                                                         \
        }                                                                                       \
        CHECK_EQ(shmem_##N##_test_any_vector(r, np, rst, SHMEM_CMP_EQ, rv), SIZE_MAX);          \
        for (int i = 0; i < pe_npes; i++) CHECK_EQ(rst[i], 1);                                  \
        shmem_barrier_all();                                                                    \
        free(rv); free(rst); free(ridx);                                                        \
        shmem_free(r);                                                                          \
    }
USHMEM_P2P_TYPES(TEST_TYPE)

/* The deprecated names: a right-neighbour store, then the wait; a barrier
 * after each step keeps the neighbour from overwriting a value unchecked. */
static long      d_long;
static short     d_short;
static int       d_int;
static long long d_llong;
static unsigned short d_ushort;

static void test_deprecated(void)
{
    pe_section("deprecated shmem_wait / shmem_wait_until");
    int right = (pe_me + 1) % pe_npes;
    d_long = 5;
    d_short = 5;
    d_int = 5;
    d_llong = 5;
    d_ushort = 5;
    shmem_barrier_all();
    usleep(200);
    shmem_long_p(&d_long, 6, right);
    shmem_wait(&d_long, 5); /* until != 5 */
    CHECK_EQ(d_long, 6);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_long_p(&d_long, 7, right);
    shmem_wait_until(&d_long, SHMEM_CMP_GE, 7);
    CHECK_EQ(d_long, 7);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_long_p(&d_long, 8, right);
    shmem_long_wait(&d_long, 7);
    CHECK_EQ(d_long, 8);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_short_p(&d_short, 6, right);
    shmem_short_wait(&d_short, 5);
    CHECK_EQ(d_short, 6);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_short_p(&d_short, -1, right);
    shmem_short_wait_until(&d_short, SHMEM_CMP_LT, 0); /* signed compare */
    CHECK_EQ(d_short, -1);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    CHECK_EQ(shmem_short_test(&d_short, SHMEM_CMP_EQ, -1), 1);
    CHECK_EQ(shmem_short_test(&d_short, SHMEM_CMP_GT, 0), 0);
    shmem_int_p(&d_int, 6, right);
    shmem_int_wait(&d_int, 5);
    CHECK_EQ(d_int, 6);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_longlong_p(&d_llong, 6, right);
    shmem_longlong_wait(&d_llong, 5);
    CHECK_EQ(d_llong, 6);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    shmem_ushort_p(&d_ushort, 65535, right);
    shmem_ushort_wait_until(&d_ushort, SHMEM_CMP_GT, 60000); /* unsigned compare */
    CHECK_EQ(d_ushort, 65535);
    shmem_barrier_all(); /* the neighbour must not run a step ahead */
    CHECK_EQ(shmem_ushort_test(&d_ushort, SHMEM_CMP_GT, 1), 1);
    CHECK_EQ(shmem_ushort_test(&d_ushort, SHMEM_CMP_LT, 65535), 0);
    shmem_barrier_all();
}

#define RUN_TYPE(T, N) test_##N();

int main(void)
{
    pe_test_init();
    USHMEM_P2P_TYPES(RUN_TYPE)
    test_deprecated();
    return pe_test_finish();
}
