/*
 * Team contexts used by threads: the world is split into a reversed team
 * (team PE i is world PE npes-1-i), and each of TU_NTHREADS threads makes
 * its own context on it with shmem_team_create_ctx, then puts, gets and
 * fetch-adds with team-relative PE numbers. Values carry the writer's world
 * PE, so a team number taken as a world number (or the reverse) shows.
 */
#include "thread_util.h"

#define ROUNDS 100
#define SLICE  4

static shmem_team_t rev = SHMEM_TEAM_INVALID;
static long         sbuf[TU_NTHREADS * SLICE]; /* slice per thread of the writer */
static long         cnt[TU_NTHREADS];

static long val(int world_pe, int t, int r, int i)
{
    return (long)pe_key_bits(pe_key((uint64_t)world_pe, (uint64_t)t, (uint64_t)r, (uint64_t)i, 9));
}

static void *thread_body(void *arg)
{
    const int    t = (int)(intptr_t)arg;
    const int    tme = shmem_team_my_pe(rev), tn = shmem_team_n_pes(rev);
    const int    tgt = (tme + 1) % tn; /* team PE number */
    long         src[SLICE];
    shmem_ctx_t  ctx = SHMEM_CTX_INVALID;
    shmem_team_t back = SHMEM_TEAM_INVALID;

    CHECK_EQ(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &ctx), 0);
    CHECK(ctx != SHMEM_CTX_INVALID);
    CHECK_EQ(shmem_ctx_get_team(ctx, &back), 0);
    CHECK(back == rev);
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < SLICE; i++)
            src[i] = val(pe_me, t, r, i);
        shmem_ctx_long_put(ctx, &sbuf[t * SLICE], src, SLICE, tgt);
        CHECK_EQ(shmem_ctx_long_atomic_fetch_add(ctx, &cnt[t], 1, tgt), (long)r);
        tu_check_round_trip(ctx, &sbuf[t * SLICE], src, SLICE, tgt);
    }
    shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    tu_init_multiple();
    const int npes = pe_npes;

    pe_section("split a reversed team");
#if PE_SPEC_AT_LEAST(1, 6)
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev), 0);
#else
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &rev), 0);
#endif
    CHECK(rev != SHMEM_TEAM_INVALID);

    pe_section("threads on team contexts");
    tu_run_threads(TU_NTHREADS, thread_body);
    shmem_team_sync(rev);

    /* Team PE tme was written by team PE tme-1; map that back to a world
     * PE through the team, not by hand. */
    const int tme = shmem_team_my_pe(rev), tn = shmem_team_n_pes(rev);
    const int writer = shmem_team_translate_pe(rev, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    CHECK_EQ(writer, PE_SPEC_AT_LEAST(1, 6) ? (pe_me + 1) % npes : (pe_me + npes - 1) % npes);
    for (int t = 0; t < TU_NTHREADS; t++) {
        CHECK_EQ(cnt[t], (long)ROUNDS);
        for (int i = 0; i < SLICE; i++)
            CHECK_EQ(sbuf[t * SLICE + i], val(writer, t, ROUNDS - 1, i));
    }
    shmem_barrier_all();
    shmem_team_destroy(rev);
    return pe_test_finish();
}
