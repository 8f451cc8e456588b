/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_wait_until_all.c:
 * every PE sets its flag on every PE with an atomic set, then waits until all
 * npes flags equal 1 (status NULL: all included). Added for the test: each
 * PE counts the flags that hold 1 after the wait and prints one line.
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
  shmem_init();
  int mype = shmem_my_pe();
  int npes = shmem_n_pes();

  int *flags = shmem_calloc(npes, sizeof(int));
  int *status = NULL;

  for (int i = 0; i < npes; i++)
      shmem_atomic_set(&flags[mype], 1, i);

  shmem_wait_until_all(flags, npes, status, SHMEM_CMP_EQ, 1);

  /* added */
  int nset = 0;
  for (int i = 0; i < npes; i++)
      nset += flags[i] == 1;
  printf("PE %d: %d of %d flags set\n", mype, nset, npes);

  shmem_free(flags);
  shmem_finalize();
  return 0;
}
