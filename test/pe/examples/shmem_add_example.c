/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_add_example.c:
 * the deprecated (1.4) add: PE 1 adds 44 to dst (22) on PE 0, so PE 0 prints
 * dst = 66. The spec's file calls the C11 generic shmem_fadd (its text is a
 * copy of the fadd example); this test calls the routine it is named after,
 * the C11 generic shmem_add, which returns nothing, so old stays -1. Needs 2
 * PEs.
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
    shmem_add(&dst, 44, 0);
  }
  shmem_barrier_all();
  printf("%d: old = %d, dst = %d\n", me, old, dst);
  shmem_finalize();
  return 0;
}
