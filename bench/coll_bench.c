/*
 * coll_bench.c: time of barrier_all, broadcast64 and long_sum_to_all for 8
 * bytes and 64 KiB, with the OpenSHMEM 1.4 active-set API both ushmem and
 * Open MPI's OSHMEM provide. PE 0 prints "<collective> <bytes> <usec>"
 * lines: the mean over the iterations, after a warm-up, of each call.
 *
 *   oshcc coll_bench.c -o coll_bench && oshrun -n 4 ./coll_bench [iters]
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define MAX_ELEMS 8192 /* 64 KiB of long */

static long psync[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                    : SHMEM_BCAST_SYNC_SIZE];
static long pwrk[2][MAX_ELEMS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[MAX_ELEMS], dst[MAX_ELEMS];

static double now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1e6 + tv.tv_usec;
}

static void bcast(int i, size_t n)
{
    shmem_broadcast64(dst, src, n, 0, 0, 0, shmem_n_pes(), psync[i & 1]);
}

static void reduce(int i, size_t n)
{
    shmem_long_sum_to_all(dst, src, (int)n, 0, 0, shmem_n_pes(), pwrk[i & 1], psync[i & 1]);
}

static void barrier(int i, size_t n)
{
    (void)i;
    (void)n;
    shmem_barrier_all();
}

static void run(const char *name, void (*op)(int, size_t), size_t nelems, int iters)
{
    for (int i = 0; i < iters / 10 + 1; i++) op(i, nelems);
    shmem_barrier_all();
    double t0 = now_us();
    for (int i = 0; i < iters; i++) op(i, nelems);
    double t = (now_us() - t0) / iters;
    shmem_barrier_all();
    if (shmem_my_pe() == 0) printf("%s %zu %.2f\n", name, nelems * sizeof(long), t);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < (int)(sizeof(psync[0]) / sizeof(long)); j++) psync[i][j] = SHMEM_SYNC_VALUE;
    }
    shmem_init();
    for (int i = 0; i < MAX_ELEMS; i++) src[i] = i + shmem_my_pe();
    shmem_barrier_all();

    run("barrier", barrier, 1, iters);
    run("broadcast", bcast, 1, iters);
    run("broadcast", bcast, MAX_ELEMS, iters / 10 + 1);
    run("reduce", reduce, 1, iters);
    run("reduce", reduce, MAX_ELEMS, iters / 10 + 1);

    shmem_finalize();
    return 0;
}
