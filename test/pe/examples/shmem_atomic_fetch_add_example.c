/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_atomic_fetch_add_example.c:
 * PE 1 atomically adds 44 to dst (22) on PE 0 and fetches the old value:
 * PE 1 prints old = 22, PE 0 dst = 66. Needs 2 PEs.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  int me, old;
  static int dst;

  shmem_init();
  me = shmem_my_pe();

  old = -1;
  dst = 22;
  shmem_barrier_all();

  if (me == 1) {
    old = shmem_atomic_fetch_add(&dst, 44, 0);
  }
  shmem_barrier_all();
  printf("%d: old = %d, dst = %d\n", me, old, dst);
  shmem_finalize();
  return 0;
}
