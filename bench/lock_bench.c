/*
 * lock_bench.c: every PE takes one lock K times with a tiny critical
 * section (a get and a put of one long on PE 0), all PEs at once: the cost
 * of a lock hand-over under full contention. Uses only the OpenSHMEM 1.4
 * API, so Open MPI's OSHMEM builds it too. PE 0 prints
 *     lock <npes> <K> <total seconds> <usec per acquisition>
 * where the time runs from a barrier before the first acquisition to one
 * after the last, and an acquisition is one set/clear pair of any PE. A
 * wrong final count (lost mutual exclusion) exits 1 instead.
 *
 *   oshcc -O2 lock_bench.c -o lock_bench && oshrun -n 8 ./lock_bench [K]
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static long lock;
static long count;

static double now_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    long k = argc > 1 ? atol(argv[1]) : 2000;
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();

    /* Warm-up: endpoints and first-touch costs stay out of the timing. */
    shmem_set_lock(&lock);
    shmem_long_p(&count, shmem_long_g(&count, 0) + 1, 0);
    shmem_clear_lock(&lock);
    shmem_barrier_all();

    double t0 = now_s();
    for (long i = 0; i < k; i++) {
        shmem_set_lock(&lock);
        shmem_long_p(&count, shmem_long_g(&count, 0) + 1, 0);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    double t = now_s() - t0;

    int rc = 0;
    if (me == 0) {
        long want = (k + 1) * npes;
        if (count != want) {
            fprintf(stderr, "lock_bench: count %ld, expected %ld: mutual exclusion lost\n",
                    count, want);
            rc = 1;
        } else {
            printf("lock %d %ld %.6f %.3f\n", npes, k, t, t * 1e6 / ((double)k * npes));
        }
    }
    shmem_finalize();
    return rc;
}
