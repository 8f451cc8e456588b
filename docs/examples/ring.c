/*
 * ring.c: each PE sends its number to its right neighbour with a put,
 * everyone adds to a counter on PE 0 with an atomic, and PE 0 reports.
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

    shmem_int_p(inbox, me, (me + 1) % npes);      /* put my number to the right */
    shmem_long_atomic_add(&counter, me + 1, 0);    /* add me+1 on PE 0 */
    shmem_barrier_all();

    printf("PE %d of %d: my left neighbour is PE %d\n", me, npes, *inbox);
    shmem_barrier_all();
    if (me == 0) {
        long expect = (long)npes * (npes + 1) / 2;
        printf("PE 0: counter = %ld (1 + 2 + ... + %d = %ld): %s\n", counter, npes, expect,
               counter == expect ? "correct" : "WRONG");
    }

    int ok = *inbox == (me + npes - 1) % npes && (me != 0 || counter == (long)npes * (npes + 1) / 2);
    shmem_free(inbox);
    shmem_finalize();
    return ok ? 0 : 1;
}
