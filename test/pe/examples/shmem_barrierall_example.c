/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_barrierall_example.c:
 * every PE puts 4 into x on the next PE (circularly) with shmem_p; after
 * shmem_barrier_all every PE prints 4.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int x = 1010;

  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();

  /* put to next  PE in a circular fashion */
  shmem_p(&x, 4, (me + 1) % npes);

  /* synchronize all PEs */
  shmem_barrier_all();
  printf("%d: x = %d\n", me, x);
  shmem_finalize();
  return 0;
}
