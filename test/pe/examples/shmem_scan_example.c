/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_scan_example.c:
 * collect_at gathers variable-sized blocks from every PE of a team at
 * one PE, each placed at the offset given by an exclusive sum scan
 * (shmem_sum_exscan) of the block sizes. The spec gives only the function;
 * added for the test: a main in which PE p sends p + 1 ints of value p to
 * PE 0, which prints what it gathered (p repeated p + 1 times, in PE
 * order). <stdint.h> is added for uintptr_t.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int collect_at(shmem_team_t team, void *dest, const void *source,
               size_t nbytes, int who) {
  static size_t sym_nbytes;
  sym_nbytes = nbytes;
  shmem_team_sync(team);
  int rc = shmem_sum_exscan(team, &sym_nbytes, &sym_nbytes, 1);
  shmem_putmem((void *)((uintptr_t)dest + sym_nbytes), source, nbytes, who);
  shmem_quiet();
  shmem_team_sync(team);
  return rc;
}

/* added */
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int total = npes * (npes + 1) / 2;
  int *dest = shmem_calloc(total, sizeof(int));
  int source[64];
  for (int i = 0; i <= me; i++)
    source[i] = me;
  int rc = collect_at(SHMEM_TEAM_WORLD, dest, source, (me + 1) * sizeof(int), 0);
  if (rc != 0)
    printf("%d: collect_at returned %d\n", me, rc);
  if (me == 0) {
    printf("0: gathered");
    for (int i = 0; i < total; i++)
      printf(" %d", dest[i]);
    printf("\n");
  }
  shmem_free(dest);
  shmem_finalize();
  return 0;
}
