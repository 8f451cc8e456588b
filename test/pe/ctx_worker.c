/*
 * Contexts with workers of their own: RMA and atomics through created
 * contexts of every option, on static data and on the heap, crossing
 * between PEs at the same time (each PE blocked on its own context while
 * a peer's context needs it to serve); quiet, pe_quiet and fence acting on
 * one context; destroy completing outstanding operations; and a context left
 * for shmem_finalize to destroy.
 */
#include "pe_test.h"

#define N      64
#define ROUNDS 200

static long     inbox[N];      /* static data: through UCX with SHMEM_SHARE_STATIC=0 */
static long     counter;
static long     flag;
static uint64_t seen;

static void exercise(shmem_ctx_t ctx, long *heap_box, long tag)
{
    const int me = pe_me, n = pe_npes, right = (me + 1) % n, left = (me + n - 1) % n;
    long      src[N], got[N];

    for (int r = 0; r < ROUNDS; r++) {
        long v = tag * 100000 + (long)r * 10 + me;
        for (int i = 0; i < N; i++) src[i] = v + i;
        /* Blocking get and fetch-add on the right neighbour while the left
         * one does the same to us. */
        shmem_ctx_long_get(ctx, got, inbox, 1, right);
        (void)shmem_ctx_long_atomic_fetch_add(ctx, &counter, 1, right);
        shmem_ctx_long_put_nbi(ctx, heap_box, src, N, right);
        shmem_ctx_long_atomic_add(ctx, &counter, 1, left);
    }
    shmem_ctx_quiet(ctx);
    (void)got;
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, n = pe_npes, right = (me + 1) % n, left = (me + n - 1) % n;
    long     *heap_box = shmem_calloc(N, sizeof(long));
    CHECK(heap_box != NULL);

    static const long options[] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED,
                                    SHMEM_CTX_NOSTORE,
                                    SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED };
    const int nopt = (int)(sizeof(options) / sizeof(options[0]));

    pe_section("crossing traffic on created contexts");
    for (int k = 0; k < nopt; k++) {
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        CHECK_EQ(shmem_ctx_create(options[k], &ctx), 0);
        CHECK(ctx != SHMEM_CTX_INVALID);
        counter = 0;
        shmem_barrier_all();
        exercise(ctx, heap_box, k + 1);
        shmem_barrier_all();
        /* ROUNDS fetch-adds from the left neighbour, ROUNDS adds from the
         * right one (the same PE when n == 2, itself when n == 1). */
        CHECK_EQ(counter, 2L * ROUNDS);
        long last = (long)(k + 1) * 100000 + (long)(ROUNDS - 1) * 10 + left;
        for (int i = 0; i < N; i++) CHECK_EQ(heap_box[i], last + i);
        shmem_ctx_destroy(ctx);
        shmem_barrier_all();
    }

    pe_section("quiet and pe_quiet on a context complete its puts");
    shmem_ctx_t a = SHMEM_CTX_INVALID, b = SHMEM_CTX_INVALID;
    CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &a), 0);
    CHECK_EQ(shmem_ctx_create(0, &b), 0);
    for (int r = 1; r <= 20; r++) {
        long src[N];
        for (int i = 0; i < N; i++) src[i] = r * 1000 + i;
        shmem_ctx_long_put_nbi(a, inbox, src, N, right);
        if (r % 2)
            shmem_ctx_quiet(a);
        else
            shmem_ctx_pe_quiet(a, &right, 1); /* 1.6: only the PEs named */
        /* The flag goes through another context: only a's quiet orders
         * the data before it. */
        shmem_ctx_long_atomic_set(b, &flag, r, right);
        shmem_ctx_quiet(b);
        shmem_long_wait_until(&flag, SHMEM_CMP_GE, r);
        for (int i = 0; i < N; i++) CHECK_EQ(inbox[i], r * 1000L + i);
        shmem_barrier_all();
    }

    pe_section("fence on a context orders its puts");
    flag = 0;
    shmem_barrier_all();
    for (int r = 1; r <= 20; r++) {
        long src[N];
        for (int i = 0; i < N; i++) src[i] = r * 77 + i;
        shmem_ctx_long_put(a, heap_box, src, N, right);
        shmem_ctx_fence(a);
        shmem_ctx_long_atomic_set(a, &flag, r, right);
        shmem_long_wait_until(&flag, SHMEM_CMP_GE, r);
        for (int i = 0; i < N; i++) CHECK_EQ(heap_box[i], r * 77L + i);
        shmem_barrier_all();
    }

    pe_section("destroy completes outstanding operations");
    for (int i = 0; i < N; i++) heap_box[i] = 0;
    shmem_barrier_all();
    long src[N];
    for (int i = 0; i < N; i++) src[i] = -1 - i - me;
    shmem_ctx_long_put_nbi(b, heap_box, src, N, right);
    shmem_ctx_uint64_atomic_add(b, &seen, 1, left);
    shmem_ctx_destroy(b);
    shmem_barrier_all();
    for (int i = 0; i < N; i++) CHECK_EQ(heap_box[i], -1L - i - left);
    CHECK_EQ(seen, (uint64_t)1); /* from the right neighbour (itself on 1 PE) */

    pe_section("contexts after destroys");
    shmem_ctx_t c[8];
    for (int k = 0; k < 8; k++) CHECK_EQ(shmem_ctx_create(k % 2 ? SHMEM_CTX_PRIVATE : 0, &c[k]), 0);
    for (int k = 0; k < 8; k++) shmem_ctx_long_atomic_inc(c[k], &counter, right);
    for (int k = 0; k < 8; k++) shmem_ctx_destroy(c[k]);
    shmem_barrier_all();
    CHECK_EQ(counter, 2L * ROUNDS + 8);

    /* a is left alive, with an operation outstanding: shmem_finalize
     * destroys it. */
    shmem_ctx_long_atomic_inc(a, &flag, right);
    shmem_free(heap_box);
    return pe_test_finish();
}
