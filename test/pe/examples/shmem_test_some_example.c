/*
 * Follows the OpenSHMEM 1.6 specification's
 * example_code/shmem_test_some_example.c: an all-to-all of N ints per PE
 * with put_nbi, a fence, then a flag per sender; each PE polls with
 * shmem_test_some and sums each sender's block as its flag arrives.
 * Fixed: the stored text never sets status for the senders it has summed,
 * so shmem_test_some returns them again and they are counted twice; like
 * the spec's shmem_wait_until_some_all2all_sum.c, each returned index is
 * now masked (status[indices[i]] = 1). Changed for -Wextra: ntested and the
 * loop counter are size_t (they are compared with size_t). Added for the
 * test: each PE prints its sum, which must be M(M+1)/2 with M = N*npes-1.
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
  size_t *indices = calloc(npes, sizeof(size_t));
  int *status = calloc(npes, sizeof(int));

  for (int i = 0; i < N; i++)
      my_data[i] = mype*N + i;

  for (int i = 0; i < npes; i++)
      shmem_put_nbi(&all_data[mype*N], my_data, N, i);

  shmem_fence();

  for (int i = 0; i < npes; i++)
      shmem_p(&flags[mype], 1, i);

  int ncompleted = 0;

  while (ncompleted < npes) {
      size_t ntested = shmem_test_some(flags, npes, indices, status, SHMEM_CMP_NE, 0);
      if (ntested > 0) {
          for (size_t i = 0; i < ntested; i++) {
              for (int j = 0; j < N; j++)
                  total_sum += all_data[indices[i]*N + j];
              status[indices[i]] = 1;
          }
          ncompleted += ntested;
      } else {
          /* Overlap some computation here */
      }
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
