/*
 * SHMEM_THREAD_MULTIPLE with one context per thread: TU_NTHREADS threads on
 * every PE each create their own context (options from the command line:
 * 0, private, serialized, nostore) and, for many rounds, do blocking and
 * non-blocking puts and gets, fetch-add, compare-swap and non-blocking
 * fetching atomics to a different PE each round, on their own slice of the
 * symmetric heap and of static arrays. Each thread checks what it can see
 * at once (gets after a quiet, fetched values, which it can predict because
 * only it touches its slots); after a barrier every PE checks the last
 * values the others left in its memory. All threads also add to one
 * counter on PE 0, whose total must be exact. Every thread destroys its own
 * context.
 *
 * Arguments: the context options (see tu_ctx_options) and rounds=N
 * (default 200; the runs through UCX use fewer, as each round costs far
 * more there).
 */
#include "thread_util.h"

#define MAXPES 8
#define SLICE  16
#define NSLOTS (MAXPES * TU_NTHREADS)

/* Static symmetric data: one slice / slot per (writer PE, thread). */
static long sbuf[NSLOTS * SLICE];
static long scnt[NSLOTS];
static long total; /* on PE 0: one add per round from every thread */

/* The same on the heap. */
static long *hbuf, *hcnt, *hcas;
static long  ctx_options;
static int   rounds = 200;

/* Value element i of kind k written by (pe, thread) in round r: never 0,
 * and different for every tuple, so a stale or misplaced value shows. */
static long val(int pe, int t, int r, int i, int k)
{
    return (long)pe_key_bits(pe_key((uint64_t)pe, (uint64_t)t, (uint64_t)r, (uint64_t)i,
                                    (uint64_t)k));
}

static int target_of(int pe, int r)
{
    return (pe + 1 + r) % pe_npes;
}

static void *thread_body(void *arg)
{
    const int t = (int)(intptr_t)arg, me = pe_me, w = me * TU_NTHREADS + t;
    long      src[SLICE], dst[SLICE];
    long      nadd[MAXPES] = {0}, ncas[MAXPES] = {0};
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;

    CHECK_EQ(shmem_ctx_create(ctx_options, &ctx), 0);
    CHECK(ctx != SHMEM_CTX_INVALID);

    for (int r = 0; r < rounds; r++) {
        const int tgt = target_of(me, r);

        /* Blocking put, quiet, blocking get of the same slice. */
        for (int i = 0; i < SLICE; i++)
            src[i] = val(me, t, r, i, 0);
        shmem_ctx_long_put(ctx, &hbuf[w * SLICE], src, SLICE, tgt);
        shmem_ctx_quiet(ctx);
        memset(dst, 0, sizeof(dst));
        shmem_ctx_long_get(ctx, dst, &hbuf[w * SLICE], SLICE, tgt);
        for (int i = 0; i < SLICE; i++)
            CHECK_EQ(dst[i], src[i]);

        /* Non-blocking put and get on static data, each completed by a
         * quiet on this context alone. */
        for (int i = 0; i < SLICE; i++)
            src[i] = val(me, t, r, i, 1);
        shmem_ctx_long_put_nbi(ctx, &sbuf[w * SLICE], src, SLICE, tgt);
        shmem_ctx_quiet(ctx);
        memset(dst, 0, sizeof(dst));
        shmem_ctx_long_get_nbi(ctx, dst, &sbuf[w * SLICE], SLICE, tgt);
        shmem_ctx_quiet(ctx);
        for (int i = 0; i < SLICE; i++)
            CHECK_EQ(dst[i], src[i]);

        /* Atomics on slots only this thread updates: results are exact. */
        CHECK_EQ(shmem_ctx_long_atomic_fetch_add(ctx, &hcnt[w], 1, tgt), nadd[tgt]);
        const long newv = val(me, t, r, 0, 2);
        CHECK_EQ(shmem_ctx_long_atomic_compare_swap(ctx, &hcas[w], ncas[tgt], newv, tgt),
                 ncas[tgt]);
        /* A compare that fails changes nothing and returns the value. */
        CHECK_EQ(shmem_ctx_long_atomic_compare_swap(ctx, &hcas[w], newv ^ 1, 7, tgt), newv);
        ncas[tgt] = newv;

        long f_add = -1, f_cas = -1;
        shmem_ctx_long_atomic_fetch_add_nbi(ctx, &f_add, &scnt[w], 1, tgt);
        shmem_ctx_long_atomic_fetch_nbi(ctx, &f_cas, &hcas[w], tgt);
        shmem_ctx_quiet(ctx);
        CHECK_EQ(f_add, nadd[tgt]);
        CHECK_EQ(f_cas, newv);
        nadd[tgt]++;

        /* Contention across every context of every PE. */
        shmem_ctx_long_atomic_add(ctx, &total, 1, 0);
    }
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    return NULL;
}

int main(int argc, char **argv)
{
    tu_init_multiple();
    ctx_options = tu_ctx_options(argc, argv);
    rounds      = (int)tu_arg_long(argc, argv, "rounds", rounds);
    CHECK(rounds >= pe_npes); /* every PE is written to */
    CHECK(pe_npes <= MAXPES);

    pe_section("allocate");
    const size_t nslots = (size_t)pe_npes * TU_NTHREADS;
    hbuf = shmem_calloc(nslots * SLICE, sizeof(long));
    hcnt = shmem_calloc(nslots, sizeof(long));
    hcas = shmem_calloc(nslots, sizeof(long));
    CHECK(hbuf && hcnt && hcas);

    pe_section("threads, one context each");
    tu_run_threads(TU_NTHREADS, thread_body);
    shmem_barrier_all();

    pe_section("what the other PEs left here");
    for (int p = 0; p < pe_npes; p++) {
        int count = 0, last = -1;
        for (int r = 0; r < rounds; r++) {
            if (target_of(p, r) == pe_me) {
                count++;
                last = r;
            }
        }
        CHECK(last >= 0);
        for (int t = 0; t < TU_NTHREADS; t++) {
            const int w = p * TU_NTHREADS + t;
            for (int i = 0; i < SLICE; i++) {
                CHECK_EQ(hbuf[w * SLICE + i], val(p, t, last, i, 0));
                CHECK_EQ(sbuf[w * SLICE + i], val(p, t, last, i, 1));
            }
            CHECK_EQ(hcnt[w], (long)count);
            CHECK_EQ(scnt[w], (long)count);
            CHECK_EQ(hcas[w], val(p, t, last, 0, 2));
        }
    }
    CHECK_EQ(total, pe_me == 0 ? (long)pe_npes * TU_NTHREADS * rounds : 0L);

    shmem_barrier_all();
    shmem_free(hcas);
    shmem_free(hcnt);
    shmem_free(hbuf);
    return pe_test_finish();
}
