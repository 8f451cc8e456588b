/*
 * Follows the OpenSHMEM 1.6 specification's
 * example_code/shmem_test_any_example.c: every PE sets its flag on every PE,
 * and each PE polls with shmem_test_any, masking each completed flag in
 * status, until all npes have arrived. Added for the test: each PE prints
 * how many it completed and how many flags hold 1.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
  shmem_init();
  int mype = shmem_my_pe();
  int npes = shmem_n_pes();

  int *flags = shmem_calloc(npes, sizeof(int));
  int *status = calloc(npes, sizeof(int));

  for (int i = 0; i < npes; i++)
      shmem_atomic_set(&flags[mype], 1, i);

  int ncompleted = 0;
  size_t completed_idx;

  while (ncompleted < npes) {
      completed_idx = shmem_test_any(flags, npes, status, SHMEM_CMP_EQ, 1);
      if (completed_idx != SIZE_MAX) {
          ncompleted++;
          status[completed_idx] = 1;
      } else {
          /* Overlap some computation here */
      }
  }

  /* added */
  int nset = 0, nmasked = 0;
  for (int i = 0; i < npes; i++) {
      nset += flags[i] == 1;
      nmasked += status[i] == 1;
  }
  printf("PE %d: completed %d, flags set %d, masked %d\n", mype, ncompleted, nset, nmasked);

  free(status);
  shmem_free(flags);
  shmem_finalize();
  return 0;
}
