/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_swap_example.c:
 * the deprecated (1.4) swap: each odd PE swaps its number into dest on the
 * next PE and prints what it got back. It calls the C11 generic shmem_swap,
 * as the spec does. Run with an even number of PEs.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static long dest;
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  dest = me;
  shmem_barrier_all();
  long new_val = me;
  if (me & 1) {
    long swapped_val = shmem_swap(&dest, new_val, (me + 1) % npes);
    printf("%d: dest = %ld, swapped = %ld\n", me, dest, swapped_val);
  }
  shmem_finalize();
  return 0;
}
