/*
 * The library's life cycle: nested shmem_init / shmem_finalize pairs (the
 * last finalize tears down), shmem_query_initialized at every stage, and
 * a full restart after shmem_finalize with RMA, atomics, a collective and
 * a created context working again, static data included.
 */
#include "pe_test.h"

static long ring[3];
static long total;

static void one_life(int life)
{
    const int me = pe_me, n = pe_npes;
    int       init = 0;

    shmem_query_initialized(&init);
    CHECK_EQ(init, 1);
    ring[0] = ring[1] = ring[2] = 0;
    total = 0;
    long *heap = shmem_malloc(sizeof(long));
    CHECK(heap != NULL);
    *heap = 0;
    shmem_barrier_all();

    long v = life * 1000L + me;
    shmem_long_p(&ring[life % 3], v, (me + 1) % n);
    shmem_long_p(heap, v, (me + 1) % n);
    shmem_long_atomic_add(&total, life, 0);

    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
    shmem_ctx_long_atomic_add(ctx, &total, 1, 0);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();

    long expect = life * 1000L + (me + n - 1) % n;
    CHECK_EQ(ring[life % 3], expect);
    CHECK_EQ(*heap, expect);
    if (me == 0) CHECK_EQ(total, (long)n * (life + 1));
    shmem_free(heap);
}

int main(void)
{
    int init = -1;
    shmem_query_initialized(&init);
    if (init != 0) {
        fprintf(stderr, "shmem_query_initialized before shmem_init: %d\n", init);
        return 1;
    }

    for (int life = 1; life <= 3; life++) {
        shmem_init();
        pe_test_started();
        pe_section(life == 1 ? "first life" : "after a restart");
        one_life(life);

        pe_section("nested init and finalize");
        shmem_init();
        shmem_finalize();
        shmem_query_initialized(&init);
        CHECK_EQ(init, 1); /* one init still unmatched */
        one_life(life);

        if (life == 3) break;
        shmem_finalize();
        shmem_query_initialized(&init);
        if (init != 0) {
            fprintf(stderr, "PE %d: shmem_query_initialized after finalize: %d\n", pe_me, init);
            return 1;
        }
    }
    return pe_test_finish();
}
