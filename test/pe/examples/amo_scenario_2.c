/*
 * Follows the OpenSHMEM 1.6 specification's example_code/amo_scenario_2.c:
 * PE 0 ORs into x on PE 0 as a 64-bit word, the others as a 32-bit word:
 * atomics of different types on one location.
 * The spec shows it as undefined behaviour (no defined result), so the test
 * only checks that every PE gets through it: the added line says so.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  static uint64_t x = 0;

  shmem_init();
  /* Undefined behavior: The following AMOs access the same location
   * concurrently using different types. */
  if (shmem_my_pe() > 0)
    shmem_uint32_atomic_or((uint32_t *)&x, shmem_my_pe() + 1, 0);
  else
    shmem_uint64_atomic_or(&x, shmem_my_pe() + 1, 0);

  printf("PE %d: done\n", shmem_my_pe()); /* added */
  shmem_finalize();
  return 0;
}
