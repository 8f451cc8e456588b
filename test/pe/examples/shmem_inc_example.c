/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_inc_example.c:
 * the deprecated (1.4) increment: PE 0 increments dst (74) on PE 1, which
 * prints 75. It calls the C11 generic shmem_inc, as the spec does. Needs 2
 * PEs.
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
    shmem_inc(&dst, 1);
  shmem_barrier_all();

  printf("%d: dst = %d\n", me, dst);
  shmem_finalize();
  return 0;
}
