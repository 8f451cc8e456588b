/*
 * One thread blocked in shmem_long_wait_until while the other threads of
 * its PE, and of the other PEs, do RMA and atomics; the flag is then set by
 * another PE.
 *
 * Every PE runs a waiter thread and TU_NTHREADS - 1 workers. Workers use
 * their own contexts: puts and gets of their slice on the next PE, and
 * atomic adds to that PE's hit counter. When all its workers are done
 * (their contexts destroyed, which completes their operations), the main
 * thread sets the flag on the next PE with an atomic. The waiter, woken by
 * the previous PE, must then see every one of that PE's adds: it cannot
 * have woken early, and what completed before the flag must be visible.
 * A second phase waits on a vector of flags, one per thread of the
 * previous PE (shmem_long_wait_until_all), set by those threads themselves.
 */
#include "thread_util.h"

#define MAXPES  8
#define ROUNDS  300
#define SLICE   8
#define NWORK   (TU_NTHREADS - 1)

static long flag;                             /* set by the previous PE */
static long flags[TU_NTHREADS];               /* phase 2: one per thread of the previous PE */
static long hits;                             /* atomic adds from the previous PE */
static long sbuf[TU_NTHREADS * SLICE];        /* slice per worker of the previous PE */
static long waiter_saw_hits = -1;             /* written by the waiter, read after join */

static int next_pe(void) { return (pe_me + 1) % pe_npes; }

static long val(int pe, int t, int r, int i)
{
    return (long)pe_key_bits(pe_key((uint64_t)pe, (uint64_t)t, (uint64_t)r, (uint64_t)i, 5));
}

static void *waiter_body(void *arg)
{
    (void)arg;
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    waiter_saw_hits = shmem_long_atomic_fetch(&hits, pe_me);
    return NULL;
}

static void *worker_body(void *arg)
{
    const int   t = (int)(intptr_t)arg, tgt = next_pe();
    long        src[SLICE];
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;

    CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < SLICE; i++)
            src[i] = val(pe_me, t, r, i);
        shmem_ctx_long_put(ctx, &sbuf[t * SLICE], src, SLICE, tgt);
        shmem_ctx_long_atomic_add(ctx, &hits, 1, tgt);
        tu_check_round_trip(ctx, &sbuf[t * SLICE], src, SLICE, tgt);
    }
    shmem_ctx_destroy(ctx);
    return NULL;
}

/* Phase 2: thread t waits for all flags, after setting flag t on the next
 * PE; every thread of every PE waits and signals at once. */
static void *all_body(void *arg)
{
    const int t = (int)(intptr_t)arg;
    shmem_long_atomic_set(&flags[t], 2, next_pe());
    if (t == 0)
        shmem_long_wait_until_all(flags, TU_NTHREADS, NULL, SHMEM_CMP_EQ, 2);
    return NULL;
}

int main(void)
{
    tu_init_multiple();
    CHECK(pe_npes <= MAXPES);

    pe_section("waiter blocked while workers do RMA and AMO");
    pthread_t waiter;
    CHECK_EQ(pthread_create(&waiter, NULL, waiter_body, NULL), 0);
    pthread_t w[NWORK];
    for (int t = 0; t < NWORK; t++)
        CHECK_EQ(pthread_create(&w[t], NULL, worker_body, (void *)(intptr_t)t), 0);
    for (int t = 0; t < NWORK; t++)
        CHECK_EQ(pthread_join(w[t], NULL), 0);
    shmem_long_atomic_set(&flag, 1, next_pe());
    CHECK_EQ(pthread_join(waiter, NULL), 0);
    CHECK_EQ(waiter_saw_hits, (long)NWORK * ROUNDS);

    shmem_barrier_all();
    CHECK_EQ(flag, 1L);
    CHECK_EQ(hits, (long)NWORK * ROUNDS);
    for (int t = 0; t < NWORK; t++)
        for (int i = 0; i < SLICE; i++)
            CHECK_EQ(sbuf[t * SLICE + i], val((pe_me + pe_npes - 1) % pe_npes, t, ROUNDS - 1, i));

    pe_section("wait_until_all on flags set by another PE's threads");
    tu_run_threads(TU_NTHREADS, all_body);
    for (int t = 0; t < TU_NTHREADS; t++)
        CHECK_EQ(shmem_long_atomic_fetch(&flags[t], pe_me), 2L);
    return pe_test_finish();
}
