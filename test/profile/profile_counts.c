/*
 * A program whose profile is known exactly (check_profile.sh states the
 * expected table and matrix): every PE makes a fixed number of calls of
 * fixed sizes to fixed peers, pauses the profile with shmem_pcontrol(0)
 * around calls that must not count, and frees through a legacy name that
 * calls another public routine, which must be counted once.
 */
#include "pe_test.h"

static long     src[100], dst[100];
static char     gsrc[64], gdst[64], ssrc[32], sdst[32];
static long     counter;
static uint64_t sig;
static long     rsrc[16], rdst[16];
static char     bsrc[256], bdst[256];

int main(void)
{
    pe_test_init();
    int me = pe_me, n = pe_npes, right = (me + 1) % n, left = (me + n - 1) % n;
    for (int i = 0; i < 100; i++) src[i] = me * 1000 + i;
    for (int i = 0; i < 16; i++) rsrc[i] = me + i;
    for (int i = 0; i < 256; i++) bsrc[i] = (char)(me == 0 ? i : -1);

    pe_section("puts");
    shmem_barrier_all();                                                      /* barrier 1 */
    for (int k = 0; k < 10; k++) shmem_long_put(dst, src, 100, right);         /* 10 x 800 B */
    shmem_barrier_all();                                                      /* barrier 2 */
    for (int i = 0; i < 100; i++) CHECK_EQ(dst[i], (long)(left * 1000 + i));

    pe_section("gets, atomics, signals");
    for (int k = 0; k < 5; k++) shmem_getmem(gdst, gsrc, 64, left);            /* 5 x 64 B */
    for (int k = 0; k < 3; k++) shmem_long_atomic_fetch_add(&counter, 1, 0);   /* 3 x 8 B */
    for (int k = 0; k < 2; k++)                                               /* 2 x (32 + 8) B */
        shmem_putmem_signal(sdst, ssrc, 32, &sig, 1, SHMEM_SIGNAL_ADD, right);
    CHECK_EQ(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 2), (uint64_t)2);

    pe_section("paused");
    shmem_pcontrol(0);
    for (int k = 0; k < 7; k++) shmem_long_put(dst, src, 100, right);          /* not counted */
    shmem_pcontrol(1);

    pe_section("collectives and memory");
    shmem_barrier_all();                                                      /* barrier 3 */
    if (me == 0) CHECK_EQ(counter, 3L * n);
    long *heap = shmem_malloc(1024);                                          /* 1024 B */
    CHECK(heap != NULL);
    CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, 16), 0);     /* 128 B */
    for (int i = 0; i < 16; i++) CHECK_EQ(rdst[i], (long)(n * (n - 1) / 2 + n * i));
    CHECK_EQ(shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, 256, 0), 0);    /* 256 B */
    for (int i = 0; i < 256; i++) CHECK_EQ(bdst[i], (char)i);
    shfree(heap); /* counted as shfree only, not as the shmem_free it calls */

    return pe_test_finish();                                                  /* barrier 4 */
}
