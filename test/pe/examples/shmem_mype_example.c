/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_mype_example.c:
 * every PE prints its number.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  printf("My PE id is: %d\n", me);
  shmem_finalize();
  return 0;
}
