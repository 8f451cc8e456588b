/*
 * Sandia OpenSHMEM's shmemx_ names (<shmemx.h>), family by family, with
 * exact results. Every call goes through the exported shmemx_ symbol (the
 * typed routines by name; shmemx_signal_add/set, which are also C11 generic
 * macros, as (shmemx_signal_add)(...)), and a last section calls SOS's C11
 * generic shmemx_ macros:
 *   - setup: shmemx_init_thread starts the library, shmemx_query_initialized
 *     before and after, shmemx_pcontrol, shmemx_sync_all after puts,
 *     shmemx_malloc_with_hints with both of SOS's hint names;
 *   - block-strided RMA: typed, ctx, sized and ctx sized ibput/ibget, the
 *     gaps between blocks left untouched;
 *   - put-with-signal: typed, ctx sized, mem _nbi, ctx typed _nbi with
 *     SHMEMX_SIGNAL_ADD, then signal_add/set and their ctx forms, and
 *     signal_fetch;
 *   - atomics: every non-blocking fetching form, the bitwise atomics;
 *   - point-to-point: wait_until/test with _all/_any/_some and _vector;
 *   - teams: split_strided, split_2d, my_pe, n_pes, translate_pe,
 *     get_config (SOS's two-argument form), create_ctx, ctx_get_team,
 *     team_sync, team_destroy (SOS's int-returning form);
 *   - collectives on SHMEMX_TEAM_WORLD and on a split team: broadcast,
 *     collect, fcollect(mem), alltoall, alltoalls, reductions of every
 *     operator group, SOS's signed and/or/xor reductions, inscan, exscan;
 *   - the C11 generics: ibput, put_signal, signal_set/add, a fetching
 *     non-blocking atomic, wait_until_any, sum_inscan; then the vector
 *     waits and tests, every team reduction (bitwise ones on SOS's signed
 *     types) and shmemx_sync in its team and active-set forms.
 * The data are arranged so that a value from the wrong PE, slot or block
 * is caught, not only a missing one.
 */
#include <shmemx.h>

#include <limits.h>

#include "pe_test.h"

#define NB   3 /* blocks of the block-strided transfers */
#define BS   2 /* elements per block */
#define NSIGFORMS 4 /* put-with-signal forms */

static int me, npes, right, left;

static uint64_t key(int from, int what, int i)
{
    return pe_key((uint64_t)from, (uint64_t)what, (uint64_t)i, 0, 0);
}

/* ---- setup --------------------------------------------------------------- */

static long sync_flag;

static void test_setup(void)
{
    int initialized = -1, provided = -1;

    shmemx_query_initialized(&initialized);
    CHECK_EQ(initialized, 0);
    shmemx_init_thread(SHMEMX_THREAD_SINGLE, &provided);
    pe_test_started();
    me = pe_me, npes = pe_npes, right = (me + 1) % npes, left = (me + npes - 1) % npes;
    pe_section("setup");
    CHECK(provided >= SHMEMX_THREAD_SINGLE && provided <= SHMEMX_THREAD_MULTIPLE);
    shmemx_query_initialized(&initialized);
    CHECK_EQ(initialized, 1);
    shmemx_pcontrol(1);
    shmemx_pcontrol(2, "extra arguments are ignored", 3);

    /* sync_all orders nothing by itself: the quiet completes the put, the
     * sync tells the left neighbour's value has landed. */
    shmem_long_p(&sync_flag, 1000 + me, right);
    shmem_quiet();
    shmemx_sync_all();
    CHECK_EQ(sync_flag, 1000 + left);

    /* shmemx_malloc_with_hints: symmetric, and the hinted use works. */
    long *hinted = shmemx_malloc_with_hints(sizeof(long),
                                            SHMEMX_MALLOC_ATOMICS_REMOTE | SHMEMX_MALLOC_SIGNAL_REMOTE);
    CHECK(hinted != NULL);
    hinted[0] = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(&hinted[0], me + 1, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ(hinted[0], (long)npes * (npes + 1) / 2);
    shmem_free(hinted);
}

/* ---- block-strided RMA ---------------------------------------------------- */

/* NB blocks of BS elements; block b of the destination starts at b*DST,
 * of the source at b*SST. */
#define DST 5
#define SST 3
#define SPAN(stride) ((NB - 1) * (stride) + BS)

static long     ibp_long[SPAN(DST)];
static uint32_t ibp_32[SPAN(DST)];
static int      ibg_int_src[SPAN(SST)];
static uint64_t ibg_64_src[SPAN(SST)];
static long     ibp_ctx_long[SPAN(DST)];
static uint16_t ibp_ctx_16[SPAN(DST)];

/* Element i of a destination laid out with stride `stride`: which source
 * element lands there, or -1 for a gap. */
static int block_src(int i, int dstride, int sstride)
{
    int b = i / dstride, off = i % dstride;
    return (b < NB && off < BS) ? b * sstride + off : -1;
}

static void test_block_strided(void)
{
    pe_section("ibput/ibget");
    long     src_long[SPAN(SST)];
    uint32_t src_32[SPAN(SST)];
    uint16_t src_16[SPAN(SST)];
    for (int i = 0; i < SPAN(SST); i++) {
        src_long[i] = PE_VALUE(long, key(me, 1, i));
        src_32[i] = PE_VALUE(uint32_t, key(me, 2, i));
        src_16[i] = PE_VALUE(uint16_t, key(me, 3, i));
        ibg_int_src[i] = PE_VALUE(int, key(me, 4, i));
        ibg_64_src[i] = PE_VALUE(uint64_t, key(me, 5, i));
    }
    shmem_barrier_all(); /* the ibget sources are set everywhere */

    shmemx_long_ibput(ibp_long, src_long, DST, SST, BS, NB, right);
    shmemx_ibput32(ibp_32, src_32, DST, SST, BS, NB, right);
    shmemx_ctx_long_ibput(SHMEM_CTX_DEFAULT, ibp_ctx_long, src_long, DST, SST, BS, NB, right);
    shmemx_ctx_ibput16(SHMEM_CTX_DEFAULT, ibp_ctx_16, src_16, DST, SST, BS, NB, right);

    /* Gets gather the right neighbour's blocks (stride SST there) into
     * blocks DST apart here; the gaps keep their sentinel. */
    int      got_int[SPAN(DST)], got_int_ctx[SPAN(DST)];
    uint64_t got_64[SPAN(DST)], got_64_ctx[SPAN(DST)];
    for (int i = 0; i < SPAN(DST); i++)
        got_int[i] = got_int_ctx[i] = -7, got_64[i] = got_64_ctx[i] = 7;
    shmemx_int_ibget(got_int, ibg_int_src, DST, SST, BS, NB, right);
    shmemx_ctx_int_ibget(SHMEM_CTX_DEFAULT, got_int_ctx, ibg_int_src, DST, SST, BS, NB, right);
    shmemx_ibget64(got_64, ibg_64_src, DST, SST, BS, NB, right);
    shmemx_ctx_ibget64(SHMEM_CTX_DEFAULT, got_64_ctx, ibg_64_src, DST, SST, BS, NB, right);
    for (int i = 0; i < SPAN(DST); i++) {
        int s = block_src(i, DST, SST);
        CHECK_EQ(got_int[i], s < 0 ? -7 : PE_VALUE(int, key(right, 4, s)));
        CHECK_EQ(got_int_ctx[i], s < 0 ? -7 : PE_VALUE(int, key(right, 4, s)));
        CHECK_EQ(got_64[i], s < 0 ? 7 : PE_VALUE(uint64_t, key(right, 5, s)));
        CHECK_EQ(got_64_ctx[i], s < 0 ? 7 : PE_VALUE(uint64_t, key(right, 5, s)));
    }

    shmem_barrier_all(); /* the puts are complete and visible */
    for (int i = 0; i < SPAN(DST); i++) {
        int s = block_src(i, DST, SST);
        CHECK_EQ(ibp_long[i], s < 0 ? 0 : PE_VALUE(long, key(left, 1, s)));
        CHECK_EQ(ibp_ctx_long[i], s < 0 ? 0 : PE_VALUE(long, key(left, 1, s)));
        CHECK_EQ(ibp_32[i], s < 0 ? 0 : PE_VALUE(uint32_t, key(left, 2, s)));
        CHECK_EQ(ibp_ctx_16[i], s < 0 ? 0 : PE_VALUE(uint16_t, key(left, 3, s)));
    }
}

/* ---- signals --------------------------------------------------------------- */

static long          sig_long[4];
static uint64_t      sig_u64[4];
static unsigned char sig_mem[13];
static double        sig_double[4];
static uint64_t      sig_data, sig_remote, sig_remote_ctx;

static void test_signals(void)
{
    pe_section("put-with-signal, signal_add/set");
    long          out_long[4];
    uint64_t      out_u64[4];
    unsigned char out_mem[13];
    double        out_double[4];
    for (int i = 0; i < 4; i++) {
        out_long[i] = PE_VALUE(long, key(me, 10, i));
        out_u64[i] = PE_VALUE(uint64_t, key(me, 11, i));
        out_double[i] = PE_VALUE(double, key(me, 12, i));
    }
    pe_fill_pattern(out_mem, sizeof(out_mem), key(me, 13, 0));

    /* Four forms add 1 each to the right neighbour's sig_data; once it reads
     * NSIGFORMS, every payload has landed. */
    shmemx_long_put_signal(sig_long, out_long, 4, &sig_data, 1, SHMEMX_SIGNAL_ADD, right);
    shmemx_ctx_put64_signal(SHMEM_CTX_DEFAULT, sig_u64, out_u64, 4, &sig_data, 1,
                            SHMEMX_SIGNAL_ADD, right);
    shmemx_putmem_signal_nbi(sig_mem, out_mem, sizeof(out_mem), &sig_data, 1, SHMEMX_SIGNAL_ADD,
                             right);
    shmemx_ctx_double_put_signal_nbi(SHMEM_CTX_DEFAULT, sig_double, out_double, 4, &sig_data, 1,
                                     SHMEMX_SIGNAL_ADD, right);
    shmem_quiet(); /* the _nbi sources may be reused from here */
    CHECK_EQ(shmem_signal_wait_until(&sig_data, SHMEM_CMP_EQ, NSIGFORMS), (uint64_t)NSIGFORMS);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(sig_long[i], PE_VALUE(long, key(left, 10, i)));
        CHECK_EQ(sig_u64[i], PE_VALUE(uint64_t, key(left, 11, i)));
        CHECK_EQ(sig_double[i], PE_VALUE(double, key(left, 12, i)));
    }
    CHECK_PATTERN(sig_mem, sizeof(sig_mem), key(left, 13, 0));

    /* A set overwrites, an add adds: each PE sets its right neighbour's
     * signals, then adds to them after a fence (same target, ordered). */
    (shmemx_signal_set)(&sig_remote, 1000 + (uint64_t)me, right);
    shmemx_ctx_signal_set(SHMEM_CTX_DEFAULT, &sig_remote_ctx, 2000 + (uint64_t)me, right);
    shmem_fence();
    (shmemx_signal_add)(&sig_remote, 5, right);
    shmemx_ctx_signal_add(SHMEM_CTX_DEFAULT, &sig_remote_ctx, 7, right);
    CHECK_EQ(shmem_signal_wait_until(&sig_remote, SHMEM_CMP_EQ, 1005 + (uint64_t)left),
             1005 + (uint64_t)left);
    CHECK_EQ(shmem_signal_wait_until(&sig_remote_ctx, SHMEM_CMP_EQ, 2007 + (uint64_t)left),
             2007 + (uint64_t)left);
    CHECK_EQ(shmemx_signal_fetch(&sig_remote), 1005 + (uint64_t)left);
    shmem_barrier_all();
}

/* ---- atomics ---------------------------------------------------------------- */

static long               amo_long;
static int                amo_int;
static double             amo_double;
static float              amo_float;
static unsigned int       amo_uint;
static unsigned long      amo_ulong;
static uint64_t           amo_u64;
static int32_t            amo_i32;
static unsigned long long amo_ull;

static void test_atomics(void)
{
    pe_section("atomics");
    amo_long = 100L * me;
    amo_int = 10 * me;
    amo_double = 0.5 + me;
    amo_float = 1.25f + (float)me;
    amo_uint = 0xf0u;
    amo_ulong = 0xff00ul;
    amo_u64 = 1;
    amo_i32 = 0x7f;
    amo_ull = 3;
    shmem_barrier_all();

    long     fl = -1, fl2 = -1;
    int      fi = -1, fi2 = -1;
    double   fd = -1;
    float    ff = -1;
    uint64_t fu = 0;
    int32_t  f32 = 0;
    unsigned long fx;

    /* Each non-blocking fetch is completed by a quiet before its value is
     * read, and before the next operation on the same variable. */
    shmemx_long_atomic_fetch_add_nbi(&fl, &amo_long, 5, right);
    shmem_quiet();
    CHECK_EQ(fl, 100L * right);
    shmemx_ctx_long_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &fl2, &amo_long, right);
    shmem_quiet();
    CHECK_EQ(fl2, 100L * right + 5);
    shmemx_int_atomic_compare_swap_nbi(&fi, &amo_int, 10 * right, -3, right);
    shmem_quiet();
    CHECK_EQ(fi, 10 * right);
    shmemx_ctx_int_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &fi2, &amo_int, right);
    shmem_quiet();
    CHECK_EQ(fi2, -3);
    shmemx_double_atomic_swap_nbi(&fd, &amo_double, 99.5, right);
    shmemx_ctx_float_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &ff, &amo_float, right);
    shmemx_uint64_atomic_fetch_or_nbi(&fu, &amo_u64, 6, right);
    shmemx_ctx_int32_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &f32, &amo_i32, 0x0f, right);
    shmem_quiet();
    CHECK_EQ(fd, 0.5 + right);
    CHECK_EQ(ff, 1.25f + (float)right);
    CHECK_EQ(fu, (uint64_t)1);
    CHECK_EQ(f32, (int32_t)0x7f);

    /* Bitwise, blocking. */
    shmemx_uint_atomic_or(&amo_uint, 0x0fu, right);
    fx = shmemx_ulong_atomic_fetch_xor(&amo_ulong, 0x0ff0ul, right);
    CHECK_EQ(fx, 0xff00ul);
    shmemx_ulonglong_atomic_and(&amo_ull, 2, right);
    shmem_barrier_all();

    /* Every variable as its left neighbour left it. */
    CHECK_EQ(amo_long, 100L * me + 6);
    CHECK_EQ(amo_int, -3);
    CHECK_EQ(amo_double, 99.5);
    CHECK_EQ(amo_uint, 0xffu);
    CHECK_EQ(amo_ulong, 0xf0f0ul);
    CHECK_EQ(amo_u64, (uint64_t)7);
    CHECK_EQ(amo_i32, (int32_t)0x0f);
    CHECK_EQ(amo_ull, 2ull);
    shmem_barrier_all();
}

/* ---- point-to-point ------------------------------------------------------------ */

static long     p2p_long[4];
static int      p2p_int[3];
static uint64_t p2p_u64[3];

static void test_p2p(void)
{
    pe_section("wait_until/test _all/_any/_some");
    size_t idx[3];
    int    status[3] = {0, 0, 0};

    CHECK_EQ(shmemx_int_test_any(p2p_int, 3, NULL, SHMEM_CMP_EQ, 5), SIZE_MAX);
    CHECK_EQ(shmemx_long_test_all(p2p_long, 4, NULL, SHMEM_CMP_NE, 0), 0);
    shmem_barrier_all(); /* nobody writes before everyone has tested */

    for (int i = 0; i < 4; i++)
        shmem_long_p(&p2p_long[i], 1 + i + 10L * me, right);
    shmemx_long_wait_until_all(p2p_long, 4, NULL, SHMEM_CMP_NE, 0);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(PE_READ(p2p_long[i]), 1 + i + 10L * left);
    CHECK_EQ(shmemx_long_test_all(p2p_long, 4, NULL, SHMEM_CMP_GT, 0), 1);

    shmem_int_p(&p2p_int[2], 5, right);
    CHECK_EQ(shmemx_int_wait_until_any(p2p_int, 3, NULL, SHMEM_CMP_EQ, 5), (size_t)2);
    CHECK_EQ(shmemx_int_test_any(p2p_int, 3, NULL, SHMEM_CMP_EQ, 5), (size_t)2);

    /* Vectors: element i against its own value; element 1 is excluded by
     * status, and its value never matches anyway. */
    uint64_t want[3] = {10, 20, 30};
    shmem_uint64_p(&p2p_u64[0], 10, right);
    shmem_uint64_p(&p2p_u64[2], 30, right);
    shmem_quiet();
    shmem_barrier_all(); /* both have landed: the answers are exact */
    status[1] = 1;
    CHECK_EQ(shmemx_uint64_test_some_vector(p2p_u64, 3, idx, status, SHMEM_CMP_EQ, want),
             (size_t)2);
    CHECK_EQ(idx[0], (size_t)0);
    CHECK_EQ(idx[1], (size_t)2);
    CHECK_EQ(shmemx_uint64_wait_until_some_vector(p2p_u64, 3, idx, status, SHMEM_CMP_EQ, want),
             (size_t)2);
    CHECK_EQ(shmemx_uint64_test_all_vector(p2p_u64, 3, status, SHMEM_CMP_EQ, want), 1);
    shmemx_uint64_wait_until_all_vector(p2p_u64, 3, status, SHMEM_CMP_EQ, want);
    /* Either satisfied element may be the one returned; never the excluded one. */
    size_t any = shmemx_uint64_wait_until_any_vector(p2p_u64, 3, status, SHMEM_CMP_EQ, want);
    CHECK(any == 0 || any == 2);
    any = shmemx_uint64_test_any_vector(p2p_u64, 3, status, SHMEM_CMP_EQ, want);
    CHECK(any == 0 || any == 2);
    CHECK_EQ(shmemx_int_wait_until_some(p2p_int, 3, idx, NULL, SHMEM_CMP_EQ, 5), (size_t)1);
    CHECK_EQ(idx[0], (size_t)2);
    CHECK_EQ(shmemx_int_test_some(p2p_int, 3, idx, NULL, SHMEM_CMP_NE, 0), (size_t)1);
    shmemx_int_wait_until_all(&p2p_int[2], 1, NULL, SHMEM_CMP_EQ, 5);
    shmem_barrier_all();
}

/* ---- teams ------------------------------------------------------------------- */

static void test_teams(void)
{
    pe_section("teams");
    shmemx_team_t        even = SHMEMX_TEAM_INVALID, xt, yt, got_team;
    shmemx_team_config_t conf = {.num_contexts = 2}, got = {.num_contexts = -1};
    shmem_ctx_t          ctx = SHMEMX_CTX_INVALID;
    int                  neven = (npes + 1) / 2;

    CHECK_EQ(shmemx_team_my_pe(SHMEMX_TEAM_WORLD), me);
    CHECK_EQ(shmemx_team_n_pes(SHMEMX_TEAM_WORLD), npes);
    CHECK_EQ(shmemx_team_split_strided(SHMEMX_TEAM_WORLD, 0, 2, neven, &conf,
                                       SHMEMX_TEAM_NUM_CONTEXTS, &even),
             0);
    if (me % 2 == 0) {
        CHECK(even != SHMEMX_TEAM_INVALID);
        CHECK_EQ(shmemx_team_my_pe(even), me / 2);
        CHECK_EQ(shmemx_team_n_pes(even), neven);
        CHECK_EQ(shmemx_team_translate_pe(even, neven - 1, SHMEMX_TEAM_WORLD), 2 * (neven - 1));
        shmemx_team_get_config(even, &got);
        CHECK_EQ(got.num_contexts, 2);
        CHECK_EQ(shmemx_team_create_ctx(even, 0, &ctx), 0);
        CHECK(ctx != SHMEMX_CTX_INVALID);
        CHECK_EQ(shmemx_ctx_get_team(ctx, &got_team), 0);
        CHECK(got_team == even);
        /* The team context numbers PEs in the team: put to the next even PE. */
        static long team_box;
        shmem_ctx_long_p(ctx, &team_box, 77 + me, (me / 2 + 1) % neven);
        shmem_ctx_quiet(ctx);
        CHECK_EQ(shmemx_team_sync(even), 0);
        CHECK_EQ(PE_READ(team_box), 77 + 2 * ((me / 2 + neven - 1) % neven));
        shmem_ctx_destroy(ctx);
    } else {
        CHECK(even == SHMEMX_TEAM_INVALID);
        CHECK_EQ(shmemx_team_my_pe(even), -1);
    }

    /* 2-D split of the world into rows of xr PEs (xr = 2 when possible). */
    int xr = npes >= 2 ? 2 : 1;
    CHECK_EQ(shmemx_team_split_2d(SHMEMX_TEAM_WORLD, xr, NULL, 0, &xt, NULL, 0, &yt), 0);
    CHECK_EQ(shmemx_team_n_pes(xt), xr);
    CHECK_EQ(shmemx_team_my_pe(xt), me % xr);
    CHECK_EQ(shmemx_team_n_pes(yt), npes / xr);
    CHECK_EQ(shmemx_team_my_pe(yt), me / xr);
    CHECK_EQ(shmemx_team_translate_pe(yt, 0, SHMEMX_TEAM_WORLD), me % xr);

    /* A collective on a split team: the row's sum of world PE numbers. */
    static int row_src, row_sum;
    row_src = me;
    CHECK_EQ(shmemx_int_sum_reduce(xt, &row_sum, &row_src, 1), 0);
    CHECK_EQ(row_sum, xr == 2 ? 2 * (me / 2) * 2 + 1 : me);

    CHECK_EQ(shmemx_team_destroy(xt), 0);
    CHECK_EQ(shmemx_team_destroy(yt), 0);
    if (even != SHMEMX_TEAM_INVALID)
        CHECK_EQ(shmemx_team_destroy(even), 0);
    shmem_barrier_all();
}

/* ---- collectives on the world ------------------------------------------------- */

#define MAXPE 8
static long          bc_src[3], bc_dst[3];
static int           co_src[2], co_dst[2 * MAXPE];
static unsigned char fc_src[3], fc_dst[3 * MAXPE];
static int           a2a_src[MAXPE], a2a_dst[MAXPE];
static long          a2as_src[3 * MAXPE], a2as_dst[2 * MAXPE];
static int           red_int, red_int_out;
static double        red_dbl, red_dbl_out;
static unsigned int  red_uint, red_uint_out;
static char          red_char, red_char_out;
static long          red_long, red_long_out;
static short         sgn_short, sgn_short_out;
static int           sgn_int, sgn_int_out;
static long          sgn_long, sgn_long_out;
static long long     sgn_ll, sgn_ll_out;
static long          scan_src[2], scan_in[2];
static int           scan_isrc, scan_ex;

static void test_collectives(void)
{
    pe_section("collectives");
    shmemx_team_t world = SHMEMX_TEAM_WORLD;
    int           root = npes - 1;
    CHECK(npes <= MAXPE);

    for (int i = 0; i < 3; i++)
        bc_src[i] = PE_VALUE(long, key(me, 20, i));
    CHECK_EQ(shmemx_long_broadcast(world, bc_dst, bc_src, 3, root), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(bc_dst[i], PE_VALUE(long, key(root, 20, i)));

    /* collect: PE i contributes i % 2 + 1 elements, in PE order. */
    int mine = me % 2 + 1, at = 0;
    for (int i = 0; i < mine; i++)
        co_src[i] = 1000 * me + i;
    CHECK_EQ(shmemx_int_collect(world, co_dst, co_src, (size_t)mine), 0);
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < p % 2 + 1; i++)
            CHECK_EQ(co_dst[at++], 1000 * p + i);

    for (int i = 0; i < 3; i++)
        fc_src[i] = (unsigned char)(16 * me + i + 1);
    CHECK_EQ(shmemx_fcollectmem(world, fc_dst, fc_src, 3), 0);
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < 3; i++)
            CHECK_EQ(fc_dst[3 * p + i], (unsigned char)(16 * p + i + 1));

    for (int j = 0; j < npes; j++)
        a2a_src[j] = 100 * me + j;
    CHECK_EQ(shmemx_int_alltoall(world, a2a_dst, a2a_src, 1), 0);
    for (int j = 0; j < npes; j++)
        CHECK_EQ(a2a_dst[j], 100 * j + me);

    /* alltoalls: one element per PE, every 3rd element out, every 2nd in. */
    for (int j = 0; j < npes; j++)
        a2as_src[3 * j] = 100L * me + j;
    CHECK_EQ(shmemx_long_alltoalls(world, a2as_dst, a2as_src, 2, 3, 1), 0);
    for (int j = 0; j < npes; j++)
        CHECK_EQ(a2as_dst[2 * j], 100L * j + me);

    /* Reductions, one per operator group, and SOS's signed bitwise ones. */
    long long want_prod = 1;
    int       want_xor = 0;
    short     want_or = 0;
    long      want_and_l = -1;
    long long want_and_ll = -1;
    for (int p = 0; p < npes; p++) {
        want_prod *= p + 1;
        want_xor ^= -(p + 1);
        want_or |= (short)-(1 << p);
        want_and_l &= ~(1L << (p + 40));
        want_and_ll &= -(2LL << p);
    }
    red_int = me + 1;
    red_dbl = 0.25 * me;
    red_uint = 0xffu & ~(1u << me);
    red_char = (char)('a' + me);
    red_long = me + 1;
    sgn_int = -(me + 1);
    sgn_short = (short)-(1 << me);
    sgn_long = ~(1L << (me + 40));
    sgn_ll = -(2LL << me);
    CHECK_EQ(shmemx_int_sum_reduce(world, &red_int_out, &red_int, 1), 0);
    CHECK_EQ(red_int_out, npes * (npes + 1) / 2);
    CHECK_EQ(shmemx_double_max_reduce(world, &red_dbl_out, &red_dbl, 1), 0);
    CHECK_EQ(red_dbl_out, 0.25 * (npes - 1));
    CHECK_EQ(shmemx_uint_and_reduce(world, &red_uint_out, &red_uint, 1), 0);
    CHECK_EQ(red_uint_out, 0xffu & ~((1u << npes) - 1));
    CHECK_EQ(shmemx_char_min_reduce(world, &red_char_out, &red_char, 1), 0);
    CHECK_EQ(red_char_out, 'a');
    CHECK_EQ(shmemx_long_prod_reduce(world, &red_long_out, &red_long, 1), 0);
    CHECK_EQ(red_long_out, (long)want_prod);
    CHECK_EQ(shmemx_int_xor_reduce(world, &sgn_int_out, &sgn_int, 1), 0);
    CHECK_EQ(sgn_int_out, want_xor);
    CHECK_EQ(shmemx_short_or_reduce(world, &sgn_short_out, &sgn_short, 1), 0);
    CHECK_EQ(sgn_short_out, want_or);
    CHECK_EQ(shmemx_long_and_reduce(world, &sgn_long_out, &sgn_long, 1), 0);
    CHECK_EQ(sgn_long_out, want_and_l);
    CHECK_EQ(shmemx_longlong_and_reduce(world, &sgn_ll_out, &sgn_ll, 1), 0);
    CHECK_EQ(sgn_ll_out, want_and_ll);

    /* Prefix sums over PEs 0..me (inscan) and 0..me-1 (exscan). */
    scan_src[0] = me + 1, scan_src[1] = 10L * (me + 1);
    scan_isrc = 3 * me;
    CHECK_EQ(shmemx_long_sum_inscan(world, scan_in, scan_src, 2), 0);
    CHECK_EQ(scan_in[0], (long)(me + 1) * (me + 2) / 2);
    CHECK_EQ(scan_in[1], 10L * (me + 1) * (me + 2) / 2);
    CHECK_EQ(shmemx_int_sum_exscan(world, &scan_ex, &scan_isrc, 1), 0);
    if (me > 0)
        CHECK_EQ(scan_ex, 3 * me * (me - 1) / 2);
    shmem_barrier_all();
}

/* ---- SOS's C11 generic names ------------------------------------------------------ */

static double   gen_ib[SPAN(DST)];
static uint64_t gen_sig, gen_set;
static long     gen_put[2], gen_amo;
static int      gen_flags[3];
static double   gen_scan_src, gen_scan;

static void test_generics(void)
{
    pe_section("C11 generic shmemx_ names");
    double src[SPAN(SST)];
    long   out[2] = {5L + me, 6L + me}, fetched = -1;
    for (int i = 0; i < SPAN(SST); i++)
        src[i] = 0.5 + i + 100 * me;
    gen_amo = 10L * me;
    shmem_barrier_all();

    shmemx_ibput(gen_ib, src, DST, SST, BS, NB, right);
    shmemx_put_signal(SHMEM_CTX_DEFAULT, gen_put, out, 2, &gen_sig, 1, SHMEMX_SIGNAL_SET, right);
    shmemx_signal_set(&gen_set, 40, right);
    shmem_fence();
    shmemx_signal_add(SHMEM_CTX_DEFAULT, &gen_set, 2, right);
    shmemx_atomic_fetch_add_nbi(&fetched, &gen_amo, 3L, right);
    shmem_int_p(&gen_flags[1], 1, right);
    shmem_quiet();
    CHECK_EQ(fetched, 10L * right);
    CHECK_EQ(shmemx_wait_until_any(gen_flags, 3, NULL, SHMEM_CMP_EQ, 1), (size_t)1);
    CHECK_EQ(shmem_signal_wait_until(&gen_sig, SHMEM_CMP_EQ, 1), (uint64_t)1);
    CHECK_EQ(gen_put[0], 5L + left);
    CHECK_EQ(gen_put[1], 6L + left);
    CHECK_EQ(shmem_signal_wait_until(&gen_set, SHMEM_CMP_EQ, 42), (uint64_t)42);

    gen_scan_src = 1.5;
    CHECK_EQ(shmemx_sum_inscan(SHMEMX_TEAM_WORLD, &gen_scan, &gen_scan_src, 1), 0);
    CHECK_EQ(gen_scan, 1.5 * (me + 1));
    shmem_barrier_all();
    for (int i = 0; i < SPAN(DST); i++) {
        int s = block_src(i, DST, SST);
        CHECK_EQ(gen_ib[i], s < 0 ? 0.0 : 0.5 + s + 100 * left);
    }
    CHECK_EQ(gen_amo, 10L * me + 3);
}

/* The later ones: vector point-to-point, every team reduction (the
 * bitwise ones on SOS's signed types as well, with negative values so a
 * lost sign shows) and shmemx_sync in both of SOS's forms. */
static short         red_sh_src, red_sh;
static signed char   red_sc_src, red_sc;
static int           red_i_src, red_i, red_isum_src, red_isum;
static long long     red_ll_src, red_ll, red_llprod_src, red_llprod;
static unsigned char red_uc_src, red_uc;
static long          red_l_src, red_l;
static double        red_d_src, red_d;
static int           vec[3], vec_seen[2];
static long          sync_psync[SHMEM_SYNC_SIZE];

static void test_generics_later(void)
{
    pe_section("C11 generic shmemx_ reductions, vector waits, sync");
    int    cmp[3];
    size_t idx[3];
    short  and_sh = -1;
    int    or_i   = INT_MIN;
    long long xor_ll = 0;
    for (int p = 0; p < npes; p++) {
        and_sh = (short)(and_sh & ~(1 << (p % 15)));
        or_i |= 1 << (p % 30);
        xor_ll ^= -(long long)(p + 1);
    }
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        sync_psync[i] = SHMEM_SYNC_VALUE;
    red_sh_src = (short)~(1 << (me % 15));
    red_sc_src = (signed char)~(1 << (me % 7));
    red_i_src  = INT_MIN | 1 << (me % 30);
    red_ll_src = -(long long)(me + 1);
    red_uc_src = (unsigned char)(1u << (me % 8));
    red_l_src  = 10L * me - 5;
    red_d_src  = me + 0.25;
    red_isum_src = me + 1;
    red_llprod_src = 2;
    shmem_barrier_all();

    CHECK_EQ(shmemx_and_reduce(SHMEMX_TEAM_WORLD, &red_sh, &red_sh_src, 1), 0);
    CHECK_EQ(red_sh, and_sh);
    CHECK_EQ(shmemx_and_reduce(SHMEMX_TEAM_WORLD, &red_sc, &red_sc_src, 1), 0);
    CHECK(red_sc < 0);
    CHECK_EQ(shmemx_or_reduce(SHMEMX_TEAM_WORLD, &red_i, &red_i_src, 1), 0);
    CHECK_EQ(red_i, or_i);
    CHECK_EQ(shmemx_xor_reduce(SHMEMX_TEAM_WORLD, &red_ll, &red_ll_src, 1), 0);
    CHECK_EQ(red_ll, xor_ll);
    CHECK_EQ(shmemx_or_reduce(SHMEMX_TEAM_WORLD, &red_uc, &red_uc_src, 1), 0);
    CHECK_EQ(red_uc, (unsigned char)((1u << (npes < 8 ? npes : 8)) - 1));
    CHECK_EQ(shmemx_max_reduce(SHMEMX_TEAM_WORLD, &red_l, &red_l_src, 1), 0);
    CHECK_EQ(red_l, 10L * (npes - 1) - 5);
    CHECK_EQ(shmemx_min_reduce(SHMEMX_TEAM_WORLD, &red_d, &red_d_src, 1), 0);
    CHECK_EQ(red_d, 0.25);
    CHECK_EQ(shmemx_sum_reduce(SHMEMX_TEAM_WORLD, &red_isum, &red_isum_src, 1), 0);
    CHECK_EQ(red_isum, npes * (npes + 1) / 2);
    CHECK_EQ(shmemx_prod_reduce(SHMEMX_TEAM_WORLD, &red_llprod, &red_llprod_src, 1), 0);
    CHECK_EQ(red_llprod, 1LL << npes);

    /* Each PE fills its right neighbour's vec with its own values. */
    for (int i = 0; i < 3; i++) {
        shmem_int_p(&vec[i], 3 * me + i + 1, right);
        cmp[i] = 3 * left + i + 1;
    }
    shmemx_wait_until_all_vector(vec, 3, NULL, SHMEM_CMP_EQ, cmp);
    CHECK_EQ(shmemx_test_all_vector(vec, 3, NULL, SHMEM_CMP_EQ, cmp), 1);
    CHECK(shmemx_wait_until_any_vector(vec, 3, NULL, SHMEM_CMP_EQ, cmp) < 3);
    CHECK(shmemx_test_any_vector(vec, 3, NULL, SHMEM_CMP_EQ, cmp) < 3);
    CHECK_EQ(shmemx_wait_until_some_vector(vec, 3, idx, NULL, SHMEM_CMP_EQ, cmp), (size_t)3);
    CHECK_EQ(shmemx_test_some_vector(vec, 3, idx, NULL, SHMEM_CMP_EQ, cmp), (size_t)3);

    /* shmemx_sync, team form then active-set form: after the quiet and
     * the sync, the left neighbour's store has landed. */
    shmem_int_p(&vec_seen[0], 100 + me, right);
    shmem_quiet();
    CHECK_EQ(shmemx_sync(SHMEMX_TEAM_WORLD), 0);
    CHECK_EQ(vec_seen[0], 100 + left);
    shmem_int_p(&vec_seen[1], 200 + me, right);
    shmem_quiet();
    shmemx_sync(0, 0, npes, sync_psync);
    CHECK_EQ(vec_seen[1], 200 + left);
    shmem_barrier_all();
}

int main(void)
{
    test_setup();
    test_block_strided();
    test_signals();
    test_atomics();
    test_p2p();
    test_teams();
    test_collectives();
    test_generics();
    test_generics_later();
    return pe_test_finish();
}
