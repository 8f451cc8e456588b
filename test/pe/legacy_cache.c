/*
 * The 1.2-era cache routines through <mpp/shmem.h>: each must exist, link
 * and leave memory and communication untouched (they are no-ops on a
 * coherent machine). A put before and after the calls proves the library is
 * still fully usable.
 */
#include <mpp/shmem.h>

#include "pe_test.h"

static long target[4];

int main(void)
{
    start_pes(0);
    pe_test_started();

    long src[4] = {1, 2, 3, 4};
    shmem_clear_cache_inv();
    shmem_set_cache_inv();
    shmem_clear_cache_line_inv(target);
    shmem_set_cache_line_inv(target);
    shmem_udcflush();
    shmem_udcflush_line(target);
    for (int i = 0; i < 4; i++) CHECK_EQ(target[i], 0);
    shmem_barrier_all(); /* nobody writes target before everyone has checked it */

    shmem_long_put(target, src, 4, (pe_me + 1) % pe_npes);
    shmem_barrier_all();
    shmem_udcflush_line(&target[1]);
    shmem_clear_cache_line_inv(&target[2]);
    for (int i = 0; i < 4; i++) CHECK_EQ(target[i], i + 1);
    return pe_test_finish();
}
