/*
 * A reduction whose pWrk is shorter than the spec's
 * max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements, as some
 * published examples declare it (SHMEM_REDUCE_SYNC_SIZE longs): the library
 * runs it, with the right result, and writes nothing past pWrk's end.
 *
 * pWrk is placed at the very end of the symmetric heap, so the shortfall is
 * visible to the library. With PE_TEST_THREAD=multiple the library runs at
 * SHMEM_THREAD_MULTIPLE, where pWrk itself is the receive buffer.
 */
#include "pe_test.h"

#include <stdint.h>

#define HEAP_SIZE  ((uintptr_t)4 << 20) /* SHMEM_SYMMETRIC_SIZE */
#define HEAP_ALIGN ((uintptr_t)2 << 20) /* the heap base's alignment */
#define NREDUCE    1000                 /* the spec would ask for 501 elements */

static long psync[SHMEM_REDUCE_SYNC_SIZE];

int main(void)
{
    pe_test_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;

    int      me = shmem_my_pe(), n = shmem_n_pes();
    long    *src  = shmem_malloc(NREDUCE * sizeof(long));
    long    *dest = shmem_malloc(NREDUCE * sizeof(long));
    uintptr_t end = ((uintptr_t)src & ~(HEAP_ALIGN - 1)) + HEAP_SIZE;
    long    *pwrk = (long *)end - SHMEM_REDUCE_SYNC_SIZE;
    CHECK(src != NULL && dest != NULL);

    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NREDUCE; i++) src[i] = (long)(me + 1) * (i + round);
        shmem_barrier_all();
        shmem_long_sum_to_all(dest, src, NREDUCE, 0, 0, n, pwrk, psync);
        for (int i = 0; i < NREDUCE; i++)
            CHECK_EQ(dest[i], (long)n * (n + 1) / 2 * (i + round));
        shmem_barrier_all();
    }
    /* int elements too: pWrk's bytes are then fewer elements' worth */
    int *isrc = (int *)src, *idest = (int *)dest;
    for (int i = 0; i < NREDUCE; i++) isrc[i] = me == 0 ? i : -i;
    shmem_barrier_all();
    shmem_int_max_to_all(idest, isrc, NREDUCE, 0, 0, n, (int *)pwrk, psync);
    for (int i = 0; i < NREDUCE; i++) CHECK_EQ(idest[i], i);

    shmem_free(dest);
    shmem_free(src);
    return pe_test_finish();
}
