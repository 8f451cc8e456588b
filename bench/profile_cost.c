/*
 * profile_cost.c: what the job profile's hooks cost on the fastest paths,
 * in ns per call: PE 0 calls each routine below on PE 1's symmetric heap
 * (node-local, so a load, a store or a CPU atomic behind the checks) in
 * batches, and prints the median over the batches of the mean per call.
 * profile_cost.sh runs it against a library built without the hooks, the
 * normal library with SHMEM_PROFILE unset, and with SHMEM_PROFILE=1.
 *
 *   oshrun -n 2 ./profile_cost [calls per batch [batches [routine]]]
 *
 * (default 20000 50, every routine). Output (PE 0): one line per routine,
 * "<routine> <ns per call>". With a routine's number (0 to 4, in the order
 * below) only that one runs: profile_cost.sh runs it so, alone on one PE
 * under valgrind, to count the instructions of one call.
 */
#include "bench_util.h"

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

enum { P, G, FADD, ADD, PUTMEM, NOPS };
static const char *names[NOPS] = { "shmem_long_p", "shmem_long_g", "shmem_long_atomic_fetch_add",
                                   "shmem_long_atomic_add", "shmem_putmem(64 B)" };

int main(int argc, char **argv)
{
    long iters   = argc > 1 ? atol(argv[1]) : 20000;
    int  batches = argc > 2 ? atoi(argv[2]) : 50;
    int  only    = argc > 3 ? atoi(argv[3]) : -1;
    if (iters < 1 || batches < 1 || only >= NOPS) {
        fprintf(stderr, "usage: profile_cost [calls per batch [batches [routine 0-4]]]\n");
        return 2;
    }
    shmem_init();
    long   *word = shmem_malloc(64 * sizeof(long));
    double *t    = malloc((size_t)batches * sizeof(double));
    char    buf[64] = { 0 };
    long    sink = 0;
    /* PE 1, or itself alone (as under valgrind, which counts instructions) */
    int peer = shmem_n_pes() > 1;
    if (shmem_my_pe() == 0) {
        for (int op = 0; op < NOPS; op++) {
            if (only >= 0 && op != only) continue;
            for (int b = -1; b < batches; b++) { /* batch -1 warms up */
                double t0 = now_ns();
                for (long i = 0; i < iters; i++) {
                    switch (op) {
                    case P:      shmem_long_p(word, i, peer); break;
                    case G:      sink += shmem_long_g(word, peer); break;
                    case FADD:   sink += shmem_long_atomic_fetch_add(word + 8, 1, peer); break;
                    case ADD:    shmem_long_atomic_add(word + 8, 1, peer); break;
                    case PUTMEM: shmem_putmem(word + 16, buf, sizeof(buf), peer); break;
                    }
                }
                shmem_quiet();
                if (b >= 0) t[b] = (now_ns() - t0) / (double)iters;
            }
            printf("%-28s %8.2f\n", names[op], bench_median(t, (size_t)batches));
        }
        fflush(stdout);
    }
    shmem_barrier_all();
    if (sink == 42) puts(""); /* keep the gets */
    shmem_free(word);
    free(t);
    shmem_finalize();
    return 0;
}
