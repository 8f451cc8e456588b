/*
 * Soak: a bounded stress test mixing every kind of operation, iteration
 * after iteration, with exact checks each time.
 *
 *   pe_soak [ITERATIONS]      (default 100)
 *
 * Each iteration, on every PE:
 *  - RMA: puts to the right neighbour's heap (putmem) and static data
 *    (put_nbi) in three sizes, 8 B, 4 KiB and 80 KiB (above 64 KiB), then
 *    gets back (blocking from the heap, get_nbi on a context created from
 *    a split team from static data); every word encodes (iteration,
 *    source PE, index);
 *  - atomics: fetch_add contention on one heap counter (owner rotates) and
 *    inc on every PE's static counter; cumulative totals must be exact,
 *    and fetch_add's returns must stay below the final total;
 *  - a lock-protected read-modify-write on a heap word of a rotating PE:
 *    no update may be lost;
 *  - put_signal to the right neighbour, signal_wait_until by it, data
 *    checked after the signal;
 *  - on the PE's half of a split team (even/odd PEs, re-split every
 *    RESPLIT iterations so team creation and destruction soak too):
 *    sum_reduce, broadcast from a rotating root, and alltoall, all exact.
 * At the end PE 0 prints the job's totals per kind of operation.
 *
 * Needs 2 or more PEs (both halves of the split are non-empty).
 *
 * PE_SOAK_HOLD_FILE=path: after start-up (before creating teams and
 * contexts) every PE waits until path exists (test/launch/check_perms.sh
 * inspects a live job's files meanwhile);
 * LAUNCH_TEST_PIDDIR=dir: each PE writes dir/pe.RANK.pid, as the launcher
 * tests' programs do.
 */
#include "pe_test.h"

#include <time.h>

#define SMALL   1                       /* words: 8 B */
#define MEDIUM  512                     /* 4 KiB */
#define LARGE   10240                   /* 80 KiB */
#define WORDS   (SMALL + MEDIUM + LARGE)
#define K_AMO   16                      /* fetch_adds per PE per iteration */
#define SIGN    256                     /* words sent with the signal */
#define RED_N   64                      /* reduction length */
#define BC_N    1024                    /* broadcast length */
#define A2A_N   32                      /* alltoall words per PE pair */
#define RESPLIT 10                      /* iterations between team re-splits */

static const size_t offs[3]  = { 0, SMALL, SMALL + MEDIUM };
static const size_t sizes[3] = { SMALL, MEDIUM, LARGE };

/* symmetric static data */
static uint64_t st_recv[WORDS];
static uint64_t st_ctr;
static long     st_lock;
static uint64_t sig_flag;
static uint64_t sig_buf[SIGN];

/* operation counts of this PE, summed over the job at the end */
enum { N_PUT, N_GET, N_NBI, N_AMO, N_LOCK, N_SIGNAL, N_REDUCE, N_BCAST, N_A2A, N_BARRIER,
       N_TEAM, N_BYTES, N_KINDS };
static const char *const kind_names[N_KINDS] = {
    "puts", "gets", "nbi", "atomics", "locked_rmw", "put_signals", "reductions",
    "broadcasts", "alltoalls", "barriers", "team_splits", "rma_bytes",
};
static long counts[N_KINDS];

static uint64_t word(long it, int src, size_t i)
{
    return ((uint64_t)it << 44) ^ ((uint64_t)src << 34) ^ (uint64_t)i ^ 0x5a5a000000000000ull;
}

static void barrier(void)
{
    shmem_barrier_all();
    counts[N_BARRIER]++;
}

static void check_words(const uint64_t *buf, long it, int src, const char *what)
{
    for (size_t i = 0; i < WORDS; i++) {
        if (buf[i] != word(it, src, i)) {
            CHECK_MSG(0, "iteration %ld: %s word %zu = 0x%" PRIx64 ", expected 0x%" PRIx64
                      " (from PE %d)", it, what, i, buf[i], word(it, src, i), src);
        }
    }
}

static void hold_if_asked(void)
{
    const char *hold = getenv("PE_SOAK_HOLD_FILE");
    const char *dir  = getenv("LAUNCH_TEST_PIDDIR");
    if (dir != NULL) {
        char  path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/pe.%d.pid", dir, pe_me);
        if ((f = fopen(path, "w")) != NULL) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
    }
    if (hold == NULL) return;
    struct timespec ts = { 0, 20 * 1000000L };
    while (access(hold, F_OK) != 0) nanosleep(&ts, NULL);
}

/* Even PEs in one team, odd ones in the other; *ctx is a context of the
 * team this PE is in. */
static shmem_team_t split(shmem_ctx_t *ctx)
{
    shmem_team_t even, odd;
    int          n = pe_npes;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even), 0);
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd), 0);
    shmem_team_t mine = pe_me % 2 ? odd : even;
    CHECK(mine != SHMEM_TEAM_INVALID);
    CHECK((pe_me % 2 ? even : odd) == SHMEM_TEAM_INVALID);
    CHECK_EQ(shmem_team_my_pe(mine), pe_me / 2);
    CHECK_EQ(shmem_team_n_pes(mine), pe_me % 2 ? n / 2 : (n + 1) / 2);
    CHECK_EQ(shmem_team_create_ctx(mine, 0, ctx), 0);
    counts[N_TEAM]++;
    return mine;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 100;

    pe_test_init();
    CHECK_MSG(pe_npes >= 2, "the soak needs 2 or more PEs, got %d", pe_npes);
    CHECK(iters > 0);
    const int me = pe_me, n = pe_npes;
    const int right = (me + 1) % n, left = (me + n - 1) % n;

    uint64_t *heap_recv = shmem_malloc(WORDS * sizeof(uint64_t));
    uint64_t *ctr       = shmem_malloc(sizeof(uint64_t));
    long     *locked    = shmem_malloc(sizeof(long));
    long     *red_src   = shmem_malloc(RED_N * sizeof(long));
    long     *red_dst   = shmem_malloc(RED_N * sizeof(long));
    long     *bc        = shmem_malloc(BC_N * sizeof(long));
    long     *bc_src    = shmem_malloc(BC_N * sizeof(long));
    long     *a2a_src   = shmem_malloc((size_t)n * A2A_N * sizeof(long));
    long     *a2a_dst   = shmem_malloc((size_t)n * A2A_N * sizeof(long));
    long     *totals    = shmem_malloc(N_KINDS * sizeof(long));
    long     *tot_src   = shmem_malloc(N_KINDS * sizeof(long));
    CHECK(heap_recv && ctr && locked && red_src && red_dst && bc && bc_src && a2a_src && a2a_dst &&
          totals && tot_src);
    uint64_t *src  = malloc(WORDS * sizeof(uint64_t));
    uint64_t *back = malloc(WORDS * sizeof(uint64_t));
    uint64_t  expected_ctr[64] = { 0 }; /* cumulative fetch_add total per owner */
    CHECK(src && back && n <= 64);
    *ctr    = 0;
    *locked = 0;
    barrier();

    /* before any context exists: see check_perms.sh */
    hold_if_asked();
    barrier();
    shmem_ctx_t  ctx;
    shmem_team_t team = split(&ctx);

    const uint64_t per_iter_add = (uint64_t)K_AMO * (uint64_t)n * (uint64_t)(n + 1) / 2;
    long           locked_total = 0; /* on PE it % n, summed over iterations */

    pe_section("soak");
    for (long it = 0; it < iters; it++) {
        if (it > 0 && it % RESPLIT == 0) {
            shmem_ctx_destroy(ctx);
            shmem_team_destroy(team);
            team = split(&ctx);
        }
        const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);

        /* RMA out: heap with blocking puts, static data with put_nbi. */
        for (size_t i = 0; i < WORDS; i++) src[i] = word(it, me, i);
        for (int s = 0; s < 3; s++) {
            shmem_putmem(heap_recv + offs[s], src + offs[s], sizes[s] * sizeof(uint64_t), right);
            shmem_uint64_put_nbi(st_recv + offs[s], src + offs[s], sizes[s], right);
            counts[N_PUT]++;
            counts[N_NBI]++;
            counts[N_BYTES] += 2 * (long)(sizes[s] * sizeof(uint64_t));
        }
        shmem_quiet();
        barrier();
        check_words(heap_recv, it, left, "heap put");
        check_words(st_recv, it, left, "static put_nbi");

        /* RMA back: right's heap holds what I sent (blocking gets); the
         * static data of my team-left neighbour what its world-left sent
         * (get_nbi on the team's context, whose PE numbers are the
         * team's). */
        memset(back, 0, WORDS * sizeof(uint64_t));
        for (int s = 0; s < 3; s++) {
            shmem_getmem(back + offs[s], heap_recv + offs[s], sizes[s] * sizeof(uint64_t), right);
            counts[N_GET]++;
        }
        check_words(back, it, me, "heap get");
        const int tleft  = (tme + tn - 1) % tn;
        const int tleftw = shmem_team_translate_pe(team, tleft, SHMEM_TEAM_WORLD);
        CHECK_EQ(tleftw, tleft * 2 + me % 2);
        memset(back, 0, WORDS * sizeof(uint64_t));
        for (int s = 0; s < 3; s++) {
            shmem_ctx_uint64_get_nbi(ctx, back + offs[s], st_recv + offs[s], sizes[s], tleft);
            counts[N_GET]++;
            counts[N_NBI]++;
            counts[N_BYTES] += 2 * (long)(sizes[s] * sizeof(uint64_t));
        }
        shmem_ctx_quiet(ctx);
        check_words(back, it, (tleftw + n - 1) % n, "static get_nbi on the team context");

        /* Atomics: contention on one owner's heap counter, and one inc on
         * every PE's static counter. */
        const int owner = (int)(it % n);
        expected_ctr[owner] += per_iter_add;
        for (int k = 0; k < K_AMO; k++) {
            uint64_t old = shmem_uint64_atomic_fetch_add(ctr, (uint64_t)me + 1, owner);
            CHECK_MSG(old < expected_ctr[owner], "iteration %ld: fetch_add returned %" PRIu64
                      ", the final total is %" PRIu64, it, old, expected_ctr[owner]);
            counts[N_AMO]++;
        }
        for (int p = 0; p < n; p++) {
            shmem_uint64_atomic_inc(&st_ctr, p);
            counts[N_AMO]++;
        }

        /* A lock-protected read-modify-write on the owner's heap word. */
        shmem_set_lock(&st_lock);
        long v = shmem_long_g(locked, owner);
        shmem_long_p(locked, v + me + 1, owner);
        shmem_quiet();
        shmem_clear_lock(&st_lock);
        counts[N_LOCK]++;
        locked_total = (long)n * (n + 1) / 2;
        barrier();
        CHECK_EQ(shmem_uint64_atomic_fetch(ctr, owner), expected_ctr[owner]);
        CHECK_EQ(shmem_uint64_atomic_fetch(&st_ctr, me), (uint64_t)(it + 1) * (uint64_t)n);
        counts[N_AMO] += 2;
        /* the locked word of each owner grows by locked_total per turn */
        CHECK_EQ(shmem_long_g(locked, owner), (it / n + 1) * locked_total);

        /* put_signal: data then signal to the right; wait for mine. */
        for (size_t i = 0; i < SIGN; i++) src[i] = word(it, me, i);
        shmem_uint64_put_signal(sig_buf, src, SIGN, &sig_flag, (uint64_t)it + 1,
                                SHMEM_SIGNAL_SET, right);
        counts[N_SIGNAL]++;
        counts[N_BYTES] += SIGN * sizeof(uint64_t);
        shmem_signal_wait_until(&sig_flag, SHMEM_CMP_EQ, (uint64_t)it + 1);
        for (size_t i = 0; i < SIGN; i++) {
            if (sig_buf[i] != word(it, left, i)) {
                CHECK_MSG(0, "iteration %ld: signalled word %zu = 0x%" PRIx64 ", expected 0x%"
                          PRIx64, it, i, sig_buf[i], word(it, left, i));
            }
        }

        /* Collectives on my half. */
        for (int i = 0; i < RED_N; i++) red_src[i] = (long)(it * 1000 + tme * 7 + i);
        CHECK_EQ(shmem_long_sum_reduce(team, red_dst, red_src, RED_N), 0);
        counts[N_REDUCE]++;
        for (int i = 0; i < RED_N; i++) {
            long want = (long)tn * (it * 1000 + i) + 7L * tn * (tn - 1) / 2;
            if (red_dst[i] != want) {
                CHECK_MSG(0, "iteration %ld: sum_reduce[%d] = %ld, expected %ld", it, i,
                          red_dst[i], want);
            }
        }
        const int root = (int)(it % tn);
        for (int i = 0; i < BC_N; i++) {
            bc_src[i] = tme == root ? (long)(it * 100000 + i) : -2;
            bc[i]     = -1;
        }
        CHECK_EQ(shmem_long_broadcast(team, bc, bc_src, BC_N, root), 0);
        counts[N_BCAST]++;
        for (int i = 0; i < BC_N; i++) {
            if (bc[i] != (long)(it * 100000 + i)) {
                CHECK_MSG(0, "iteration %ld: broadcast[%d] = %ld from root %d", it, i, bc[i],
                          root);
            }
        }
        for (int p = 0; p < tn; p++)
            for (int i = 0; i < A2A_N; i++)
                a2a_src[p * A2A_N + i] = (long)(it << 20) + tme * 1000 + p * 100 + i;
        CHECK_EQ(shmem_long_alltoall(team, a2a_dst, a2a_src, A2A_N), 0);
        counts[N_A2A]++;
        for (int p = 0; p < tn; p++) {
            for (int i = 0; i < A2A_N; i++) {
                long want = (long)(it << 20) + p * 1000 + tme * 100 + i;
                if (a2a_dst[p * A2A_N + i] != want) {
                    CHECK_MSG(0, "iteration %ld: alltoall block %d word %d = %ld, expected %ld",
                              it, p, i, a2a_dst[p * A2A_N + i], want);
                }
            }
        }
        /* nobody writes into this iteration's buffers before all have
         * checked them */
        barrier();
    }

    pe_section("totals");
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(team);
    memcpy(tot_src, counts, sizeof(counts));
    CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, totals, tot_src, N_KINDS), 0);
    if (me == 0) {
        printf("soak: %ld iterations on %d PEs:", iters, n);
        for (int k = 0; k < N_KINDS; k++) printf(" %s=%ld", kind_names[k], totals[k]);
        printf("\n");
        fflush(stdout);
    }
    /* Every PE did the same count of each kind. */
    for (int k = 0; k < N_KINDS; k++) CHECK_EQ(totals[k], counts[k] * n);

    free(src);
    free(back);
    shmem_free(heap_recv);
    shmem_free(ctr);
    shmem_free(locked);
    shmem_free(red_src);
    shmem_free(red_dst);
    shmem_free(bc);
    shmem_free(bc_src);
    shmem_free(a2a_src);
    shmem_free(a2a_dst);
    shmem_free(totals);
    shmem_free(tot_src);
    return pe_test_finish();
}
