/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_finc_example.c:
 * the deprecated (1.4) fetch-and-increment: PE 0 increments dst (22) on PE 1
 * and fetches 22; PE 1 prints dst = 23. It calls the C11 generic shmem_finc,
 * as the spec does. As in the spec, main returns without calling
 * shmem_finalize. Needs 2 PEs.
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
    old = shmem_finc(&dst, 1);

  shmem_barrier_all();
  printf("%d: old = %d, dst = %d\n", me, old, dst);
  return 0;
}
