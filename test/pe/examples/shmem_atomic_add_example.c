/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_atomic_add_example.c:
 * every PE sets dst to 22; PE 1 atomically adds 44 to dst on PE 0, so
 * after the barrier PE 0 prints 66 and every other PE 22. Needs 2 PEs.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  int me;
  static int dst;

  shmem_init();
  me = shmem_my_pe();

  dst = 22;
  shmem_barrier_all();

  if (me == 1) {
    shmem_atomic_add(&dst, 44, 0);
  }
  shmem_barrier_all();
  printf("%d: dst = %d\n", me, dst);
  shmem_finalize();
  return 0;
}
