/* Compiles against every installed public header and links the symbols a
 * first OpenSHMEM program uses. unit_install runs it as one PE, with no
 * LD_LIBRARY_PATH: it must print exactly "PE 0 of 1". */
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
#include <mpp/shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    long *x = shmem_malloc(sizeof(long));
    shmem_long_p(x, shmem_my_pe(), (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_barrier_all();
    printf("PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    shmem_free(x);
    shmem_finalize();
    return 0;
}
