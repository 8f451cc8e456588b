/*
 * Threads sharing SHMEM_CTX_DEFAULT under SHMEM_THREAD_MULTIPLE.
 *
 * 1. Contention: every thread of every PE fetch-adds 1 to one counter on
 *    PE 0, many times. The total must be exact, and the fetched values,
 *    over the whole job, must be each of 0 .. total-1 exactly once (every
 *    fetched value is counted in a table on PE 0 with an atomic increment).
 * 2. Puts from every thread to disjoint slices of every PE, through the
 *    shared context, and non-blocking gets completed by shmem_quiet: a quiet
 *    by one thread must complete that thread's operations even while other
 *    threads issue and quiet on the same context.
 */
#include "thread_util.h"

#define MAXPES 8
#define ROUNDS 500
#define SLICE  8
#define NPUTS  50

static long counter;                             /* on PE 0 */
static long sbuf[MAXPES * TU_NTHREADS * SLICE]; /* slice per (writer PE, thread) */
static int *seen;                                /* on PE 0: one entry per value */

static long val(int pe, int t, int r, int i)
{
    return (long)pe_key_bits(pe_key((uint64_t)pe, (uint64_t)t, (uint64_t)r, (uint64_t)i, 77));
}

static void *contention_body(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        long v = shmem_long_atomic_fetch_add(&counter, 1, 0);
        CHECK(v >= 0 && v < (long)pe_npes * TU_NTHREADS * ROUNDS);
        shmem_int_atomic_inc(&seen[v], 0);
    }
    return NULL;
}

static void *puts_body(void *arg)
{
    const int t = (int)(intptr_t)arg, w = pe_me * TU_NTHREADS + t;
    long      src[SLICE], dst[SLICE];

    for (int r = 0; r < NPUTS; r++) {
        for (int pe = 0; pe < pe_npes; pe++) {
            for (int i = 0; i < SLICE; i++)
                src[i] = val(pe_me, t, r, i);
            shmem_long_put(&sbuf[w * SLICE], src, SLICE, pe);
        }
        shmem_quiet();
        for (int pe = 0; pe < pe_npes; pe++) {
            memset(dst, 0, sizeof(dst));
            shmem_long_get_nbi(dst, &sbuf[w * SLICE], SLICE, pe);
            shmem_quiet();
            for (int i = 0; i < SLICE; i++)
                CHECK_EQ(dst[i], val(pe_me, t, r, i));
        }
    }
    return NULL;
}

int main(void)
{
    tu_init_multiple();
    CHECK(pe_npes <= MAXPES);
    const long n = (long)pe_npes * TU_NTHREADS * ROUNDS;
    seen = shmem_calloc((size_t)n, sizeof(int));
    CHECK(seen != NULL);

    pe_section("fetch-add contention on one counter");
    tu_run_threads(TU_NTHREADS, contention_body);
    shmem_barrier_all();
    CHECK_EQ(counter, pe_me == 0 ? n : 0L);
    if (pe_me == 0) {
        for (long v = 0; v < n; v++)
            CHECK_MSG(seen[v] == 1, "value %ld fetched %d times", v, seen[v]);
    }

    pe_section("puts and gets to disjoint slices");
    tu_run_threads(TU_NTHREADS, puts_body);
    shmem_barrier_all();
    for (int p = 0; p < pe_npes; p++)
        for (int t = 0; t < TU_NTHREADS; t++)
            for (int i = 0; i < SLICE; i++)
                CHECK_EQ(sbuf[(p * TU_NTHREADS + t) * SLICE + i], val(p, t, NPUTS - 1, i));

    shmem_free(seen);
    return pe_test_finish();
}
