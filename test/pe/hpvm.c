/*
 * The HPVM interface of <ushmem/hpvm.h> (the HPVM documentation), with the
 * page's own code fragments where it gives them. This translation unit
 * sees only that header; hpvm_verify.c, an OpenSHMEM one linked into the
 * same program, reports the verdict and ends the job on a failure.
 *
 *   nlong counts longs: a get, put or cget of N longs moves all N (under the
 *     "32-bit words" reading only the first N/2 would arrive on LP64);
 *   overlapping cgets share one counter, which reaches their number with
 *     the program calling nothing (a plain spin on it), then shmem_cwait;
 *   a swap race on one long of PE 0: the values the swaps returned and the
 *     last one left are each of the swapped values exactly once;
 *   shmem_broadcast: the page's pSync set-up with barrier(), its odd-nodes
 *     example verbatim, and a broadcast over all from the last PE; the
 *     root's target is never written.
 */
#include <ushmem/hpvm.h>

#include <stdio.h>
#include <stdlib.h>

/* hpvm_verify.c */
void hpvm_started(void);
void hpvm_fail(int line, const char *what, long expected, long got);
void hpvm_pass(void);
long hpvm_spin_ms(void);

#define CHECK_EQ(what, expected, got)                                         \
    do {                                                                      \
        long e_ = (long)(expected), g_ = (long)(got);                         \
        if (e_ != g_) hpvm_fail(__LINE__, what, e_, g_);                      \
    } while (0)

#define N      64 /* longs in each transfer */
#define K      4  /* cgets sharing one counter */
#define SWAPS  16 /* swaps per PE */
#define MAXPES 64

static long pSync[_SHMEM_BCAST_SYNC_SIZE];
static long src[K * N], dst[K * N];
static long slot;                    /* PE 0's, swapped by everyone */
static long seen[MAXPES * SWAPS + 1]; /* PE 0's: what the swaps returned */
static long target[N], source[N];

static long value(int pe, int i) { return 1000L * (pe + 1) + i; }

static void test_get_put(int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    for (int i = 0; i < K * N; i++) {
        src[i] = value(me, i);
        dst[i] = -1;
    }
    barrier();
    shmem_get(dst, src, N, right);
    for (int i = 0; i < N; i++) CHECK_EQ("shmem_get: dst[i]", value(right, i), dst[i]);
    CHECK_EQ("shmem_get: the long after the N", -1, dst[N]);

    /* put into the right neighbour's dst, after everyone read theirs */
    barrier();
    for (int i = 0; i < K * N; i++) dst[i] = -1;
    barrier();
    shmem_put(dst, src, N, right);
    barrier();
    for (int i = 0; i < N; i++) CHECK_EQ("shmem_put: dst[i]", value(left, i), dst[i]);
    CHECK_EQ("shmem_put: the long after the N", -1, dst[N]);
    shmem_get(dst, src, 0, right); /* nothing to move */
    shmem_put(dst, src, 0, right);
    barrier();
}

static void test_cget(int me, int npes)
{
    int count = 0;

    for (int i = 0; i < K * N; i++) dst[i] = -1;
    barrier();
    /* K cgets from K PEs (wrapping) into K parts of dst, one counter */
    for (int k = 0; k < K; k++) {
        shmem_cget(&dst[k * N], &src[k * N], N, (me + k) % npes, &count);
    }
    /* the counter must get there with nothing called: plain loads */
    long ms = 0;
    while (__atomic_load_n(&count, __ATOMIC_ACQUIRE) < K && (ms = hpvm_spin_ms()) < 20000) {
    }
    CHECK_EQ("shmem_cget: counter, with no call meanwhile", K, count);
    shmem_cwait(&count, K);
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < N; i++) {
            CHECK_EQ("shmem_cget: dst", value((me + k) % npes, k * N + i), dst[k * N + i]);
        }
    }
    shmem_cget(dst, src, 0, 0, &count); /* nothing to move: counted at once */
    shmem_cwait(&count, K + 1);
    CHECK_EQ("shmem_cget of 0 longs: counter", K + 1, count);
    barrier();
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void test_swap(int me, int npes)
{
    long got[SWAPS];

    if (me == 0) slot = 0;
    barrier();
    for (int r = 0; r < SWAPS; r++) got[r] = shmem_swap(&slot, (long)me * SWAPS + r + 1, 0);
    shmem_put(&seen[me * SWAPS], got, SWAPS, 0);
    barrier();
    if (me == 0) {
        int n = npes * SWAPS;
        seen[n] = slot;
        qsort(seen, (size_t)n + 1, sizeof(long), cmp_long);
        for (int i = 0; i <= n; i++) CHECK_EQ("shmem_swap: each value once", i, seen[i]);
    }
    barrier();
}

static void test_broadcast(int me, int npes)
{
    int  i, numnodes = npes;
    int  nlong = N;
    long expect;

    /* the page's set-up, as written */
    for (i = 0; i < _SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[i] = _SHMEM_SYNC_VALUE;
    barrier();

    for (i = 0; i < N; i++) {
        source[i] = value(me, i);
        target[i] = -1;
    }
    barrier();
    /* "node 1 broadcasts a value to all of the odd nodes" */
    if (numnodes >= 2 && me % 2 == 1 && me < 2 * (numnodes / 2)) {
        shmem_broadcast(target, source, nlong, 0, 1, 1, numnodes/2, pSync);
    }
    barrier();
    for (i = 0; i < N; i++) {
        expect = (me % 2 == 1 && me != 1 && me < 2 * (numnodes / 2)) ? value(1, i) : -1;
        CHECK_EQ("odd-nodes shmem_broadcast: target", expect, target[i]);
    }

    /* over everyone from the last PE, reusing pSync */
    for (i = 0; i < N; i++) target[i] = -1;
    barrier();
    shmem_broadcast(target, source, nlong, npes - 1, 0, 0, npes, pSync);
    barrier();
    for (i = 0; i < N; i++) {
        CHECK_EQ("shmem_broadcast from the last PE: target",
                 me == npes - 1 ? -1 : value(npes - 1, i), target[i]);
    }
    barrier();
}

int main(void)
{
    shmem_init();
    hpvm_started();
    int me = _my_pe(), npes = _num_pes();
    if (npes > MAXPES) {
        fprintf(stderr, "hpvm test: at most %d PEs\n", MAXPES);
        return 2;
    }
    test_get_put(me, npes);
    test_cget(me, npes);
    test_swap(me, npes);
    test_broadcast(me, npes);
    hpvm_pass();
    return 0;
}
