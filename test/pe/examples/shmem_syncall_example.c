/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_syncall_example.c:
 * as the barrier_all example, but completes the put with shmem_quiet and
 * synchronises with shmem_sync_all; every PE prints 4.
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
  shmem_quiet();
  shmem_sync_all();
  printf("%d: x = %d\n", me, x);
  shmem_finalize();
  return 0;
}
