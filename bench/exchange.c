/*
 * exchange.c: the buffered exchange of bale-style applications (a sparse
 * matrix transpose or permutation, a histogram): every PE streams small
 * items to destinations it learns one item at a time, with the OpenSHMEM
 * 1.4 API only (so Open MPI's OSHMEM builds it too).
 *
 *   oshcc -O2 exchange.c -o exchange
 *   oshrun -n 4 ./exchange [-n items] [-b batch] [-r runs] [-p poll]
 *
 * Items to one destination collect in a local batch of b items. A full
 * batch goes with shmem_putmem_nbi into this PE's inbox on the
 * destination, then shmem_fence and an atomic set of the inbox's signal
 * word there. A receiver finds full inboxes by polling their signal words
 * with shmem_test, between sends (every p items) and whenever it waits
 * for an inbox of its own to come free; it folds the items into its
 * result, clears the signal and hands the inbox back with an atomic set
 * of a credit word on the sender. Each PE ends its stream with a last
 * batch that says so, and is done when every PE's last batch is in. This
 * is the protocol of bale's exstack2: one inbox per (sender, receiver),
 * no collective until the end, every wait served by polling.
 *
 * Items are (row, column) pairs of a sparse matrix with n nonzeros per
 * PE at pseudo-random columns; the owner of column j is PE j mod npes,
 * and it counts the entries per local column and sums the rows: a
 * transpose's counting pass. Each receiver recomputes what every sender
 * generates and checks its counts and sums after the first run; a wrong
 * result exits 1.
 *
 * Output (PE 0): '#' comment lines, one 'run K ms' line per timed run,
 * then 'exchange npes N items N batch N ms MEDIAN MIN MAX mitems_s RATE'.
 * The time of a run is from a barrier before the first item to a barrier
 * after the last batch is folded everywhere.
 */
#include "bench_util.h"

#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int64_t row, col;
} item_t;

/* A signal word holds (count << 1 | last) + 1: 0 is an empty inbox. */
#define SIG_ENCODE(n, last) ((((long)(n)) << 1 | (last)) + 1)
#define SIG_COUNT(sig)      (((sig) - 1) >> 1)
#define SIG_LAST(sig)       (((sig) - 1) & 1)

static int     me, npes;
static long    n_items = 200000, batch = 64, poll_every = 64;
static int     per_item;                     /* -i: one putmem_nbi per item */
static long    ncols_local = 4096;           /* columns each PE owns */
static item_t *inbox;                        /* symmetric: [npes][batch] */
static long   *in_sig;                       /* symmetric: [npes], per sender */
static long   *credit;                       /* symmetric: [npes], per receiver */
static item_t *out;                          /* local: [npes][batch] */
static long   *out_n;                        /* local: items in out[d] */
static long   *col_count;                    /* result: entries per local column */
static int64_t row_sum;                      /* result: sum of rows received */
static int     last_seen;                    /* senders whose last batch is in */

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Nonzero i of PE pe: row (global), column (global). */
static item_t gen(int pe, long i)
{
    uint64_t h = splitmix64(((uint64_t)pe << 40) ^ (uint64_t)i);
    item_t   it;
    it.row = (int64_t)pe * n_items + i;
    it.col = (int64_t)(h % ((uint64_t)ncols_local * (uint64_t)npes));
    return it;
}

static void fold(const item_t *it, long n)
{
    for (long k = 0; k < n; k++) {
        col_count[it[k].col / npes]++;
        row_sum += it[k].row;
    }
}

/* One pass over the inboxes: folds every full one and hands it back. */
static void drain(void)
{
    for (int s = 0; s < npes; s++) {
        if (!shmem_long_test(&in_sig[s], SHMEM_CMP_NE, 0)) continue;
        long sig = in_sig[s];
        fold(&inbox[(size_t)s * batch], SIG_COUNT(sig));
        in_sig[s] = 0;
        if (SIG_LAST(sig))
            last_seen++;
        else
            shmem_long_atomic_set(&credit[me], 1, s);
    }
}

/* The inbox for this PE on d must be free before a batch's first item
 * goes into it (per item) or before the batch goes (batched). */
static void wait_credit(int d)
{
    while (!shmem_long_test(&credit[d], SHMEM_CMP_EQ, 1)) drain();
    credit[d] = 0;
}

static void send_batch(int d, int last)
{
    if (per_item) {
        if (out_n[d] == 0) wait_credit(d);
    } else {
        wait_credit(d);
        shmem_putmem_nbi(&inbox[(size_t)me * batch], &out[(size_t)d * batch],
                         (size_t)out_n[d] * sizeof(item_t), d);
    }
    shmem_fence();
    shmem_long_atomic_set(&in_sig[me], SIG_ENCODE(out_n[d], last), d);
    out_n[d] = 0;
}

static void run_once(void)
{
    memset(col_count, 0, (size_t)ncols_local * sizeof(*col_count));
    row_sum   = 0;
    last_seen = 0;
    for (long i = 0; i < n_items; i++) {
        item_t it = gen(me, i);
        int    d  = (int)(it.col % npes);
        if (per_item && out_n[d] == 0) wait_credit(d);
        /* Per item, the copy in out[] is the put's source: it stays put
         * until the receiver hands the inbox back, so the put is done. */
        item_t *slot = &out[(size_t)d * batch + out_n[d]];
        *slot        = it;
        if (per_item) shmem_putmem_nbi(&inbox[(size_t)me * batch + out_n[d]], slot, sizeof(it), d);
        out_n[d]++;
        if (out_n[d] == batch) send_batch(d, 0);
        if (i % poll_every == 0) drain();
    }
    for (int d = 0; d < npes; d++) send_batch(d, 1);
    while (last_seen < npes) drain();
    /* Last batches were not handed back: every inbox is free again. */
    for (int d = 0; d < npes; d++) credit[d] = 1;
}

/* What this PE must have received: every sender's items recomputed. */
static int check(void)
{
    long   *want  = calloc((size_t)ncols_local, sizeof(*want));
    int64_t wsum  = 0;
    int     wrong = 0;
    if (!want) return 1;
    for (int s = 0; s < npes; s++)
        for (long i = 0; i < n_items; i++) {
            item_t it = gen(s, i);
            if (it.col % npes != me) continue;
            want[it.col / npes]++;
            wsum += it.row;
        }
    for (long c = 0; c < ncols_local; c++)
        if (want[c] != col_count[c]) {
            if (!wrong)
                fprintf(stderr, "exchange: PE %d column %ld: %ld entries, expected %ld\n", me,
                        c * npes + me, col_count[c], want[c]);
            wrong = 1;
        }
    if (wsum != row_sum) {
        fprintf(stderr, "exchange: PE %d row sum %lld, expected %lld\n", me, (long long)row_sum,
                (long long)wsum);
        wrong = 1;
    }
    free(want);
    return wrong;
}

static long arg_long(const char *opt, const char *s, long min)
{
    char *end;
    long  v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min) {
        if (me == 0) fprintf(stderr, "exchange: %s needs a whole number >= %ld, not '%s'\n", opt, min, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    int runs = 5, opt;
    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    while ((opt = getopt(argc, argv, "n:b:r:p:i")) != -1) {
        switch (opt) {
        case 'n': n_items = arg_long("-n", optarg, 1); break;
        case 'b': batch = arg_long("-b", optarg, 1); break;
        case 'r': runs = (int)arg_long("-r", optarg, 1); break;
        case 'p': poll_every = arg_long("-p", optarg, 1); break;
        case 'i': per_item = 1; break;
        default:
            if (me == 0) fprintf(stderr, "usage: exchange [-n items] [-b batch] [-r runs] [-p poll]\n");
            exit(2);
        }
    }

    inbox     = shmem_malloc((size_t)npes * batch * sizeof(item_t));
    in_sig    = shmem_calloc((size_t)npes, sizeof(long));
    credit    = shmem_malloc((size_t)npes * sizeof(long));
    out       = malloc((size_t)npes * batch * sizeof(item_t));
    out_n     = calloc((size_t)npes, sizeof(long));
    col_count = malloc((size_t)ncols_local * sizeof(long));
    double *ms = malloc((size_t)(runs + 1) * sizeof(double));
    if (!inbox || !in_sig || !credit || !out || !out_n || !col_count || !ms) {
        fprintf(stderr, "exchange: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    for (int d = 0; d < npes; d++) credit[d] = 1;
    shmem_barrier_all();

    if (me == 0)
        printf("# exchange: %d PEs, %ld items per PE of %zu bytes, batches of %ld, poll every %ld\n",
               npes, n_items, sizeof(item_t), batch, poll_every);
    /* Run 0 is the untimed warm-up, and the one checked. */
    for (int r = 0; r <= runs; r++) {
        shmem_barrier_all();
        double t0 = sb_now_us();
        run_once();
        shmem_barrier_all();
        ms[r] = (sb_now_us() - t0) / 1e3;
        if (r == 0) {
            static int bad;
            int wrong = check();
            shmem_int_atomic_add(&bad, wrong, 0);
            shmem_barrier_all();
            if (bad) {
                if (me == 0) fprintf(stderr, "exchange: wrong result on %d PE(s)\n", bad);
                shmem_global_exit(1);
            }
        } else if (me == 0) {
            printf("run %d ms %.3f\n", r, ms[r]);
        }
    }
    if (me == 0) {
        double med = bench_median(ms + 1, (size_t)runs);
        printf("exchange npes %d items %ld batch %ld ms %.3f %.3f %.3f mitems_s %.2f\n", npes,
               n_items, batch, med, ms[1], ms[runs], (double)n_items * npes / med / 1e3);
    }
    free(ms);
    shmem_finalize();
    return 0;
}
