/*
 * Collectives whose members disagree: `coll_mismatch <case>` makes PE 0
 * call differently from the others, which under SHMEM_DEBUG=1 the library
 * must stop with one line naming both PEs and both calls, instead of
 * hanging or mixing up data. `coll_mismatch ok` makes every call alike on
 * every PE: it must pass, under SHMEM_DEBUG=1 too.
 */
#include "pe_test.h"

#define N 16

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + N];
static long src[4 * N], dst[4 * N];

typedef void (*case_fn)(int bad);

/* shmem_broadcast64 with nelems 16 on PE 0 and 2 elsewhere */
static void c_bcast_count(int bad)
{
    shmem_broadcast64(dst, src, bad && pe_me == 0 ? N : 2, 0, 0, 0, pe_npes, psync);
}

static void c_bcast_root(int bad)
{
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 2, bad && pe_me == 0 ? 1 : 0);
}

/* PE 0 skips a barrier and goes on to shmem_finalize */
static void c_barrier_skip(int bad)
{
    if (bad && pe_me == 0) {
        shmem_finalize();
        exit(0);
    }
    shmem_barrier_all();
}

static void c_reduce_count(int bad)
{
    shmem_long_sum_to_all(dst, src, bad && pe_me == 0 ? N : 4, 0, 0, pe_npes, pwrk, psync);
}

static void c_team_reduce_count(int bad)
{
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, bad && pe_me == 0 ? N : 4);
}

static void c_reduce_op(int bad)
{
    if (bad && pe_me == 0) {
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    } else {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    }
}

static void c_alltoall_count(int bad)
{
    shmem_alltoall64(dst, src, bad && pe_me == 0 ? 4 : 2, 0, 0, pe_npes, psync);
}

static void c_team_alltoall_count(int bad)
{
    shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, bad && pe_me == 0 ? 4 : 2);
}

/* a barrier on one PE, a broadcast on the others, over the same team */
static void c_routine(int bad)
{
    if (bad && pe_me == 0) {
        shmem_team_sync(SHMEM_TEAM_WORLD);
    } else {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 2, 0);
    }
}

/* collect's counts may differ: never a mismatch */
static void c_collect(int bad)
{
    (void)bad;
    shmem_collect64(dst, src, (size_t)pe_me % 3, 0, 0, pe_npes, psync);
    shmem_barrier_all();
    shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, (size_t)pe_me % 2);
}

static const struct {
    const char *name;
    case_fn     fn;
} cases[] = {
    { "bcast_count", c_bcast_count },
    { "bcast_root", c_bcast_root },
    { "barrier_skip", c_barrier_skip },
    { "reduce_count", c_reduce_count },
    { "team_reduce_count", c_team_reduce_count },
    { "reduce_op", c_reduce_op },
    { "alltoall_count", c_alltoall_count },
    { "team_alltoall_count", c_team_alltoall_count },
    { "routine", c_routine },
    { "collect", c_collect },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <case>|ok\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    pe_test_init();
    for (size_t i = 0; i < NCASES; i++) {
        int bad = strcmp(argv[1], cases[i].name) == 0;
        if (!bad && strcmp(argv[1], "ok") != 0) continue;
        pe_section(cases[i].name);
        shmem_barrier_all();
        cases[i].fn(bad);
        shmem_barrier_all();
        if (bad) break;
    }
    return pe_test_finish();
}
