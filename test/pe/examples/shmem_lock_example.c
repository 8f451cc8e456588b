/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_lock_example.c:
 * every PE, holding the lock, reads the counter on PE 0, prints it, and
 * writes it back incremented. Under mutual exclusion the printed counts are
 * 0 .. npes-1, each exactly once (in any order).
 */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
   static long lock = 0;
   static int count = 0;
   shmem_init();
   int me = shmem_my_pe();
   shmem_set_lock(&lock);
   int val = shmem_g(&count, 0); /* get count value on PE 0 */
   printf("%d: count is %d\n", me, val);
   val++; /* incrementing and updating count on PE 0 */
   shmem_p(&count, val, 0);
   shmem_clear_lock(&lock); /* ensures count update has completed before clearing the lock */
   shmem_finalize();
   return 0;
}
