/*
 * Barriers: the active-set shmem_barrier and shmem_sync over every set of
 * aset_list(), shmem_barrier_all, shmem_sync_all and (1.5+)
 * shmem_team_sync on world and split teams.
 *
 * Each round every member puts a round-stamped value to the next member
 * (and, for the sync forms, quiets first); after the barrier each member
 * must see the stamp its predecessor sent. One member arrives ~50 ms late
 * in some rounds, so a barrier that lets PEs through early is caught.
 * The same pSync is used for consecutive barriers without re-initialising
 * it; it must read SHMEM_SYNC_VALUE on return, and PEs outside the set
 * must see neither stamps nor pSync writes.
 */
#include "coll_util.h"
#include <time.h>

#define ROUNDS 4

static long psync[SHMEM_BARRIER_SYNC_SIZE];
static long psync_sync[SHMEM_BARRIER_SYNC_SIZE];
static long stamp[ROUNDS]; /* written by the previous member */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void active_set_sweep(int use_sync)
{
    const int me = pe_me, npes = pe_npes;
    aset_t    sets[ASET_MAX];
    int       ns = aset_list(sets, npes);
    long     *ps = use_sync ? psync_sync : psync;

    for (int s = 0; s < ns; s++) {
        aset_t a = sets[s];
        int    idx = aset_index(a, me);
        COLL_CASE("%s start %d logstride %d size %d", use_sync ? "shmem_sync" : "shmem_barrier",
                  a.start, a.logstride, a.size);
        for (int r = 0; r < ROUNDS; r++)
            stamp[r] = -1;
        shmem_barrier_all();
        if (idx >= 0) {
            const int next = aset_pe(a, (idx + 1) % a.size);
            const int prev = aset_pe(a, (idx + a.size - 1) % a.size);
            for (int r = 0; r < ROUNDS; r++) {
                /* In every fourth set the last member is late in round 1,
                 * the first in round 2. */
                if (s % 4 == 0 && ((r == 1 && idx == a.size - 1) || (r == 2 && idx == 0)))
                    sleep_ms(50);
                shmem_long_p(&stamp[r], (long)(s * 1000 + r * 100 + me), next);
                if (use_sync) {
                    shmem_quiet();
                    shmem_sync(a.start, a.logstride, a.size, ps);
                } else {
                    shmem_barrier(a.start, a.logstride, a.size, ps);
                }
                /* Restored on return; before the last round a member that
                 * left first may already be in the next barrier, writing
                 * our pSync, so only the last round is checked here. */
                if (r == ROUNDS - 1)
                    CHECK_PSYNC(ps, SHMEM_BARRIER_SYNC_SIZE);
                CHECK_EQ(PE_READ(stamp[r]), (long)(s * 1000 + r * 100 + prev));
            }
        }
        shmem_barrier_all();
        if (idx < 0)
            for (int r = 0; r < ROUNDS; r++)
                CHECK_EQ(stamp[r], -1L);
        CHECK_PSYNC(ps, SHMEM_BARRIER_SYNC_SIZE);
    }
}

static long all_stamp[ROUNDS];

static void world_barriers(void)
{
    const int me = pe_me, npes = pe_npes;
    const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;

    for (int kind = 0; kind < 2; kind++) {
        COLL_CASE("%s", kind ? "shmem_sync_all" : "shmem_barrier_all");
        for (int r = 0; r < ROUNDS; r++) {
            if (me == (r * 3) % npes && r > 0)
                sleep_ms(50);
            shmem_long_p(&all_stamp[r], (long)(kind * 1000 + r * 100 + me), next);
            if (kind) {
                shmem_quiet();
                shmem_sync_all();
            } else {
                shmem_barrier_all();
            }
            CHECK_EQ(PE_READ(all_stamp[r]), (long)(kind * 1000 + r * 100 + prev));
        }
        shmem_barrier_all();
    }
}

#if PE_SPEC_AT_LEAST(1, 5)
static long team_stamp[ROUNDS];

static void team_syncs(shmem_team_t team, const char *name)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    const int next = shmem_team_translate_pe(team, (tme + 1) % tn, SHMEM_TEAM_WORLD);
    const int prev = shmem_team_translate_pe(team, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);

    COLL_CASE("shmem_team_sync on %s", name);
    CHECK(next >= 0 && prev >= 0);
    for (int r = 0; r < ROUNDS; r++)
        team_stamp[r] = -1;
    shmem_team_sync(team);
    for (int r = 0; r < ROUNDS; r++) {
        if ((r == 1 && tme == tn - 1) || (r == 3 && tme == 0))
            sleep_ms(50);
        shmem_long_p(&team_stamp[r], (long)(r * 100 + pe_me), next);
        shmem_quiet();
        CHECK_EQ(shmem_team_sync(team), 0);
        CHECK_EQ(PE_READ(team_stamp[r]), (long)(r * 100 + prev));
    }
    /* Many back to back: a sync that does not wait would drift. */
    for (int r = 0; r < 200; r++)
        CHECK_EQ(shmem_team_sync(team), 0);
}
#endif

int main(void)
{
    pe_test_init();
    const int npes PE_UNUSED = pe_npes;

    psync_init(psync, SHMEM_BARRIER_SYNC_SIZE);
    psync_init(psync_sync, SHMEM_BARRIER_SYNC_SIZE);
    shmem_barrier_all();

    pe_section("active-set shmem_barrier");
    active_set_sweep(0);
    pe_section("active-set shmem_sync");
    active_set_sweep(1);
    pe_section("shmem_barrier_all / shmem_sync_all");
    world_barriers();

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("shmem_team_sync");
    team_syncs(SHMEM_TEAM_WORLD, "world");
    team_syncs(SHMEM_TEAM_SHARED, "shared");
    shmem_team_t odd = SHMEM_TEAM_INVALID, even = SHMEM_TEAM_INVALID;
    if (npes > 1)
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even), 0);
    /* Odd and even teams sync at the same time, on disjoint PEs. */
    team_syncs(odd, "odd");
    team_syncs(even, "even");
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
#endif
    return pe_test_finish();
}
