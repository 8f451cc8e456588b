/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_fadd_example.c:
 * the deprecated (1.4) fetch-and-add: PE 1 adds 44 to dst (statically 22) on
 * PE 0 right after shmem_init and fetches 22; after the barrier PE 0 prints
 * dst = 66. It calls the C11 generic shmem_fadd, as the spec does. Needs 2
 * PEs.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  int old = -1;
  static int dst = 22;
  shmem_init();
  int me = shmem_my_pe();
  if (me == 1)
    old = shmem_fadd(&dst, 44, 0);
  shmem_barrier_all();
  printf("%d: old = %d, dst = %d\n", me, old, dst);
  shmem_finalize();
  return 0;
}
