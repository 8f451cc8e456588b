/*
 * Follows the OpenSHMEM 1.6 specification's
 * example_code/shmem_wait_until_any_all2all_sum.c: an all-to-all of N ints
 * per PE, a fence, then a flag per sender; each PE waits for any unmasked
 * flag npes times and sums that sender's block. Added for the test: each PE
 * prints its sum, which must be M(M+1)/2 with M = N*npes-1.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100

int main(void)
{
  int total_sum = 0;

  shmem_init();
  int mype = shmem_my_pe();
  int npes = shmem_n_pes();

  int *my_data = malloc(N * sizeof(int));
  int *all_data = shmem_malloc(N * npes * sizeof(int));

  int *flags = shmem_calloc(npes, sizeof(int));
  int *status = calloc(npes, sizeof(int));

  for (int i = 0; i < N; i++)
      my_data[i] = mype*N + i;

  for (int i = 0; i < npes; i++)
      shmem_put_nbi(&all_data[mype*N], my_data, N, i);

  shmem_fence();

  for (int i = 0; i < npes; i++)
      shmem_p(&flags[mype], 1, i);

  for (int i = 0; i < npes; i++) {
      size_t completed_idx = shmem_wait_until_any(flags, npes, status, SHMEM_CMP_NE, 0);
      for (int j = 0; j < N; j++) {
          total_sum += all_data[completed_idx * N + j];
      }
      status[completed_idx] = 1;
  }

  /* check the result */
  int M = N * npes - 1;
  printf("PE %d: total_sum %d\n", mype, total_sum); /* added */
  if (total_sum != M * (M + 1) / 2) {
      shmem_global_exit(1);
  }

  shmem_finalize();
  return 0;
}
