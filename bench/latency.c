/*
 * latency.c: latency of one 8-byte remote operation from PE 0 to PE 1, with
 * the OpenSHMEM 1.4 API only (so Open MPI's OSHMEM builds it too).
 *
 *   oshcc -O2 latency.c -o latency
 *   oshrun -n 2 ./latency [iterations [batches]]     (default 10000 100)
 *
 * The target is a long on the symmetric heap of PE 1. Operations:
 *   put_quiet  shmem_long_put of 8 bytes, then shmem_quiet: the time until
 *              the put is complete at the target, a full round trip;
 *   put_pingpong  PE 0 puts a value to PE 1, PE 1 waits for it and puts it
 *              back; half the round trip, the figure `ucx_perftest -t
 *              ucp_put_lat` reports;
 *   get        shmem_long_get of 8 bytes (blocking, a round trip);
 *   fetch_add  shmem_long_atomic_fetch_add (blocking, a round trip).
 *
 * The iterations are timed in batches after an untimed warm-up; the figure
 * printed is the median over the batches of the mean time per operation in
 * the batch, so a burst of load from elsewhere on the machine spoils one
 * batch, not the result. With batches == iterations each operation is timed
 * alone and the figure is the median operation, the statistic ucx_perftest
 * reports (the clock read costs well under a microsecond). While PE 0 times put_quiet, get and fetch_add, PE 1
 * (and any other PE) waits in shmem_barrier_all, which drives the library's
 * progress: transports that emulate RMA in software are served.
 *
 * Output (PE 0, stdout): '#' comment lines, then one line per operation,
 *   <operation> <bytes> <usec median> <usec min batch> <usec max batch>
 * aligned for reading and split by blanks for scripts. Every result is
 * checked (values put, got, fetched, and the final counter); the program
 * exits 1 if one is wrong and 2 on bad arguments.
 */
#include "bench_util.h"

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BYTES       sizeof(long)

struct result {
    double median, min, max;
};

/* Median, smallest and largest of the n per-batch figures (sorts them). */
static struct result summarise(double *v, int n)
{
    struct result r;
    r.median = bench_median(v, (size_t)n);
    r.min    = v[0];
    r.max    = v[n - 1];
    return r;
}

static void print_result(const char *op, struct result r)
{
    printf("%-13s %5zu %10.2f %10.2f %10.2f\n", op, BYTES, r.median, r.min, r.max);
}

static long *target;  /* heap, on every PE: the remote word      */
static long *pong;    /* heap: where PE 0 receives the ping-pong */
static int errors;

static void check(int ok, const char *what, long got, long want)
{
    if (!ok) {
        fprintf(stderr, "latency: PE %d: %s: got %ld, expected %ld\n", shmem_my_pe(), what, got,
                want);
        errors++;
    }
}

/* Ping-pong between PE 0 and PE 1 on fresh values, so a late put from the
 * previous round cannot satisfy a wait. Both PEs take part; iteration i
 * sends value base + i. Returns the per-batch half round trips in v. */
static void pingpong(int me, int warmup, int iters, int batches, double *v)
{
    long value = 1;
    int per    = iters / batches;

    *target = 0;
    *pong   = 0;
    shmem_barrier_all();
    for (int b = -1; b < batches; b++) {
        int n     = b < 0 ? warmup : per;
        double t0 = sb_now_us();
        for (int i = 0; i < n; i++, value++) {
            if (me == 0) {
                shmem_long_p(target, value, 1);
                shmem_long_wait_until(pong, SHMEM_CMP_EQ, value);
            } else {
                shmem_long_wait_until(target, SHMEM_CMP_EQ, value);
                shmem_long_p(pong, value, 0);
            }
        }
        if (b >= 0) v[b] = (sb_now_us() - t0) / n / 2;
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int iters   = argc > 1 ? atoi(argv[1]) : 10000;
    int batches = argc > 2 ? atoi(argv[2]) : 100;
    int me, npes, warmup;
    double *v;

    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2 || batches < 1 || iters < batches ||
        !(v = malloc(batches * sizeof(*v)))) {
        if (me == 0)
            fprintf(stderr,
                    "usage: oshrun -n 2 latency [iterations [batches]]: needs at least 2 PEs "
                    "(got %d) and 1 <= batches <= iterations (got %d, %d)\n",
                    npes, batches, iters);
        shmem_finalize();
        return 2;
    }
    iters  = iters / batches * batches; /* whole batches only */
    warmup = iters / 10 + 1;
    target = shmem_malloc(sizeof(long));
    pong   = shmem_malloc(sizeof(long));

    if (me == 0) {
        printf("# ushmem latency: PE 0 -> PE 1 of %d, %zu bytes, heap target\n", npes, BYTES);
        printf("# %d iterations in %d batches after %d warm-up; usec per operation,\n", iters,
               batches, warmup);
        printf("# median, smallest and largest of the batch means\n");
        printf("# %-11s %5s %10s %10s %10s\n", "operation", "bytes", "median", "min", "max");
    }

    /* Ping-pong first: it needs both PEs active. */
    if (me < 2) pingpong(me, warmup, iters, batches, v);
    else {
        shmem_barrier_all();
        shmem_barrier_all();
    }
    if (me == 0) print_result("put_pingpong", summarise(v, batches));

    /* put + quiet: PE 1 sits in the barrier below meanwhile. */
    if (me == 0) {
        int per = iters / batches;
        long value = 0, got = -1;
        for (int b = -1; b < batches; b++) {
            int n     = b < 0 ? warmup : per;
            double t0 = sb_now_us();
            for (int i = 0; i < n; i++, value++) {
                shmem_long_put(target, &value, 1, 1);
                shmem_quiet();
            }
            if (b >= 0) v[b] = (sb_now_us() - t0) / n;
        }
        print_result("put_quiet", summarise(v, batches));
        shmem_long_get(&got, target, 1, 1);
        check(got == value - 1, "value left by the final put", got, value - 1);
    }
    fflush(stdout);
    shmem_barrier_all();

    /* get: PE 1 holds a known value that PE 0 must read every time. */
    const long known = 0x5eed5eed5eedL;
    if (me == 1) *target = known;
    shmem_barrier_all();
    if (me == 0) {
        int per = iters / batches, bad = 0;
        long got = 0;
        for (int b = -1; b < batches; b++) {
            int n     = b < 0 ? warmup : per;
            double t0 = sb_now_us();
            for (int i = 0; i < n; i++) {
                shmem_long_get(&got, target, 1, 1);
                bad += got != known;
            }
            if (b >= 0) v[b] = (sb_now_us() - t0) / n;
        }
        check(bad == 0, "gets that read a wrong value (count)", bad, 0);
        print_result("get", summarise(v, batches));
    }
    shmem_barrier_all();

    /* fetch_add: each returns the previous count; PE 1 checks the total. */
    if (me == 1) *target = 0;
    shmem_barrier_all();
    long total = warmup + iters;
    if (me == 0) {
        int per = iters / batches, bad = 0;
        long expect = 0;
        for (int b = -1; b < batches; b++) {
            int n     = b < 0 ? warmup : per;
            double t0 = sb_now_us();
            for (int i = 0; i < n; i++) bad += shmem_long_atomic_fetch_add(target, 1, 1) != expect++;
            if (b >= 0) v[b] = (sb_now_us() - t0) / n;
        }
        check(bad == 0, "fetch_adds that returned a wrong previous value (count)", bad, 0);
        print_result("fetch_add", summarise(v, batches));
    }
    shmem_barrier_all();
    if (me == 1) check(*target == total, "counter after every fetch_add", *target, total);

    fflush(stdout);
    free(v);
    shmem_free(pong);
    shmem_free(target);
    /* Every PE learns whether any PE found an error, so all exit alike. */
    static long err_sum, err_in, pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE], psync[SHMEM_REDUCE_SYNC_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    err_in = errors;
    shmem_barrier_all();
    shmem_long_sum_to_all(&err_sum, &err_in, 1, 0, 0, npes, pwrk, psync);
    shmem_finalize();
    return err_sum ? 1 : 0;
}
