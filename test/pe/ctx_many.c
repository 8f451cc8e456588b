/*
 * Many contexts per PE: NCTX created contexts on every PE at
 * once, with the open-file limit only FD_ROOM above what the PE holds
 * after shmem_init (a node's share per PE when 128 PEs run on it). A UCX
 * worker per context, about ten descriptors and (then) two System V
 * segments each, ran out after a dozen contexts; every creation must now
 * succeed, every context must work, and the lot must cost a bounded
 * number of descriptors, all given back when the contexts go, and no
 * System V segment at all (unless the user picked UCX's sysv transport).
 *
 * Each context does its own blocking put and get, non-blocking put
 * completed by its own quiet, fetching and non-fetching atomics, and a
 * fence-ordered put then flag, on static data (through UCX with
 * SHMEM_SHARE_STATIC=0) and on the heap, to the right-hand neighbour; the
 * left-hand one's values are checked after a barrier.
 */
#include "ctx_res.h"

#define NCTX    512
#define FD_ROOM 128

static long sbox[NCTX];   /* static: one slot per context */
static long sflag[NCTX];
static long scount;

static long value(int pe, int i, int k)
{
    return (long)pe * 1000000L + (long)i * 10 + k + 1;
}

int main(void)
{
    static const long options[] = { 0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED,
                                    SHMEM_CTX_NOSTORE };
    pe_test_init();
    const int me = pe_me, n = pe_npes, right = (me + 1) % n, left = (me + n - 1) % n;
    long     *hbox = shmem_calloc(NCTX, sizeof(long));
    CHECK(hbox != NULL);
    shmem_barrier_all();

    pe_section("create with the open-file limit lowered");
    const int fds0 = ctx_res_fds(), sysv0 = ctx_res_sysv();
    const rlim_t old_limit = ctx_res_set_nofile((rlim_t)fds0 + FD_ROOM);
    static shmem_ctx_t ctx[NCTX];
    for (int i = 0; i < NCTX; i++) {
        ctx[i] = SHMEM_CTX_INVALID;
        CHECK_MSG(shmem_ctx_create(options[i % 4], &ctx[i]) == 0,
                  "shmem_ctx_create of context %d of %d (%d descriptors open, limit %d)", i,
                  NCTX, ctx_res_fds(), fds0 + FD_ROOM);
        CHECK(ctx[i] != SHMEM_CTX_INVALID);
    }

    pe_section("every context moves data");
    for (int i = 0; i < NCTX; i++) {
        long v = value(me, i, 0), got = 0;
        shmem_ctx_long_put(ctx[i], &sbox[i], &v, 1, right);
        shmem_ctx_long_get(ctx[i], &got, &sbox[i], 1, right);
        CHECK_EQ(got, v);
        long h = value(me, i, 1);
        shmem_ctx_long_put_nbi(ctx[i], &hbox[i], &h, 1, right);
        shmem_ctx_quiet(ctx[i]);
        CHECK_EQ(shmem_ctx_long_atomic_fetch(ctx[i], &hbox[i], right), h);
        shmem_ctx_long_atomic_add(ctx[i], &scount, 1, right);
        (void)shmem_ctx_long_atomic_fetch_inc(ctx[i], &scount, right);
    }
    for (int i = 0; i < NCTX; i++) shmem_ctx_quiet(ctx[i]);
    shmem_barrier_all();
    CHECK_EQ(scount, 2L * NCTX);
    for (int i = 0; i < NCTX; i++) {
        CHECK_EQ(sbox[i], value(left, i, 0));
        CHECK_EQ(hbox[i], value(left, i, 1));
    }
    shmem_barrier_all();

    pe_section("fence orders a context's put before its flag");
    for (int i = 0; i < NCTX; i++) {
        long v = value(me, i, 2);
        shmem_ctx_long_put_nbi(ctx[i], &sbox[i], &v, 1, right);
        shmem_ctx_fence(ctx[i]);
        shmem_ctx_long_atomic_set(ctx[i], &sflag[i], 1, right);
    }
    for (int i = 0; i < NCTX; i++) {
        shmem_long_wait_until(&sflag[i], SHMEM_CMP_EQ, 1);
        CHECK_EQ(sbox[i], value(left, i, 2));
    }

    pe_section("what the contexts cost");
    const int fds1 = ctx_res_fds(), sysv1 = ctx_res_sysv();
    /* A handful of shared workers, not one per context. */
    if (getenv("UCX_TLS") == NULL) {
        CHECK_MSG(sysv1 == 0, "%d contexts made this PE hold %d System V segments", NCTX, sysv1);
    }
    CHECK_MSG(fds1 - fds0 <= FD_ROOM, "%d contexts opened %d descriptors", NCTX, fds1 - fds0);
    shmem_barrier_all();

    pe_section("destroy gives everything back");
    for (int i = 0; i < NCTX; i++) shmem_ctx_destroy(ctx[i]);
    CHECK_EQ(ctx_res_sysv(), sysv0);
    CHECK_EQ(ctx_res_fds(), fds0);
    ctx_res_set_nofile(old_limit);

    shmem_free(hbox);
    return pe_test_finish();
}
