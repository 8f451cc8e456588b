/*
 * Progress while the target computes.
 *
 * Where UCX emulates remote memory access and atomics in software (TCP
 * between nodes), a get, a flushed put or a fetching atomic completes only
 * when the target process runs UCX's progress engine.  A PE that computes
 * without calling the library must still serve them, or its peers stall
 * until it next enters the library (or forever).
 *
 * PE 0 computes for COMPUTE_SECONDS in a busy loop that never calls the
 * library (a volatile counter, checking CLOCK_MONOTONIC).  Meanwhile every
 * other PE does ROUNDS rounds of blocking gets, puts + shmem_quiet and
 * fetch-adds on PE 0's heap and static data, then records when it finished.
 * All nodes share the kernel's clock, so after a barrier PE 0 compares: every
 * PE must have finished before PE 0's computation ended (PE 0 served them
 * while computing), and every value must be exact.
 *
 * The program also demands that at least one PE runs on another node than
 * PE 0 (another host name), so a one-node run cannot pass vacuously.
 * OpenSHMEM API only; the harness is test/pe/pe_test.h.
 */
#include "pe_test.h"

#include <time.h>

#define COMPUTE_SECONDS 3
#define ROUNDS          32
#define MAX_PES         64
#define HOST_LEN        256

/* Static (data segment) targets on PE 0. */
static long st_src[ROUNDS];           /* read by gets */
static long st_dst[MAX_PES][ROUNDS];  /* written by puts */
static long st_counter;               /* fetch-added */
static char st_host0[HOST_LEN];       /* PE 0's host name */
static long long st_finish_ns[MAX_PES];
static long st_remote[MAX_PES];       /* 1: that PE is on another node than PE 0 */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long src_value(int heap, int r)
{
    return (long)(pe_key_bits(pe_key(heap, (uint64_t)r, 0, 0, 0)) >> 1);
}

static long dst_value(int heap, int pe, int r)
{
    return (long)(pe_key_bits(pe_key(heap, (uint64_t)r, (uint64_t)pe, 1, 0)) >> 1);
}

/* PE 0: the computation.  No library call until the time is up; the
 * volatile counter keeps the compiler from folding the loop away. */
static long long compute(long long start, volatile unsigned long *spins)
{
    long long t;
    do {
        for (int i = 0; i < 4096; i++)
            (*spins)++;
        t = now_ns();
    } while (t - start < COMPUTE_SECONDS * 1000000000LL);
    return t;
}

/* Other PEs: every kind of operation that needs PE 0 when emulated. */
static void hammer(int me, long *h_src, long *h_dst, long *h_counter, long *fetched_sum)
{
    for (int r = 0; r < ROUNDS; r++) {
        CHECK_EQ(shmem_long_g(&h_src[r], 0), src_value(1, r));
        CHECK_EQ(shmem_long_g(&st_src[r], 0), src_value(0, r));

        shmem_long_p(&h_dst[me * ROUNDS + r], dst_value(1, me, r), 0);
        shmem_long_p(&st_dst[me][r], dst_value(0, me, r), 0);
        shmem_quiet();

        long a = shmem_long_atomic_fetch_add(h_counter, 1, 0);
        long b = shmem_long_atomic_fetch_add(&st_counter, 1, 0);
        CHECK_MSG(a >= 0 && b >= 0, "fetched counters %ld, %ld are negative", a, b);
        fetched_sum[0] += a;
        fetched_sum[1] += b;
    }
}

int main(void)
{
    pe_test_init();
    int me = pe_me, npes = pe_npes;
    CHECK_MSG(npes >= 2 && npes <= MAX_PES, "needs 2..%d PEs, got %d", MAX_PES, npes);

    long *h_src     = shmem_malloc(ROUNDS * sizeof(long));
    long *h_dst     = shmem_calloc((size_t)npes * ROUNDS, sizeof(long));
    long *h_counter = shmem_calloc(1, sizeof(long));
    long *sums      = shmem_calloc(2, sizeof(long)); /* sum of fetched values, per counter */
    CHECK(h_src != NULL && h_dst != NULL && h_counter != NULL && sums != NULL);

    pe_section("setup");
    if (me == 0) {
        for (int r = 0; r < ROUNDS; r++) {
            h_src[r]  = src_value(1, r);
            st_src[r] = src_value(0, r);
        }
        CHECK(gethostname(st_host0, HOST_LEN - 1) == 0);
    }
    shmem_barrier_all();
    char host0[HOST_LEN] = {0}, host[HOST_LEN] = {0};
    shmem_getmem(host0, st_host0, HOST_LEN, 0);
    CHECK(gethostname(host, HOST_LEN - 1) == 0);
    shmem_long_p(&st_remote[me], strcmp(host, host0) != 0, 0);
    shmem_barrier_all();

    pe_section("PE 0 computes, the others use its memory");
    /* Both sides start right after the same barrier. */
    long long start = now_ns(), finish;
    volatile unsigned long spins = 0;
    long fetched[2] = {0, 0};
    if (me == 0) {
        finish = compute(start, &spins);
    } else {
        hammer(me, h_src, h_dst, h_counter, fetched);
        finish = now_ns();
    }
    shmem_long_atomic_add(&sums[0], fetched[0], 0);
    shmem_long_atomic_add(&sums[1], fetched[1], 0);
    shmem_longlong_p(&st_finish_ns[me], finish, 0);
    shmem_barrier_all();

    pe_section("check");
    if (me == 0) {
        long long end = st_finish_ns[0];
        int       remote = 0;
        CHECK_MSG(spins > 0 && end - start >= COMPUTE_SECONDS * 1000000000LL,
                  "PE 0 computed for %.3f s (%lu spins), expected %d s", (end - start) / 1e9,
                  (unsigned long)spins, COMPUTE_SECONDS);
        /* Every PE's time first, so a failure shows the whole picture. */
        for (int pe = 1; pe < npes; pe++) {
            printf("[PE 0] PE %d (%s node) finished after %.3f s\n", pe,
                   st_remote[pe] ? "another" : "same", (st_finish_ns[pe] - start) / 1e9);
        }
        fflush(stdout);
        for (int pe = 1; pe < npes; pe++) {
            remote += st_remote[pe] != 0;
            CHECK_MSG(st_finish_ns[pe] < end,
                      "PE %d (%s node) finished its operations on PE 0 %.3f s after PE 0 "
                      "started computing, not before PE 0's computation ended (%.3f s): "
                      "PE 0 did not serve them while computing (is there a progress thread? "
                      "SHMEM_PROGRESS_THREAD)",
                      pe, st_remote[pe] ? "another" : "the same", (st_finish_ns[pe] - start) / 1e9,
                      (end - start) / 1e9);
        }
        CHECK_MSG(remote > 0, "no PE runs on another node than PE 0 (host '%.64s'): "
                              "the test proves nothing on one node", st_host0);

        /* n workers each added 1 ROUNDS times: the counter is n * ROUNDS and
         * the fetched values are exactly 0 .. n*ROUNDS-1 in some order. */
        long n = npes - 1, total = n * ROUNDS;
        CHECK_EQ(*h_counter, total);
        CHECK_EQ(st_counter, total);
        CHECK_EQ(sums[0], total * (total - 1) / 2);
        CHECK_EQ(sums[1], total * (total - 1) / 2);
        for (int pe = 1; pe < npes; pe++) {
            for (int r = 0; r < ROUNDS; r++) {
                CHECK_EQ(h_dst[pe * ROUNDS + r], dst_value(1, pe, r));
                CHECK_EQ(st_dst[pe][r], dst_value(0, pe, r));
            }
        }
        long long last = start;
        for (int pe = 1; pe < npes; pe++)
            last = st_finish_ns[pe] > last ? st_finish_ns[pe] : last;
        printf("[PE 0] %d of %d other PEs on other nodes; computed %.3f s; the last of them "
               "finished after %.3f s\n", remote, npes - 1, (end - start) / 1e9,
               (last - start) / 1e9);
    }

    shmem_free(sums);
    shmem_free(h_counter);
    shmem_free(h_dst);
    shmem_free(h_src);
    return pe_test_finish();
}
