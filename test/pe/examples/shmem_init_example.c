/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_init_example.c:
 * PE 0 puts 33 into targ on PE 1 (on itself when alone); after the
 * barrier the receiver prints it.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int targ = 0;

  shmem_init();
  int me = shmem_my_pe();
  int receiver = 1 % shmem_n_pes();

  if (me == 0) {
    int src = 33;
    shmem_put(&targ, &src, 1, receiver);
  }

  shmem_barrier_all(); /* Synchronizes sender and receiver */

  if (me == receiver)
    printf("PE %d targ=%d (expect 33)\n", me, targ);

  shmem_finalize();
  return 0;
}
