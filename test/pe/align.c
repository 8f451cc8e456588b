/*
 * shmem_align beyond huge pages: every power of two up to what the heap
 * gives (a sixteenth of SHMEM_SYMMETRIC_SIZE, run here with 512M: 32 MiB)
 * returns a block aligned on every PE and symmetric (a neighbour's copy
 * is reached at the same address); the next power of two returns NULL on
 * every PE, with the heap still usable after it. SOS's shmemalign asks
 * for up to 8 MiB.
 */
#include "pe_test.h"

#define BIGGEST ((size_t)32 << 20)

int main(void)
{
    pe_test_init();
    int right = (pe_me + 1) % pe_npes;

    pe_section("alignments up to a sixteenth of the heap");
    for (size_t a = 8; a <= BIGGEST; a *= 2) {
        long *p = shmem_align(a, 3 * sizeof(long));
        CHECK_MSG(p != NULL, "shmem_align(%zu) returned NULL", a);
        CHECK_MSG((uintptr_t)p % a == 0, "shmem_align(%zu) returned %p", a, (void *)p);
        p[2] = 1000L * pe_me + (long)a % 997;
        shmem_barrier_all();
        CHECK_EQ(shmem_long_g(&p[2], right), 1000L * right + (long)a % 997);
        shmem_barrier_all();
        shmem_free(p);
    }

    pe_section("an alignment the heap cannot give");
    CHECK(shmem_align(2 * BIGGEST, 64) == NULL);
    long *q = shmem_align(4096, 64);
    CHECK(q != NULL && (uintptr_t)q % 4096 == 0);
    shmem_free(q);
    return pe_test_finish();
}
