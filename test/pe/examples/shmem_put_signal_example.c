/*
 * Follows the OpenSHMEM 1.6 specification's
 * example_code/shmem_put_signal_example.c: PE 0 sends a message to PE 1
 * with a put-with-signal, and each other PE waits for the signal and
 * forwards what it received to its right neighbour the same way.
 * Changed for -Wextra: the loop counter is size_t (compared with size_t);
 * <stdint.h> is included for uint64_t. Added for the test: PE 0's message
 * is 1000 + its PE number instead of 0, so a forwarded copy is told apart
 * from the zeroed buffer, and every PE but 0 prints its signal and how
 * many words of the message it received intact.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t i;

  shmem_init();

  size_t size = 2048;
  int mype = shmem_my_pe();
  int n = shmem_n_pes();
  int pe = (mype + 1) % n;
  uint64_t *message = malloc(size * sizeof(uint64_t));
  static uint64_t sig_addr = 0;

  for (i = 0; i < size; i++) {
    message[i] = 1000 + mype;
  }

  uint64_t *data = shmem_calloc(size, sizeof(uint64_t));

  if (mype == 0) {
    shmem_put_signal(data, message, size, &sig_addr, 1, SHMEM_SIGNAL_SET, pe);
  }
  else {
    shmem_wait_until(&sig_addr, SHMEM_CMP_EQ, 1);
    shmem_put_signal(data, data, size, &sig_addr, 1, SHMEM_SIGNAL_SET, pe);
    /* added */
    size_t good = 0;
    for (i = 0; i < size; i++)
      good += data[i] == 1000;
    printf("PE %d: signal %d, %zu of %zu words from PE 0\n", mype, (int)sig_addr, good, size);
  }

  free(message);
  shmem_free(data);

  shmem_finalize();
  return 0;
}
