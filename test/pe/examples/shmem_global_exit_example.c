/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_global_exit_example.c:
 * PE 0 needs input.txt and, when it cannot open it, ends the whole
 * program with shmem_global_exit(EXIT_FAILURE) while the other PEs wait in
 * shmem_finalize. The test runs where no input.txt exists, so the launcher
 * must exit with status EXIT_FAILURE (1) and no PE prints anything. Change:
 * npes, set but never used in the spec's code, is cast to void
 * (-Werror=unused-but-set-variable).
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int me, npes;

  shmem_init();

  me = shmem_my_pe();
  npes = shmem_n_pes();
  (void)npes;

  if (me == 0) {
    FILE *fp = fopen("input.txt", "r");

    if (fp == NULL) { /* Input file required by program is not available */
      shmem_global_exit(EXIT_FAILURE);
    }

    /* do something with the file */

    fclose(fp);
  }

  shmem_finalize();
  return 0;
}
