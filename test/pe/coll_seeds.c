/*
 * The examples of the five documents this project started from
 * (broadcast, alltoalls and max-reduction pages), as written there, with
 * their results checked instead of printed:
 *
 *   bcast64_spec    shmem_broadcast64 (the specification's page): the
 *                   example program (PE 0 to all) and the text's case,
 *                   "copies source on PE 4 to dest on PEs 5, 6, and 7"
 *                   (needs 8 PEs); the root's dest is not written.
 *   team_bcast      team shmem_broadcast, C11 example: dest updated on
 *                   every PE, the root included.
 *   alltoalls64_page  shmem_alltoalls64 man page example (count 2,
 *                   dst = sst = 1).
 *   hpvm_bcast      the HPVM shmem_broadcast text: PE_root is relative to
 *                   the active set; "node 1 broadcasts a value to all of
 *                   the odd nodes" (PE_root 0, PE_start 1, logPE_stride 1,
 *                   PE_size npes/2).
 *   shmem_max_page  SGI shmem_max man page: example 1, the maximum over
 *                   the even PEs (PE_start 0, logPE_stride 1, PE_size
 *                   npes/2; pWrk of max(NR/2+1,
 *                   SHMEM_REDUCE_MIN_WRKDATA_SIZE)); example 2, one
 *                   3-element int max over 8 PEs equals three 1-element
 *                   calls with two pSync/pWrk pairs alternated and no
 *                   barrier (needs 8 PEs).
 */
#include "coll_util.h"

/* ---- the specification's broadcast64 page ------------------------------ */
#define NUM_ELEMS 4
static long pSync[SHMEM_BCAST_SYNC_SIZE];
static long source[NUM_ELEMS], dest[NUM_ELEMS];

static void bcast64_spec(void)
{
    const int me = pe_me, npes = pe_npes;

    pe_section("bcast64_spec: broadcast64 example, PE 0 to all");
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    memset(dest, 0, sizeof(dest));
    if (me == 0)
        for (int i = 0; i < NUM_ELEMS; i++)
            source[i] = i;
    shmem_barrier_all(); /* Wait for all PEs to initialize pSync */
    shmem_broadcast64(dest, source, NUM_ELEMS, 0, 0, 0, npes, pSync);
    CHECK_PSYNC(pSync, SHMEM_BCAST_SYNC_SIZE);
    for (int i = 0; i < NUM_ELEMS; i++)
        CHECK_EQ(dest[i], me == 0 ? 0L : (long)i); /* root's dest not written */
    shmem_barrier_all();

    if (npes < 8)
        return;
    pe_section("bcast64_spec: broadcast64 from PE 4 to PEs 5, 6, 7");
    for (int i = 0; i < NUM_ELEMS; i++) {
        source[i] = me * 100 + i;
        dest[i] = -1;
    }
    shmem_barrier_all();
    if (me >= 4 && me <= 7) {
        shmem_broadcast64(dest, source, NUM_ELEMS, 0, 4, 0, 4, pSync);
        CHECK_PSYNC(pSync, SHMEM_BCAST_SYNC_SIZE);
    }
    shmem_barrier_all();
    for (int i = 0; i < NUM_ELEMS; i++)
        CHECK_EQ(dest[i], (me >= 5 && me <= 7) ? 400L + i : -1L);
    shmem_barrier_all();
}

/* ---- the team broadcast page ------------------------------------------- */
#if PE_SPEC_AT_LEAST(1, 5)
static long source1[4], dest1[4];

static void team_bcast(void)
{
    const int mype = pe_me;

    pe_section("team_bcast: team broadcast (C11), root's dest updated too");
    memset(dest1, 0, sizeof(dest1));
    if (mype == 0)
        for (int i = 0; i < 4; i++)
            source1[i] = i;
    shmem_barrier_all();
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    CHECK_EQ(shmem_broadcast(SHMEM_TEAM_WORLD, dest1, source1, 4, 0), 0);
#else
    CHECK_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, dest1, source1, 4, 0), 0);
#endif
    for (int i = 0; i < 4; i++)
        CHECK_EQ(dest1[i], (long)i); /* every PE, PE 0 included */
    shmem_barrier_all();
}
#endif

/* ---- the alltoalls64 man page ------------------------------------------ */
static long pSync2[SHMEM_ALLTOALLS_SYNC_SIZE];

static void alltoalls64_page(void)
{
    int64_t *source2, *dest2;
    int      i, count, pe;

    pe_section("alltoalls64_page: alltoalls64 example");
    count = 2;
    dest2 = (int64_t *)shmem_malloc(count * shmem_n_pes() * sizeof(int64_t));
    source2 = (int64_t *)shmem_malloc(count * shmem_n_pes() * sizeof(int64_t));
    CHECK(dest2 && source2);
    /* assign source values */
    for (pe = 0; pe < shmem_n_pes(); pe++) {
        for (i = 0; i < count; i++) {
            source2[(pe * count) + i] = shmem_my_pe() + pe;
            dest2[(pe * count) + i] = 9999;
        }
    }
    for (i = 0; i < SHMEM_ALLTOALLS_SYNC_SIZE; i++)
        pSync2[i] = SHMEM_SYNC_VALUE;
    /* wait for all PEs to initialize pSync */
    shmem_barrier_all();
    /* alltoalls on all PES */
    shmem_alltoalls64(dest2, source2, 1, 1, count, 0, 0, shmem_n_pes(), pSync2);
    CHECK_PSYNC(pSync2, SHMEM_ALLTOALLS_SYNC_SIZE);
    /* verify results */
    for (pe = 0; pe < shmem_n_pes(); pe++)
        for (i = 0; i < count; i++)
            CHECK_EQ(dest2[(pe * count) + i], (int64_t)(shmem_my_pe() + pe));
    shmem_barrier_all();
    shmem_free(dest2);
    shmem_free(source2);
}

/* ---- the HPVM broadcast text ------------------------------------------- */
static long pSync3[SHMEM_BCAST_SYNC_SIZE], pSync3b[SHMEM_BCAST_SYNC_SIZE];
static long target3[8], source3[8];
static int  target3_32[8], source3_32[8];

static void hpvm_bcast(void)
{
    const int me = pe_me, numnodes = pe_npes, nlong = 5;

    if (numnodes < 2)
        return;
    pe_section("hpvm_bcast: node 1 broadcasts to all of the odd nodes");
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync3[i] = pSync3b[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < 8; i++) {
        source3[i] = me * 1000 + i;
        target3[i] = -1;
        source3_32[i] = me * 1000 + i;
        target3_32[i] = -1;
    }
    shmem_barrier_all();
    if (me % 2 == 1 && me < 2 * (numnodes / 2)) {
        /* PE_root 0 is the first PE of the set: PE 1, not PE 0. */
        shmem_broadcast64(target3, source3, nlong, 0, 1, 1, numnodes / 2, pSync3);
        CHECK_PSYNC(pSync3, SHMEM_BCAST_SYNC_SIZE);
        /* The same with 32-bit words (the SGI text counts 32-bit words),
         * right away: on the other pSync, as a member may still be in the
         * first broadcast. */
        shmem_broadcast32(target3_32, source3_32, nlong, 0, 1, 1, numnodes / 2, pSync3b);
        CHECK_PSYNC(pSync3b, SHMEM_BCAST_SYNC_SIZE);
    }
    shmem_barrier_all();
    for (int i = 0; i < 8; i++) {
        int got_it = me % 2 == 1 && me != 1 && i < nlong;
        CHECK_EQ(target3[i], got_it ? 1000L + i : -1L);
        CHECK_EQ(target3_32[i], got_it ? 1000 + i : -1);
    }
    shmem_barrier_all();
}

/* ---- the SGI shmem_max page -------------------------------------------- */
#define NR 1
static long   PSYNC4[SHMEM_REDUCE_SYNC_SIZE];
static double FOO, FOOMAX,
    PWRK[NR / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? NR / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static long psync1[SHMEM_REDUCE_SYNC_SIZE], psync2[SHMEM_REDUCE_SYNC_SIZE];
static long psync4b[SHMEM_REDUCE_SYNC_SIZE];
static int  pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 2 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 2];
static int  pwrk1[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 1 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 1];
static int  pwrk2[SHMEM_REDUCE_MIN_WRKDATA_SIZE > 1 ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : 1];
static int  target4[3], source4[3], target4b[3];

static void shmem_max_page(void)
{
    const int me = pe_me, npes = pe_npes;

    pe_section("shmem_max_page example 1: max over the even PEs");
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        PSYNC4[i] = SHMEM_SYNC_VALUE; /* DATA PSYNC /.../ */
    FOO = (double)((me * 37) % 11) + 0.5;
    FOOMAX = -1;
    shmem_barrier_all();
    /* As written: every even PE calls with PE_size N$PES/2; with an odd
     * PE count the last even PE is outside that set, so it stays out. */
    if (me % 2 == 0 && me / 2 < npes / 2) {
        shmem_double_max_to_all(&FOOMAX, &FOO, NR, 0, 1, npes / 2, PWRK, PSYNC4);
        CHECK_PSYNC(PSYNC4, SHMEM_REDUCE_SYNC_SIZE);
        double want = -1;
        for (int p = 0; p < 2 * (npes / 2); p += 2)
            want = ((p * 37) % 11) + 0.5 > want ? ((p * 37) % 11) + 0.5 : want;
        CHECK_EQ(FOOMAX, want);
    }
    shmem_barrier_all();
    if (!(me % 2 == 0 && me / 2 < npes / 2))
        CHECK_EQ(FOOMAX, -1.0);

    if (npes < 8)
        return;
    pe_section("shmem_max_page example 2: 3-element max = three 1-element calls, alternating pairs");
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync1[i] = psync2[i] = psync4b[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < 3; i++) {
        source4[i] = (me * 5 + i * 3) % 8 - 4 * i;
        target4[i] = target4b[i] = -100;
    }
    shmem_barrier_all();
    if (me < 8) {
        shmem_int_max_to_all(target4, source4, 3, 0, 0, 8, pwrk, psync4b);
        CHECK_PSYNC(psync4b, SHMEM_REDUCE_SYNC_SIZE);
        shmem_int_max_to_all(&(target4b[0]), &(source4[0]), 1, 0, 0, 8, pwrk1, psync1);
        shmem_int_max_to_all(&(target4b[1]), &(source4[1]), 1, 0, 0, 8, pwrk2, psync2);
        shmem_int_max_to_all(&(target4b[2]), &(source4[2]), 1, 0, 0, 8, pwrk1, psync1);
        CHECK_PSYNC(psync1, SHMEM_REDUCE_SYNC_SIZE);
        CHECK_PSYNC(psync2, SHMEM_REDUCE_SYNC_SIZE);
        for (int i = 0; i < 3; i++) {
            int want = -1000;
            for (int p = 0; p < 8; p++)
                want = (p * 5 + i * 3) % 8 - 4 * i > want ? (p * 5 + i * 3) % 8 - 4 * i : want;
            CHECK_EQ(target4[i], want);
            CHECK_EQ(target4b[i], want);
        }
    }
    shmem_barrier_all();
    if (me >= 8)
        for (int i = 0; i < 3; i++)
            CHECK_EQ(target4[i], -100);
}

int main(void)
{
    pe_test_init();
    bcast64_spec();
#if PE_SPEC_AT_LEAST(1, 5)
    team_bcast();
#endif
    alltoalls64_page();
    hpvm_bcast();
    shmem_max_page();
    return pe_test_finish();
}
