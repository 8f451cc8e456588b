/*
 * The OpenSHMEM specification's shmem_lock example (example_code/
 * shmem_lock_example.c), written as our own test: every PE increments a
 * count on PE 0 under a lock with a get and a put, and prints the value it
 * saw. Checked here: the count ends at n_pes, and the values the PEs saw
 * are 0 .. n_pes-1, each exactly once (every increment saw the one before).
 */
#include "pe_test.h"

#define MAX_PES 64

static long seen[MAX_PES]; /* on PE 0: 1 + the value each PE saw */

int main(void)
{
    static long lock  = 0;
    static int  count = 0;
    shmem_init();
    int me = shmem_my_pe();
    shmem_set_lock(&lock);
    int val = shmem_g(&count, 0); /* get count value on PE 0 */
    printf("%d: count is %d\n", me, val);
    val++; /* incrementing and updating count on PE 0 */
    shmem_p(&count, val, 0);
    shmem_clear_lock(&lock); /* ensures count update has completed before clearing the lock */

    pe_test_started();
    CHECK(pe_npes <= MAX_PES);
    shmem_long_p(&seen[me], val, 0);
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ(count, pe_npes);
        int hits[MAX_PES] = {0};
        for (int pe = 0; pe < pe_npes; pe++) {
            CHECK(seen[pe] >= 1 && seen[pe] <= pe_npes);
            hits[seen[pe] - 1]++;
        }
        for (int v = 0; v < pe_npes; v++)
            CHECK_MSG(hits[v] == 1, "%d PEs saw count %d", hits[v], v);
    }
    return pe_test_finish();
}
