/*
 * Active-set collectives from several threads of each PE at once
 * (SHMEM_THREAD_MULTIPLE), each thread with its own pSync arrays: the
 * agreements on channels run concurrently on every PE, and with 4 threads
 * x 40 arrays there are more (pSync, set) pairs than channels, so the
 * borrowed channel is contended too. Thread t of every PE makes the same
 * calls in the same order, so its calls pair up by pSync across PEs.
 */
#include "thread_util.h"

#define NPSYNC 20
#define ROUNDS 6
#define N      16

/* Reductions use ps, broadcasts bps: an array is used again only after
 * NPSYNC - 1 reductions on others, by which time every member is done with
 * its previous call on it (the spec's rule). */
static long ps[TU_NTHREADS][NPSYNC][SHMEM_REDUCE_SYNC_SIZE];
static long bps[TU_NTHREADS][NPSYNC][SHMEM_BCAST_SYNC_SIZE];
static long wrk[TU_NTHREADS][N / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[TU_NTHREADS][N], dst[TU_NTHREADS][N];

static void *body(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < NPSYNC; k++) {
            for (int i = 0; i < N; i++) src[t][i] = (long)pe_me * 1000 + t * 100 + r + k + i;
            shmem_long_sum_to_all(dst[t], src[t], N, 0, 0, pe_npes, wrk[t], ps[t][k]);
            for (int i = 0; i < N; i++) {
                long want = 1000L * pe_npes * (pe_npes - 1) / 2 +
                            (long)pe_npes * (t * 100 + r + k + i);
                CHECK_MSG(dst[t][i] == want, "thread %d round %d pSync %d: element %d is %ld, "
                          "expected %ld", t, r, k, i, dst[t][i], want);
            }
            shmem_broadcast64(dst[t], src[t], N, (r + k) % pe_npes, 0, 0, pe_npes, bps[t][k]);
            int root = (r + k) % pe_npes;
            if (pe_me != root)
                for (int i = 0; i < N; i++)
                    CHECK_EQ(dst[t][i], (long)root * 1000 + t * 100 + r + k + i);
        }
    }
    return NULL;
}

int main(void)
{
    tu_init_multiple();
    pe_section("active-set collectives from 4 threads, 20 pSync each");
    shmem_barrier_all();
    tu_run_threads(TU_NTHREADS, body);
    shmem_barrier_all();
    return pe_test_finish();
}
