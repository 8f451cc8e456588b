/*
 * Bursts of broadcasts and reductions with no barrier between them: the
 * calls whose data may reach a member before it has entered the call
 * (broadcast mailboxes, reduction slots) and whose root may run many calls
 * ahead.
 *
 * Every member draws the same pseudo-random sequence: per call the kind,
 * the root and the length, which crosses each payload boundary (8, 16,
 * 56, 64, 256, 264 and 320 bytes); some stretches are broadcasts from one
 * root only. Each kind alternates two pSync (and pWrk) arrays. Every 97th
 * call one member, a
 * different one each time, sleeps 2 ms, so the others pile up in its
 * words. Every result is checked on return; the root's dest of an
 * active-set broadcast must stay as it was. Active sets: the world and the
 * odd PEs; teams (1.5+): the world and a split with a stride.
 */
#include "coll_util.h"
#include <time.h>

#define CALLS 3000
#define MAXN  40 /* longs */

static const int lens[] = {1, 2, 7, 8, 32, 33, 40};

static long src[MAXN], dst[MAXN];
/* [kind][call parity]: broadcasts and reductions each alternate their own
 * pair. A pSync may be used again once every member is done with its
 * previous call; between two calls of one kind on one array there is then
 * always a reduction (everyone has left the call before it), or only
 * broadcasts, which is what their mailboxes are for. */
static long psync[2][2][SHMEM_SYNC_SIZE];
static long pwrk[2][MAXN / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? MAXN / 2 + 1
                                                                 : SHMEM_REDUCE_MIN_WRKDATA_SIZE];

typedef struct {
    int bcast, root, n;
} call_t;

/* Call c: in odd stretches of 500 calls, broadcasts only, up to 256
 * bytes, from one root per 50 calls (nothing then holds a root back but
 * its receivers);
 * otherwise broadcasts and reductions mixed, from any root. */
static call_t draw(uint64_t *rng, int c, int size)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = *rng >> 33;
    call_t   k = { .bcast = (int)(r & 1), .root = (int)((r >> 1) % (uint64_t)size),
                   .n = lens[(r >> 9) % (sizeof lens / sizeof lens[0])] };
    if ((c / 500) % 2 == 1) {
        k.bcast = 1;
        k.root  = (c / 50) % size;
        k.n     = lens[(r >> 9) % 5]; /* up to 256 bytes: never a handshake */
    }
    return k;
}

static long sv(int call, int member, int i)
{
    return (long)call * 100000 + member * 100 + i;
}

static void maybe_late(int call, int member, int size)
{
    if (call % 97 == 96 && member == (call / 97) % size) {
        struct timespec ts = {0, 2 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Checks dst after call c; root_keeps: the root's dest is not written. */
static void check(int c, call_t k, int me, int size, int root_keeps)
{
    for (int i = 0; i < k.n; i++) {
        long want = 0;
        if (!k.bcast) {
            for (int m = 0; m < size; m++) want += sv(c, m, i);
        } else {
            want = me == k.root && root_keeps ? -1 : sv(c, k.root, i);
        }
        if (dst[i] != want) {
            CHECK_MSG(0, "call %d (%s, root %d, %d longs): dst[%d] = %ld, expected %ld", c,
                      k.bcast ? "broadcast" : "reduce", k.root, k.n, i, dst[i], want);
        }
    }
}

static void prepare(int c, int me)
{
    for (int i = 0; i < MAXN; i++) {
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
    for (int c = 0; c < CALLS; c++) {
        call_t k  = draw(&rng, c, a.size);
        long  *ps = psync[k.bcast][c & 1];
        prepare(c, me);
        maybe_late(c, me, a.size);
        if (k.bcast)
            shmem_broadcast64(dst, src, (size_t)k.n, k.root, a.start, a.logstride, a.size, ps);
        else
            shmem_long_sum_to_all(dst, src, k.n, a.start, a.logstride, a.size, pwrk[c & 1], ps);
        check(c, k, me, a.size, 1);
    }
}

#if PE_SPEC_AT_LEAST(1, 5)
static void team_burst(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID) return;
    const int me = shmem_team_my_pe(team), size = shmem_team_n_pes(team);
    uint64_t  rng = 777;

    for (int c = 0; c < CALLS; c++) {
        call_t k = draw(&rng, c, size);
        prepare(c, me);
        maybe_late(c, me, size);
        if (k.bcast)
            CHECK_EQ(shmem_long_broadcast(team, dst, src, (size_t)k.n, k.root), 0);
        else
            CHECK_EQ(shmem_long_sum_reduce(team, dst, src, (size_t)k.n), 0);
        check(c, k, me, size, 0);
    }
}
#endif

int main(void)
{
    pe_test_init();
    const int npes = pe_npes;

    for (int i = 0; i < 4; i++) psync_init(psync[i / 2][i % 2], SHMEM_SYNC_SIZE);

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
