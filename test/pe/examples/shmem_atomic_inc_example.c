/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_atomic_inc_example.c:
 * PE 0 atomically increments dst (74) on PE 1: PE 1 prints 75, every other
 * PE 74. Needs 2 PEs.
 */
#include <shmem.h>
#include <stdio.h>

int dst;

int main(void) {
  int me;

  shmem_init();
  me = shmem_my_pe();

  dst = 74;
  shmem_barrier_all();

  if (me == 0)
    shmem_atomic_inc(&dst, 1);
  shmem_barrier_all();

  printf("%d: dst = %d\n", me, dst);
  shmem_finalize();
  return 0;
}
