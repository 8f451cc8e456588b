/*
 * Team contexts (OpenSHMEM 1.5): shmem_team_create_ctx on a split team,
 * shmem_ctx_get_team, RMA through the context with team-relative PE
 * numbers, and SHMEM_CTX_DEFAULT belonging to SHMEM_TEAM_WORLD.
 */
#include "pe_test.h"

#if !PE_SPEC_AT_LEAST(1, 5)
int main(void)
{
    pe_test_init(); /* teams need OpenSHMEM 1.5 */
    return pe_test_finish();
}
#else

static long inbox[4];

int main(void)
{
    pe_test_init();
    const int npes = pe_npes;

    pe_section("default context");
    shmem_team_t w = SHMEM_TEAM_INVALID;
    CHECK_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &w), 0);
    CHECK(w == SHMEM_TEAM_WORLD);

    pe_section("context of a reversed team");
    /* Reversed order (team PE i is world PE npes-1-i), so team and world
     * numbers differ on every PE but a middle one. */
    shmem_team_t rev = SHMEM_TEAM_INVALID;
#if PE_SPEC_AT_LEAST(1, 6)
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev), 0);
#else
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &rev), 0);
#endif
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 1)
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
    memset(inbox, 0, sizeof(inbox));
    shmem_barrier_all();

    shmem_team_t teams[2] = {rev, odd};
    for (int k = 0; k < 2; k++) {
        shmem_team_t t = teams[k];
        if (t == SHMEM_TEAM_INVALID)
            continue;
        shmem_ctx_t  ctx = SHMEM_CTX_INVALID;
        shmem_team_t back = SHMEM_TEAM_INVALID;
        const int    tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
        CHECK_EQ(shmem_team_create_ctx(t, 0, &ctx), 0);
        CHECK(ctx != SHMEM_CTX_INVALID);
        CHECK_EQ(shmem_ctx_get_team(ctx, &back), 0);
        CHECK(back == t);
        /* PE numbers on a team's context are team numbers. */
        shmem_ctx_long_p(ctx, &inbox[k], 1000 * (k + 1) + tme, (tme + 1) % tn);
        shmem_ctx_quiet(ctx);
        shmem_team_sync(t);
        CHECK_EQ(inbox[k], (long)(1000 * (k + 1) + (tme + tn - 1) % tn));
        CHECK_EQ(shmem_ctx_long_g(ctx, &inbox[k], (tme + 1) % tn), (long)(1000 * (k + 1) + tme));
        shmem_team_sync(t);
        shmem_ctx_destroy(ctx);
    }
    shmem_barrier_all();
    if (odd == SHMEM_TEAM_INVALID)
        CHECK_EQ(inbox[1], 0L);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    shmem_team_destroy(rev);
    return pe_test_finish();
}
#endif
