/*
 * The smallest complete OpenSHMEM program: start up, say who we are, meet
 * every other PE once, shut down. It is built unchanged against ushmem and
 * against Open MPI's OSHMEM so startup.sh can time the same work on both.
 *
 * It exits non-zero if the library reports an impossible PE number, so a
 * broken start-up is not timed as a fast one.
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int me, npes;

    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    printf("hello from PE %d of %d\n", me, npes);
    /* Flush before the barrier so each PE's line is out before anyone
     * starts tearing the job down. */
    fflush(stdout);
    shmem_barrier_all();
    shmem_finalize();

    return (npes > 0 && me >= 0 && me < npes) ? 0 : 1;
}
