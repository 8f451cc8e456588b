/*
 * Zero-length calls with NULL buffers: the specification's annex on
 * undefined behaviour says "len is 0, pointer is null: supported", for
 * every routine that takes a pointer and a length. Each must return
 * without touching anything (no symmetric check of a NULL dest, no copy
 * from NULL, no pWrk), a zero-byte put-with-signal must still deliver its
 * signal, and collectives with data right after must still agree on their
 * call counts (the zero-length calls run no algorithm on any member).
 * Sanitized in asan.subset, where a memcpy from NULL would stop the run.
 */
#include "pe_test.h"

static long psync[SHMEM_BCAST_SYNC_SIZE];
static long psync2[SHMEM_REDUCE_SYNC_SIZE];
static uint64_t sig;
static long value;

static void zero_rma(void)
{
    int peer = (pe_me + 1) % pe_npes;

    pe_section("RMA with no data");
    shmem_putmem(NULL, NULL, 0, peer);
    shmem_getmem(NULL, NULL, 0, peer);
    shmem_long_put(NULL, NULL, 0, peer);
    shmem_long_get(NULL, NULL, 0, peer);
    shmem_long_iput(NULL, NULL, 1, 1, 0, peer);
    shmem_long_iget(NULL, NULL, 1, 1, 0, peer);
    shmem_putmem_nbi(NULL, NULL, 0, peer);
    shmem_getmem_nbi(NULL, NULL, 0, peer);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, NULL, NULL, 0, peer);
    shmem_quiet();
#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("put with signal, no data");
    shmem_putmem_signal(NULL, NULL, 0, &sig, 1, SHMEM_SIGNAL_ADD, peer);
    CHECK_EQ(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1), 1);
    CHECK_EQ(shmem_signal_fetch(&sig), 1);

    pe_section("waits on no variables");
    CHECK_EQ(shmem_long_test_all(NULL, 0, NULL, SHMEM_CMP_EQ, 0), 1);
    shmem_long_wait_until_all(NULL, 0, NULL, SHMEM_CMP_EQ, 0);
#endif
    shmem_barrier_all();
}

static void zero_team(void)
{
#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("team collectives with no data");
    CHECK_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0), 0);
    CHECK_EQ(shmem_long_fcollect(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_long_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_long_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_long_alltoalls(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0), 0);
    CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_long_max_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_ulong_and_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_broadcastmem(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0), 0);
    CHECK_EQ(shmem_fcollectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_collectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_alltoallmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
#if PE_SPEC_AT_LEAST(1, 6)
    CHECK_EQ(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
    CHECK_EQ(shmem_long_sum_exscan(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
#endif
#endif
}

static void zero_active_set(void)
{
    pe_section("active-set collectives with no data");
    shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, pe_npes, psync);
    shmem_fcollect64(NULL, NULL, 0, 0, 0, pe_npes, psync2);
    shmem_collect64(NULL, NULL, 0, 0, 0, pe_npes, psync2);
    shmem_alltoall64(NULL, NULL, 0, 0, 0, pe_npes, psync2);
    shmem_long_sum_to_all(NULL, NULL, 0, 0, 0, pe_npes, NULL, psync2);
    shmem_int_and_to_all(NULL, NULL, 0, 0, 0, pe_npes, NULL, psync2);
}

/* Collectives with data after the empty ones: the values must arrive. */
static void then_data(int round)
{
    static long src[4], dst[4 * 8];
    long       *d = shmem_malloc(sizeof(long) * 4 * (size_t)pe_npes);
    CHECK(d != NULL);

    pe_section("collectives with data after them");
    for (int i = 0; i < 4; i++) src[i] = 1000 * round + 10 * pe_me + i;
#if PE_SPEC_AT_LEAST(1, 5)
    CHECK_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, d, src, 4, pe_npes - 1), 0);
    for (int i = 0; i < 4; i++) CHECK_EQ(d[i], 1000 * round + 10 * (pe_npes - 1) + i);
    CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, src, 1), 0);
    CHECK_EQ(d[0], (long)pe_npes * 1000 * round + 10L * pe_npes * (pe_npes - 1) / 2);
    /* PE 0 gives nothing (NULL), the others one element each */
    CHECK_EQ(shmem_long_collect(SHMEM_TEAM_WORLD, d, pe_me ? src : NULL, pe_me ? 1 : 0), 0);
    for (int p = 1; p < pe_npes; p++) CHECK_EQ(d[p - 1], 1000 * round + 10 * p);
#endif
    shmem_barrier_all();
    if (pe_npes <= 8) {
        shmem_broadcast64(dst, src, 4, 0, 0, 0, pe_npes, psync);
        if (pe_me != 0) {
            for (int i = 0; i < 4; i++) CHECK_EQ(dst[i], 1000 * round + i);
        }
        shmem_fcollect64(dst, src, 1, 0, 0, pe_npes, psync2);
        for (int p = 0; p < pe_npes; p++) CHECK_EQ(dst[p], 1000 * round + 10 * p);
    }
    shmem_barrier_all();
    shmem_free(d);
}

int main(void)
{
    pe_test_init();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync2[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    value = pe_me;
    zero_rma();
    for (int round = 1; round <= 3; round++) {
        zero_team();
        zero_active_set();
        then_data(round);
    }
    CHECK_EQ(value, pe_me);
    return pe_test_finish();
}
