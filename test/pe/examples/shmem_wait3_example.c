/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_wait3_example.c,
 * which is only the function wait_on_ivar(): wait until the symmetric int
 * ivar becomes negative. Added for the test, since the spec gives no main:
 * each PE's left neighbour stores -(left + 1) into its ivar after a short
 * delay (so the wait really waits), and each PE prints what it received.
 */
#include <stdio.h>
#include <shmem.h>
#include <unistd.h>

int ivar;

void wait_on_ivar(void) {
    shmem_int_wait_until(&ivar, SHMEM_CMP_LT, 0);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    shmem_barrier_all();
    usleep(1000);
    shmem_int_atomic_set(&ivar, -(me + 1), (me + 1) % npes);
    wait_on_ivar();
    printf("PE %d: ivar %d\n", me, ivar);
    shmem_finalize();
    return 0;
}
