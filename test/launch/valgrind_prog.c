/*
 * A small but complete 2-PE life for check_valgrind.sh: init, puts, gets,
 * atomics, a barrier, a context created and destroyed, a heap allocation
 * freed, finalize. Every result is checked, so a run that passes valgrind
 * also did the work; exit status 0 only when all of it was right.
 */
#include <shmem.h>
#include <stdio.h>

static long target[16];

int main(void)
{
    int bad = 0;

    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), peer = (me + 1) % npes;

    long src[16], got[16];
    for (int i = 0; i < 16; i++) src[i] = me * 100 + i;
    shmem_long_put(target, src, 16, peer);
    shmem_barrier_all();
    int from = (me + npes - 1) % npes;
    for (int i = 0; i < 16; i++) bad += target[i] != from * 100 + i;

    shmem_long_get(got, target, 16, peer);
    for (int i = 0; i < 16; i++) bad += got[i] != me * 100 + i;

    long *counter = shmem_malloc(sizeof(long));
    *counter = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(counter, 1, 0);
    long old = shmem_long_atomic_fetch_inc(counter, 0);
    (void)old;
    shmem_barrier_all();
    if (me == 0) bad += *counter != 2L * npes;

    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0) {
        shmem_ctx_long_p(ctx, counter, me, peer);
        shmem_ctx_quiet(ctx);
        shmem_ctx_destroy(ctx);
    } else {
        bad++;
    }
    shmem_barrier_all();
    bad += *counter != from;
    shmem_free(counter);

    shmem_finalize();
    if (bad) fprintf(stderr, "PE %d: %d wrong results\n", me, bad);
    else printf("PE %d: all checks passed\n", me);
    return bad != 0;
}
