/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_broadcast_example.c:
 * in its 1.5/1.6 form (team-based shmem_broadcast; older copies of the
 * file use the active-set shmem_broadcast64): PE 0's four longs are
 * broadcast over SHMEM_TEAM_WORLD and every PE, the root included, prints
 * 0, 1, 2, 3.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static long source[4], dest[4];

  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  (void)npes; /* unused in the spec's code: -Werror=unused-variable */

  if (me == 0)
    for (int i = 0; i < 4; i++)
      source[i] = i;

  shmem_broadcast(SHMEM_TEAM_WORLD, dest, source, 4, 0);
  printf("%d: %ld, %ld, %ld, %ld\n", me, dest[0], dest[1], dest[2], dest[3]);
  shmem_finalize();
  return 0;
}
