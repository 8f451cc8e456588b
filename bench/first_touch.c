/*
 * The first access to a peer against the ones after it: a
 * library that connects to peers lazily may make the first put or get to a
 * PE pay for the connection, but not the second, nor any later one.
 *
 *   first_touch [get|put] [ITERS]
 *
 * PE 0 alone measures while the others wait in a barrier. For each peer in
 * turn it times one operation (the first to that peer in the job: nothing
 * before it but shmem_init, shmem_malloc and a barrier), then a second one,
 * then, after every peer has been touched, ITERS more to each peer in
 * round-robin (the steady state). get is shmem_long_g; put is shmem_long_p
 * plus shmem_quiet (complete at the target). Output, one line:
 *
 *   first_touch <op> npes <n> first_med <us> first_max <us>
 *               second_med <us> second_max <us> steady_med <us>
 *
 * Medians and maxima over the peers (steady: over every timed operation).
 * Every value read or written is checked; a wrong one exits non-zero.
 * OpenSHMEM 1.4 API only, so Open MPI 4.1 builds it too.
 */
#include "bench_util.h"

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double max_of(const double *v, size_t n)
{
    double m = v[0];
    size_t i;

    for (i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* What PE pe's cell holds for a get; what PE 0 puts into PE pe's cell. */
static long get_value(int pe)
{
    return 0x6e7000L + pe;
}

static long put_value(int pe, long k)
{
    return 0x9e7000L + pe * 100000L + k;
}

/* One timed operation on peer pe; k numbers the puts so each one writes a
 * value of its own. Returns 0 when a get read the wrong value. */
static int touch(int put, long *cell, int pe, long k, double *us)
{
    double t0 = sb_now_us();
    long   got;

    if (put) {
        shmem_long_p(cell, put_value(pe, k), pe);
        shmem_quiet();
        *us = sb_now_us() - t0;
        return 1;
    }
    got = shmem_long_g(cell, pe);
    *us = sb_now_us() - t0;
    return got == get_value(pe);
}

int main(int argc, char **argv)
{
    long    iters = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
    int     put   = argc > 1 && strcmp(argv[1], "put") == 0;
    double *first = NULL, *second = NULL, *steady = NULL;
    long   *cell, k = 0, last;
    int     me, npes, pe, ok = 1;
    long    i;

    if ((argc > 1 && !put && strcmp(argv[1], "get") != 0) || iters < 1) {
        fprintf(stderr, "usage: first_touch [get|put] [ITERS >= 1]\n");
        return 2;
    }
    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    cell = shmem_malloc(sizeof(*cell));
    if (cell == NULL) {
        fprintf(stderr, "first_touch: PE %d: shmem_malloc(%zu) returned NULL\n", me, sizeof(*cell));
        shmem_global_exit(1);
    }
    *cell = put ? 0 : get_value(me);
    shmem_barrier_all();

    if (me == 0 && npes > 1) {
        size_t peers = (size_t)npes - 1, n = 0;

        first  = malloc(peers * sizeof(*first));
        second = malloc(peers * sizeof(*second));
        steady = malloc(peers * (size_t)iters * sizeof(*steady));
        if (first == NULL || second == NULL || steady == NULL) {
            fprintf(stderr, "first_touch: out of memory for %ld timings\n", iters);
            shmem_global_exit(1);
        }
        for (pe = 1; pe < npes; pe++) {
            ok &= touch(put, cell, pe, k++, &first[pe - 1]);
            ok &= touch(put, cell, pe, k++, &second[pe - 1]);
        }
        for (i = 0; i < iters; i++)
            for (pe = 1; pe < npes; pe++)
                ok &= touch(put, cell, pe, k++, &steady[n++]);
        printf("first_touch %s npes %d first_med %.2f first_max %.2f second_med %.2f "
               "second_max %.2f steady_med %.2f\n",
               put ? "put" : "get", npes, bench_median(first, peers), max_of(first, peers),
               bench_median(second, peers), max_of(second, peers), bench_median(steady, n));
        fflush(stdout);
    }
    /* PE me's last put is the one of PE 0's last round-robin pass: after
     * two per peer and iters - 1 whole passes. */
    shmem_barrier_all();
    last = (iters + 1) * (npes - 1) + (me - 1);
    if (put && me > 0 && *cell != put_value(me, last)) {
        fprintf(stderr, "first_touch: PE %d holds %ld, expected %ld from PE 0's last put\n", me,
                *cell, put_value(me, last));
        ok = 0;
    }
    if (!ok)
        fprintf(stderr, "first_touch: PE %d: a get or put gave a wrong value\n", me);
    free(first);
    free(second);
    free(steady);
    shmem_free(cell);
    shmem_finalize();
    return ok ? 0 : 1;
}
