/*
 * ring.c: each PE puts its number into its right neighbour's inbox, every
 * PE adds to a counter on PE 0 with an atomic, and PE 0 reads everyone's
 * inbox back and reports.
 *
 *   oshcc ring.c -o ring && oshrun -n 4 ./ring
 */
#include <shmem.h>
#include <stdio.h>

static long counter; /* symmetric: a global variable */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();

    int *inbox = shmem_malloc(sizeof(int)); /* symmetric: from the heap */
    *inbox = -1;
    shmem_barrier_all();

    shmem_int_p(inbox, me, (me + 1) % npes);   /* put my number to the right */
    shmem_long_atomic_add(&counter, me + 1, 0); /* add me+1 to PE 0's counter */
    shmem_barrier_all();

    int ok = 1;
    if (me == 0) {
        for (int pe = 0; pe < npes; pe++) {
            int got = shmem_int_g(inbox, pe); /* read PE pe's inbox */
            printf("PE %d of %d: inbox holds %d (from its left neighbour)\n", pe, npes, got);
            ok &= got == (pe + npes - 1) % npes;
        }
        long expect = (long)npes * (npes + 1) / 2;
        printf("PE 0: counter = %ld (1 + 2 + ... + %d = %ld)\n", counter, npes, expect);
        ok &= counter == expect;
        printf("%s\n", ok ? "ring: correct" : "ring: WRONG");
    }

    shmem_free(inbox);
    shmem_finalize();
    return ok ? 0 : 1;
}
