/*
 * Back-to-back collectives with late arrivals: a mixed sequence of
 * broadcast, fcollect, collect, alltoall, reductions and (1.6) scans on one
 * team, and of the active-set forms on one active set with two pSync
 * arrays alternated, with no barrier anywhere in the sequence. Before some
 * calls one PE (a different one each time) sleeps 50 ms, so the others run
 * ahead into the next collective while it is still missing.
 *
 * Every result is checked as soon as the call returns (it must be complete
 * on return), each call writes its own dest slot (a PE may still be reading
 * its result of the previous call), and sources are rewritten right after
 * a call returns (the spec allows reusing the source on return).
 */
#include "coll_util.h"
#include <time.h>

#define STEPS 24
#define SLOT  64 /* longs per dest slot */

static long src[SLOT], dst[STEPS][SLOT * 8];
static long psync[2][SHMEM_SYNC_SIZE];
static long pwrk[2][SLOT / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? SLOT / 2 + 1
                                                                 : SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void maybe_late(int step, int member, int size)
{
    if (step % 3 == 1 && member == (step / 3) % size) {
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static long sv(int step, int member, int i)
{
    return (long)step * 100000 + member * 100 + i;
}

#if PE_SPEC_AT_LEAST(1, 5)
static void team_sequence(shmem_team_t team, const char *name)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    const int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    const int n = 5;

    memset(dst, 0, sizeof(dst));
    for (int i = 0; i < n * 8 && i < SLOT; i++)
        src[i] = sv(0, tme, i);
    shmem_team_sync(team);
    for (int step = 0; step < STEPS; step++) {
        long *d = dst[step];
        COLL_CASE("team %s back-to-back step %d", name, step);
        maybe_late(step, tme, tn);
        switch (step % 6) {
        case 0: {
            int root = step % tn;
            CHECK_EQ(shmem_long_broadcast(team, d, src, (size_t)n, root), 0);
            for (int i = 0; i < n; i++)
                CHECK_EQ(d[i], sv(step, root, i));
            break;
        }
        case 1:
            CHECK_EQ(shmem_long_fcollect(team, d, src, (size_t)n), 0);
            for (int j = 0; j < tn; j++)
                for (int i = 0; i < n; i++)
                    CHECK_EQ(d[j * n + i], sv(step, j, i));
            break;
        case 2:
            CHECK_EQ(shmem_long_sum_reduce(team, d, src, (size_t)n), 0);
            for (int i = 0; i < n; i++) {
                long want = 0;
                for (int j = 0; j < tn; j++)
                    want += sv(step, j, i);
                CHECK_EQ(d[i], want);
            }
            break;
        case 3:
            /* alltoall of one element per pair: src[j] goes to member j */
            CHECK_EQ(shmem_long_alltoall(team, d, src, 1), 0);
            for (int j = 0; j < tn; j++)
                CHECK_EQ(d[j], sv(step, j, tme));
            break;
        case 4:
            CHECK_EQ(shmem_long_collect(team, d, src, (size_t)(tme % 2 + 1)), 0);
            for (int j = 0, o = 0; j < tn; o += j % 2 + 1, j++)
                for (int i = 0; i <= j % 2; i++)
                    CHECK_EQ(d[o + i], sv(step, j, i));
            break;
        default:
            CHECK_EQ(shmem_long_max_reduce(team, d, src, (size_t)n), 0);
            for (int i = 0; i < n; i++)
                CHECK_EQ(d[i], sv(step, tn - 1, i));
#if PE_SPEC_AT_LEAST(1, 6)
            CHECK_EQ(shmem_long_sum_inscan(team, d + n, src, (size_t)n), 0);
            for (int i = 0; i < n; i++) {
                long want = 0;
                for (int j = 0; j <= tme; j++)
                    want += sv(step, j, i);
                CHECK_EQ(d[n + i], want);
            }
#endif
            break;
        }
        /* The source may be reused as soon as the call returns. */
        for (int i = 0; i < SLOT; i++)
            src[i] = sv(step + 1, tme, i);
    }
    shmem_team_sync(team);
}
#endif

/* The same on an active set, two pSync (and pWrk) arrays alternated. */
static void aset_sequence(aset_t a)
{
    const int idx = aset_index(a, pe_me);
    const int n = 5;

    memset(dst, 0, sizeof(dst));
    for (int s = 0; s < STEPS; s++)
        dst[s][0] = -7; /* marks the root's untouched dest */
    for (int i = 0; i < SLOT; i++)
        src[i] = sv(0, idx, i);
    shmem_barrier_all();
    if (idx < 0) {
        shmem_barrier_all();
        return;
    }
    for (int step = 0; step < STEPS; step++) {
        long *d = dst[step], *ps = psync[step & 1]; /* alternated, no barrier */
        COLL_CASE("active set start %d logstride %d size %d back-to-back step %d", a.start,
                  a.logstride, a.size, step);
        maybe_late(step, idx, a.size);
        switch (step % 4) {
        case 0: {
            int root = step % a.size;
            shmem_broadcast64(d, src, (size_t)n, root, a.start, a.logstride, a.size, ps);
            for (int i = 0; i < n; i++)
                CHECK_EQ(d[i], idx == root ? (i == 0 ? -7L : 0L) : sv(step, root, i));
            break;
        }
        case 1:
            shmem_fcollect64(d, src, (size_t)n, a.start, a.logstride, a.size, ps);
            for (int j = 0; j < a.size; j++)
                for (int i = 0; i < n; i++)
                    CHECK_EQ(d[j * n + i], sv(step, j, i));
            break;
        case 2:
            shmem_long_sum_to_all(d, src, n, a.start, a.logstride, a.size, pwrk[step & 1], ps);
            for (int i = 0; i < n; i++) {
                long want = 0;
                for (int j = 0; j < a.size; j++)
                    want += sv(step, j, i);
                CHECK_EQ(d[i], want);
            }
            break;
        default:
            shmem_alltoall64(d, src, 1, a.start, a.logstride, a.size, ps);
            for (int j = 0; j < a.size; j++)
                CHECK_EQ(d[j], sv(step, j, idx));
            break;
        }
        for (int i = 0; i < SLOT; i++)
            src[i] = sv(step + 1, idx, i);
    }
    /* A member ahead of us may already use this pSync for the call after
     * next, so pSync is checked once every member is done. */
    shmem_barrier_all();
    CHECK_PSYNC(psync[0], SHMEM_SYNC_SIZE);
    CHECK_PSYNC(psync[1], SHMEM_SYNC_SIZE);
}

int main(void)
{
    pe_test_init();
    const int npes = pe_npes;

    psync_init(psync[0], SHMEM_SYNC_SIZE);
    psync_init(psync[1], SHMEM_SYNC_SIZE);
    shmem_barrier_all();

    pe_section("active sets, back to back");
    aset_sequence((aset_t){0, 0, npes});
    if (npes > 2)
        aset_sequence((aset_t){1, 1, npes / 2});

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("teams, back to back");
    team_sequence(SHMEM_TEAM_WORLD, "world");
    team_sequence(SHMEM_TEAM_SHARED, "shared"); /* this node: every PE here */
    shmem_team_t even = SHMEM_TEAM_INVALID;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even), 0);
    team_sequence(even, "even");
    shmem_barrier_all();
    if (even != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even);
#endif
    return pe_test_finish();
}
