/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_atomic_fetch_inc_example.c:
 * PE 0 atomically increments dst (22) on PE 1 and fetches the old value:
 * PE 0 prints old = 22, PE 1 dst = 23. Needs 2 PEs.
 */
#include <shmem.h>
#include <stdio.h>

int dst;

int main(void) {
  int me;
  int old;

  shmem_init();
  me = shmem_my_pe();

  old = -1;
  dst = 22;
  shmem_barrier_all();

  if (me == 0)
    old = shmem_atomic_fetch_inc(&dst, 1);

  shmem_barrier_all();
  printf("%d: old = %d, dst = %d\n", me, old, dst);
  shmem_finalize();
  return 0;
}
