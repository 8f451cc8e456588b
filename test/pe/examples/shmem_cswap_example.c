/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_cswap_example.c:
 * the deprecated (1.4) conditional swap: every PE tries to put its number
 * into race_winner on PE 0 if it still holds -1; exactly one wins. It calls
 * the C11 generic shmem_cswap, as the spec does.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int race_winner = -1;
  int oldval;
  shmem_init();
  oldval = shmem_cswap(&race_winner, -1, shmem_my_pe(), 0);
  if (oldval == -1)
    printf("pe %d was first\n", shmem_my_pe());
  shmem_finalize();
  return 0;
}
