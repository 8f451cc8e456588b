/*
 * Follows the OpenSHMEM 1.6 specification's example_code/hello-openshmem.c:
 * every PE says hello with its number and the number of PEs. Change: the
 * unused argc and argv of main are cast to void (-Werror=unused-parameter).
 */
#include <shmem.h> /* The shmem header file */
#include <stdio.h>

int main(int argc, char *argv[]) {
  int nprocs, me;
  (void)argc;
  (void)argv;

  shmem_init();
  nprocs = shmem_n_pes();
  me = shmem_my_pe();
  printf("Hello from %d of %d\n", me, nprocs);
  shmem_finalize();
  return 0;
}
