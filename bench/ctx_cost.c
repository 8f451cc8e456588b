/*
 * ctx_cost.c: what a created context costs a PE: time to
 * create, file descriptors and System V segments, for the first two
 * contexts and for the rest, then the first use of each (one atomic to
 * the next PE, with its endpoint) and destroy. Linux only.
 *
 *   oshrun -n 2 ./bench_ctx_cost [contexts [options]]   (default 128 0)
 *
 * With SHMEM_SHARE_STATIC=0 the atomic goes through UCX, so first use
 * includes making the context's endpoint. Figures are PE 0's.
 */
#include <shmem.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

#define FIRST 2

static long target;

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int  n = 0;
    if (!d) return -1;
    while (readdir(d)) n++;
    closedir(d);
    return n - 3; /* ".", ".." and the directory's own descriptor */
}

static int sysv_segments(void)
{
    struct shm_info info;
    int             max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&info), n = 0;
    for (int i = 0; i <= max; i++) {
        struct shmid_ds ds;
        if (shmctl(i, SHM_STAT, &ds) >= 0 && ds.shm_cpid == getpid()) n++;
    }
    return n;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int  n       = argc > 1 ? atoi(argv[1]) : 128;
    long options = argc > 2 ? atol(argv[2]) : 0;

    shmem_init();
    int          me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
    shmem_ctx_t *ctx = calloc((size_t)n, sizeof(*ctx));
    if (n <= FIRST || !ctx) shmem_global_exit(2);

    double t0 = now(), t1 = 0;
    int    f0 = open_fds(), s0 = sysv_segments(), f1 = 0, s1 = 0, made = 0;
    for (int i = 0; i < n; i++) {
        if (i == FIRST) {
            t1 = now();
            f1 = open_fds();
            s1 = sysv_segments();
        }
        if (shmem_ctx_create(options, &ctx[i]) != 0) break;
        made++;
    }
    double t2 = now();
    int    f2 = open_fds(), s2 = sysv_segments();
    for (int i = 0; i < made; i++) shmem_ctx_long_atomic_add(ctx[i], &target, 1, next);
    for (int i = 0; i < made; i++) shmem_ctx_quiet(ctx[i]);
    double t3 = now();
    for (int i = 0; i < made; i++) shmem_ctx_destroy(ctx[i]);
    double t4 = now();

    if (me == 0) {
        if (made < n) printf("only %d of %d contexts could be created\n", made, n);
        if (made > FIRST) {
            int rest = made - FIRST;
            printf("first %d contexts: %8.1f us, %5.2f fds, %5.2f sysv segments each\n", FIRST,
                   (t1 - t0) * 1e6 / FIRST, (double)(f1 - f0) / FIRST, (double)(s1 - s0) / FIRST);
            printf("next %4d:        %8.1f us, %5.2f fds, %5.2f sysv segments each\n", rest,
                   (t2 - t1) * 1e6 / rest, (double)(f2 - f1) / rest, (double)(s2 - s1) / rest);
        }
        printf("first use: %.1f us, destroy: %.1f us per context\n", (t3 - t2) * 1e6 / made,
               (t4 - t3) * 1e6 / made);
    }
    shmem_barrier_all();
    free(ctx);
    shmem_finalize();
    return 0;
}
