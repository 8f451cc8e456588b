/*
 * Bursts of broadcasts, reductions, alltoalls and fcollects with no
 * barrier between them: the calls whose data may reach a member before it
 * has entered the call (broadcast mailboxes, slots of the others), and
 * whose root may run many calls ahead.
 *
 * Every member draws the same pseudo-random sequence: per call the kind,
 * the root and the length, which crosses each payload boundary (8, 16,
 * 56, 64, 256, 264, 320, 800, 2048 and 2056 bytes); some stretches are
 * broadcasts from one
 * root only. pSync (and pWrk) arrays alternate (see psync). Every 97th
 * call one member, a different one each time, sleeps 2 ms, so the others
 * pile up in its words. Every result is checked on return; the root's dest of an
 * active-set broadcast must stay as it was. Active sets: the world and the
 * odd PEs; teams (1.5+): the world and a split with a stride.
 */
#include "coll_util.h"
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define CALLS  3000
/* On a busy machine (load average above 1.5 per CPU) each hop of a
 * collective can wait for another process's time slice: a burst there is
 * this many calls (500 mixed, then 100 of the broadcasts from one root).
 * PE 0 decides for every member, which must make the same calls. */
#define CALLS_BUSY 600
static int  calls = CALLS;
static long busy;
#define MAXN   4100 /* longs per block */
#define MAXPES 8  /* alltoall blocks: larger sets take none */

enum { REDUCE, BCAST, ALLTOALL, FCOLLECT };

/* The first NLENS_MBOX fit a broadcast mailbox (2048 bytes); the last
 * two go between nodes as eager messages (up to SHMEM_COLL_EAGER_SIZE),
 * which a root may also send many calls ahead. */
static const int lens[] = {1, 2, 7, 8, 32, 33, 100, 256, 40, 257, 1025, 4100};
#define NLENS_MBOX 8
#define LEN_EAGER  1025

static long src[MAXN * MAXPES], dst[MAXN * MAXPES];
/* [broadcast?][call parity]: broadcasts alternate their own pair, the
 * rest (reductions, alltoalls, fcollects) share the other. A pSync may be
 * used again once every member is done with its previous call; between
 * two calls on one array there is then always one of the rest (no member
 * leaves it before every member has entered it), or only broadcasts,
 * which is what their mailboxes are for. */
static long psync[2][2][SHMEM_SYNC_SIZE];
static long pwrk[2][MAXN / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? MAXN / 2 + 1
                                                                 : SHMEM_REDUCE_MIN_WRKDATA_SIZE];

typedef struct {
    int kind, root, n;
} call_t;

/* Call c: in odd stretches of 500 calls, broadcasts only, up to 2048
 * bytes (every fifth 8200), from one root per 50 calls (nothing then
 * holds a root back but its receivers, or on one node the handshake of
 * the larger ones); otherwise all three kinds mixed, from any root. */
static call_t draw(uint64_t *rng, int c, int size)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = *rng >> 33;
    call_t   k = { .kind = (int)(r % 4), .root = (int)((r >> 2) % (uint64_t)size),
                   .n = lens[(r >> 9) % (sizeof lens / sizeof lens[0])] };
    if ((k.kind == ALLTOALL || k.kind == FCOLLECT) && size > MAXPES) k.kind = REDUCE;
    if ((c / 500) % 2 == 1) {
        k.kind = BCAST;
        k.root = (c / 50) % size;
        k.n    = (r >> 20) % 5 == 0 ? LEN_EAGER : lens[(r >> 9) % NLENS_MBOX];
    }
    return k;
}

static long sv(int call, int member, int i)
{
    return (long)call * 1000000 + member * 1000 + i;
}

static void maybe_late(int call, int member, int size)
{
    if (call % 97 == 96 && member == (call / 97) % size) {
        struct timespec ts = {0, 2 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static const char *const kind_name[] = {"reduce", "broadcast", "alltoall", "fcollect"};

/* Checks dst after call c; root_keeps: the root's dest is not written. */
static void check(int c, call_t k, int me, int size, int root_keeps)
{
    int total = k.kind == ALLTOALL || k.kind == FCOLLECT ? k.n * size : k.n;
    for (int i = 0; i < total; i++) {
        long want = 0;
        if (k.kind == REDUCE) {
            for (int m = 0; m < size; m++) want += sv(c, m, i);
        } else if (k.kind == BCAST) {
            want = me == k.root && root_keeps ? -1 : sv(c, k.root, i);
        } else if (k.kind == ALLTOALL) {
            want = sv(c, i / k.n, me * k.n + i % k.n); /* block i / n, from that member */
        } else {
            want = sv(c, i / k.n, i % k.n);
        }
        if (dst[i] != want) {
            CHECK_MSG(0, "call %d (%s, root %d, %d longs): dst[%d] = %ld, expected %ld", c,
                      kind_name[k.kind], k.root, k.n, i, dst[i], want);
        }
    }
}

/* Fills what call c reads and writes: k.n longs per member at most. */
static void prepare(int c, int me, call_t k, int size)
{
    int total = k.n * size < MAXN * MAXPES ? k.n * size : MAXN * MAXPES;
    for (int i = 0; i < total; i++) {
        src[i] = sv(c, me, i);
        dst[i] = -1;
    }
}

static void aset_burst(aset_t a)
{
    const int me = aset_index(a, pe_me);
    uint64_t  rng = 12345;

    shmem_barrier_all();
    if (me < 0) return;
    for (int c = 0; c < calls; c++) {
        call_t k  = draw(&rng, c, a.size);
        long  *ps = psync[k.kind == BCAST][c & 1];
        prepare(c, me, k, a.size);
        maybe_late(c, me, a.size);
        if (k.kind == BCAST)
            shmem_broadcast64(dst, src, (size_t)k.n, k.root, a.start, a.logstride, a.size, ps);
        else if (k.kind == REDUCE)
            shmem_long_sum_to_all(dst, src, k.n, a.start, a.logstride, a.size, pwrk[c & 1], ps);
        else if (k.kind == ALLTOALL)
            shmem_alltoall64(dst, src, (size_t)k.n, a.start, a.logstride, a.size, ps);
        else
            shmem_fcollect64(dst, src, (size_t)k.n, a.start, a.logstride, a.size, ps);
        check(c, k, me, a.size, 1);
    }
}

#if PE_SPEC_AT_LEAST(1, 5)
static void team_burst(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID) return;
    const int me = shmem_team_my_pe(team), size = shmem_team_n_pes(team);
    uint64_t  rng = 777;

    for (int c = 0; c < calls; c++) {
        call_t k = draw(&rng, c, size);
        prepare(c, me, k, size);
        maybe_late(c, me, size);
        if (k.kind == BCAST)
            CHECK_EQ(shmem_long_broadcast(team, dst, src, (size_t)k.n, k.root), 0);
        else if (k.kind == REDUCE)
            CHECK_EQ(shmem_long_sum_reduce(team, dst, src, (size_t)k.n), 0);
        else if (k.kind == ALLTOALL)
            CHECK_EQ(shmem_long_alltoall(team, dst, src, (size_t)k.n), 0);
        else
            CHECK_EQ(shmem_long_fcollect(team, dst, src, (size_t)k.n), 0);
        check(c, k, me, size, 0);
    }
}
#endif

int main(void)
{
    pe_test_init();
    const int npes = pe_npes;

    for (int i = 0; i < 4; i++) psync_init(psync[i / 2][i % 2], SHMEM_SYNC_SIZE);
    double load;
    if (pe_me == 0 && getloadavg(&load, 1) == 1) busy = load > 1.5 * sysconf(_SC_NPROCESSORS_ONLN);
    shmem_barrier_all();
    if (shmem_long_g(&busy, 0)) calls = CALLS_BUSY;

    pe_section("active sets");
    aset_burst((aset_t){0, 0, npes});
    if (npes > 2) aset_burst((aset_t){1, 1, npes / 2});
    /* Everyone is done with both arrays: every word is back to its value. */
    shmem_barrier_all();
    for (int i = 0; i < 4; i++) CHECK_PSYNC(psync[i / 2][i % 2], SHMEM_SYNC_SIZE);

#if PE_SPEC_AT_LEAST(1, 5)
    pe_section("teams");
    team_burst(SHMEM_TEAM_WORLD);
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 2)
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd), 0);
    team_burst(odd);
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
#endif
    return pe_test_finish();
}
