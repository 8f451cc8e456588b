/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_atomic_compare_swap_example.c:
 * every PE tries to swap its number into race_winner on PE 0 if it still
 * holds -1; exactly one PE wins and prints that it was first.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int race_winner = -1;
  int oldval;
  shmem_init();
  oldval = shmem_atomic_compare_swap(&race_winner, -1, shmem_my_pe(), 0);
  if (oldval == -1)
    printf("pe %d was first\n", shmem_my_pe());
  shmem_finalize();
  return 0;
}
