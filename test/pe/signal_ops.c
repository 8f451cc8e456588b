/*
 * The signaling routines one by one, with exact results:
 *   - every typed put_signal (every standard RMA type, from the type table)
 *     in its four forms (plain, ctx, _nbi, ctx _nbi), every sized form
 *     (8..128 bits) and putmem, each sending to the right neighbour with
 *     SHMEM_SIGNAL_ADD 1 on a per-family signal that must end at exactly 4;
 *   - the C11 generic shmem_put_signal[_nbi], with and without a context,
 *     on a few types, and the generic shmem_signal_add/set;
 *   - shmem_signal_fetch; shmem_signal_add from every PE to every PE's
 *     signal at once (the total is exact, with carries past 32 bits), then
 *     shmem_signal_set overwriting it;
 *   - the ctx forms on a created context, and on team contexts (a reversed
 *     team and an odd-PEs team) where PE numbers are team numbers;
 *   - an empty payload still delivers its signal.
 * Run with the argument "bad-sig-op", it calls shmem_putmem_signal with an
 * invalid sig_op, which must end the job with a message naming it.
 */
#include "pe_test.h"
#include <ushmem/types.h>

#if !PE_SPEC_AT_LEAST(1, 6)
int main(void)
{
    pe_test_init(); /* signal_set/add need OpenSHMEM 1.6 */
    return pe_test_finish();
}
#else

#define NELEM 5 /* elements per form */
#define NFORM 4 /* plain, ctx, nbi, ctx nbi */

enum { FAM_TYPED = 0, FAM_SIZED = 1, FAM_MEM = 2, FAM_GENERIC = 3, FAM_TEAM = 4 };

#define TYPE_INDEX(TYPE, TN) TI_##TN,
enum { USHMEM_RMA_TYPES(TYPE_INDEX) TI_COUNT };
#define SIZE_INDEX(B) SI_##B,
enum { USHMEM_RMA_SIZES(SIZE_INDEX) SI_COUNT };

/* Signals, one per family member, in static data (typed) and on the heap
 * (sized, mem): both segments get the signal. */
static uint64_t  sig_typed[TI_COUNT];
static uint64_t *sig_heap; /* [SI_COUNT] sized, [SI_COUNT] mem, then spares */

static uint64_t key(int from, int fam, int member, int form, int i)
{
    return pe_key((uint64_t)from, (uint64_t)fam, (uint64_t)member, (uint64_t)form, (uint64_t)i);
}

/* ---- typed: every standard RMA type, four forms ------------------------- */

#define DEFINE_TYPED(TYPE, TN)                                                                    \
    static TYPE typed_in_##TN[NFORM * NELEM];                                                     \
    static void send_typed_##TN(int to)                                                           \
    {                                                                                             \
        TYPE out[NFORM * NELEM];                                                                  \
        for (int f = 0; f < NFORM; f++)                                                           \
            for (int i = 0; i < NELEM; i++)                                                       \
                out[f * NELEM + i] = PE_VALUE(TYPE, key(pe_me, FAM_TYPED, TI_##TN, f, i));        \
        uint64_t *s = &sig_typed[TI_##TN];                                                        \
        TYPE     *d = typed_in_##TN;                                                              \
        shmem_##TN##_put_signal(d, out, NELEM, s, 1, SHMEM_SIGNAL_ADD, to);                       \
        shmem_ctx_##TN##_put_signal(SHMEM_CTX_DEFAULT, d + NELEM, out + NELEM, NELEM, s, 1,       \
                                    SHMEM_SIGNAL_ADD, to);                                        \
        for (int i = 0; i < 2 * NELEM; i++) /* the blocking forms' source: ours again */        \
            out[i] = 0;                                                                           \
        shmem_##TN##_put_signal_nbi(d + 2 * NELEM, out + 2 * NELEM, NELEM, s, 1,                  \
                                    SHMEM_SIGNAL_ADD, to);                                        \
        shmem_ctx_##TN##_put_signal_nbi(SHMEM_CTX_DEFAULT, d + 3 * NELEM, out + 3 * NELEM,        \
                                        NELEM, s, 1, SHMEM_SIGNAL_ADD, to);                       \
        shmem_quiet();                                                                            \
    }                                                                                             \
    static void check_typed_##TN(int from)                                                        \
    {                                                                                             \
        CHECK_EQ(shmem_signal_wait_until(&sig_typed[TI_##TN], SHMEM_CMP_EQ, NFORM),               \
                 (uint64_t)NFORM);                                                                \
        for (int f = 0; f < NFORM; f++)                                                           \
            for (int i = 0; i < NELEM; i++)                                                       \
                CHECK_EQ(typed_in_##TN[f * NELEM + i],                                            \
                         PE_VALUE(TYPE, key(from, FAM_TYPED, TI_##TN, f, i)));                    \
    }
USHMEM_RMA_TYPES(DEFINE_TYPED)

/* ---- sized: 8..128 bits, four forms ---------------------------------------- */

static unsigned char *sized_in; /* heap: [SI_COUNT][NFORM * NELEM * 16] */
#define SIZED_SLOT ((size_t)NFORM * NELEM * 16)

#define SEND_SIZED(B)                                                                             \
    {                                                                                             \
        const size_t   sz = (B) / 8, part = NELEM * sz;                                           \
        unsigned char  out[SIZED_SLOT];                                                           \
        unsigned char *d = sized_in + SI_##B * SIZED_SLOT;                                        \
        uint64_t      *s = &sig_heap[SI_##B];                                                     \
        for (int f = 0; f < NFORM; f++)                                                           \
            pe_fill_pattern(out + f * part, part, key(pe_me, FAM_SIZED, SI_##B, f, 0));           \
        shmem_put##B##_signal(d, out, NELEM, s, 1, SHMEM_SIGNAL_ADD, to);                         \
        shmem_ctx_put##B##_signal(SHMEM_CTX_DEFAULT, d + part, out + part, NELEM, s, 1,           \
                                  SHMEM_SIGNAL_ADD, to);                                          \
        shmem_put##B##_signal_nbi(d + 2 * part, out + 2 * part, NELEM, s, 1, SHMEM_SIGNAL_ADD,    \
                                  to);                                                            \
        shmem_ctx_put##B##_signal_nbi(SHMEM_CTX_DEFAULT, d + 3 * part, out + 3 * part, NELEM, s,  \
                                      1, SHMEM_SIGNAL_ADD, to);                                   \
        shmem_quiet();                                                                            \
    }
#define CHECK_SIZED(B)                                                                            \
    {                                                                                             \
        const size_t part = NELEM * ((B) / 8);                                                    \
        CHECK_EQ(shmem_signal_wait_until(&sig_heap[SI_##B], SHMEM_CMP_EQ, NFORM),                 \
                 (uint64_t)NFORM);                                                                \
        for (int f = 0; f < NFORM; f++)                                                           \
            pe_check_pattern(__FILE__, __LINE__, "put" #B "_signal",                              \
                             sized_in + SI_##B * SIZED_SLOT + f * part, part,                     \
                             key(from, FAM_SIZED, SI_##B, f, 0));                                 \
    }

static void send_sized(int to)
{
    USHMEM_RMA_SIZES(SEND_SIZED)
}

static void check_sized(int from)
{
    USHMEM_RMA_SIZES(CHECK_SIZED)
}

/* ---- putmem: odd byte counts, four forms ---------------------------------- */

#define MEM_LEN 37
static unsigned char mem_in[NFORM * MEM_LEN];

static void send_mem(int to)
{
    unsigned char out[NFORM * MEM_LEN];
    uint64_t     *s = &sig_heap[SI_COUNT];
    for (int f = 0; f < NFORM; f++)
        pe_fill_pattern(out + f * MEM_LEN, MEM_LEN, key(pe_me, FAM_MEM, 0, f, 0));
    shmem_putmem_signal(mem_in, out, MEM_LEN, s, 1, SHMEM_SIGNAL_ADD, to);
    shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, mem_in + MEM_LEN, out + MEM_LEN, MEM_LEN, s, 1,
                            SHMEM_SIGNAL_ADD, to);
    shmem_putmem_signal_nbi(mem_in + 2 * MEM_LEN, out + 2 * MEM_LEN, MEM_LEN, s, 1,
                            SHMEM_SIGNAL_ADD, to);
    shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, mem_in + 3 * MEM_LEN, out + 3 * MEM_LEN,
                                MEM_LEN, s, 1, SHMEM_SIGNAL_ADD, to);
    shmem_quiet();
}

static void check_mem(int from)
{
    CHECK_EQ(shmem_signal_wait_until(&sig_heap[SI_COUNT], SHMEM_CMP_EQ, NFORM), (uint64_t)NFORM);
    for (int f = 0; f < NFORM; f++)
        pe_check_pattern(__FILE__, __LINE__, "putmem_signal", mem_in + f * MEM_LEN, MEM_LEN,
                         key(from, FAM_MEM, 0, f, 0));
}

/* ---- C11 generics on a few types ------------------------------------------------ */

static long          gen_long[NFORM * NELEM];
static double        gen_double[NFORM * NELEM];
static unsigned char gen_uchar[NFORM * NELEM];
static uint64_t      sig_generic[3];

#define GEN_SEND(arr, TYPE, idx)                                                                  \
    {                                                                                             \
        TYPE out[NFORM * NELEM];                                                                  \
        for (int f = 0; f < NFORM; f++)                                                           \
            for (int i = 0; i < NELEM; i++)                                                       \
                out[f * NELEM + i] = PE_VALUE(TYPE, key(pe_me, FAM_GENERIC, idx, f, i));          \
        uint64_t *s = &sig_generic[idx];                                                          \
        shmem_put_signal(arr, out, NELEM, s, 10, SHMEM_SIGNAL_ADD, to);                           \
        shmem_put_signal(ctx, arr + NELEM, out + NELEM, NELEM, s, 20, SHMEM_SIGNAL_ADD, to);      \
        shmem_put_signal_nbi(arr + 2 * NELEM, out + 2 * NELEM, NELEM, s, 30, SHMEM_SIGNAL_ADD,    \
                             to);                                                                 \
        shmem_put_signal_nbi(ctx, arr + 3 * NELEM, out + 3 * NELEM, NELEM, s, 40,                 \
                             SHMEM_SIGNAL_ADD, to);                                               \
        shmem_ctx_quiet(ctx);                                                                     \
        shmem_quiet();                                                                            \
    }
#define GEN_CHECK(arr, TYPE, idx)                                                                 \
    {                                                                                             \
        CHECK_EQ(shmem_signal_wait_until(&sig_generic[idx], SHMEM_CMP_GE, 100), (uint64_t)100);   \
        for (int f = 0; f < NFORM; f++)                                                           \
            for (int i = 0; i < NELEM; i++)                                                       \
                CHECK_EQ(arr[f * NELEM + i], PE_VALUE(TYPE, key(from, FAM_GENERIC, idx, f, i)));  \
    }

static void generics(shmem_ctx_t ctx, int to, int from)
{
    GEN_SEND(gen_long, long, 0)
    GEN_SEND(gen_double, double, 1)
    GEN_SEND(gen_uchar, unsigned char, 2)
    GEN_CHECK(gen_long, long, 0)
    GEN_CHECK(gen_double, double, 1)
    GEN_CHECK(gen_uchar, unsigned char, 2)
}

/* ---- signal_add from everyone, then signal_set ---------------------------------- */

#define ADD_ROUNDS 50

static uint64_t sig_counter; /* static data */

static void concurrent_adds(shmem_ctx_t ctx)
{
    const int      me = pe_me, n = pe_npes;
    /* Carries past bit 32 and bit 63-ish values: both halves must add up. */
    const uint64_t mine = ((uint64_t)(me + 1) << 32) | (uint64_t)(me + 1);
    const uint64_t total =
        (uint64_t)ADD_ROUNDS * ((uint64_t)n * (uint64_t)(n + 1) / 2) * (((uint64_t)1 << 32) + 1);
    uint64_t *heap_counter = &sig_heap[SI_COUNT + 1];

    for (int r = 0; r < ADD_ROUNDS; r++) {
        for (int k = 0; k < n; k++) {
            const int t = (me + k) % n;
            /* Alternate the names, so every one of them takes part. */
            if (r % 2)
                shmem_signal_add(&sig_counter, mine, t);
            else
                shmem_ctx_signal_add(ctx, &sig_counter, mine, t);
            shmem_signal_add(ctx, heap_counter, mine, t); /* generic, ctx form */
        }
    }
    CHECK_EQ(shmem_signal_wait_until(&sig_counter, SHMEM_CMP_EQ, total), total);
    CHECK_EQ(shmem_signal_wait_until(heap_counter, SHMEM_CMP_GE, total), total);
    CHECK_EQ(shmem_signal_fetch(&sig_counter), total);
    CHECK_EQ(shmem_signal_fetch(heap_counter), total);
    shmem_barrier_all(); /* nobody adds any more */

    /* signal_set replaces the value wholesale. */
    const int      right = (me + 1) % n, left = (me + n - 1) % n;
    const uint64_t vset  = pe_key_bits(key(me, 9, 0, 0, 0));
    const uint64_t vleft = pe_key_bits(key(left, 9, 0, 0, 0));
    shmem_signal_set(&sig_counter, vset, right);
    shmem_ctx_signal_set(ctx, heap_counter, ~vset, right);
    CHECK_EQ(shmem_signal_wait_until(&sig_counter, SHMEM_CMP_EQ, vleft), vleft);
    CHECK_EQ(shmem_signal_wait_until(heap_counter, SHMEM_CMP_EQ, ~vleft), ~vleft);
    shmem_barrier_all();
    shmem_signal_set(SHMEM_CTX_DEFAULT, &sig_counter, 0, me); /* generic, ctx form */
    shmem_signal_set(heap_counter, 0, me);
    CHECK_EQ(shmem_signal_fetch(&sig_counter), (uint64_t)0);
    CHECK_EQ(shmem_signal_fetch(heap_counter), (uint64_t)0);
    shmem_barrier_all();
}

/* ---- team contexts: PE numbers are team numbers ------------------------------------ */

static long     team_in[2 * NELEM];
static uint64_t sig_team[2];

static void team_round(shmem_team_t team, int k)
{
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    const int   tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    const int   tright = (tme + 1) % tn, tleft = (tme + tn - 1) % tn;
    /* The world PE of the team's left neighbour, whom the payload names. */
    const int   wleft = shmem_team_translate_pe(team, tleft, SHMEM_TEAM_WORLD);
    long        out[NELEM];

    CHECK_EQ(shmem_team_create_ctx(team, 0, &ctx), 0);
    for (int i = 0; i < NELEM; i++)
        out[i] = (long)pe_key_bits(key(pe_me, FAM_TEAM, k, 0, i));
    shmem_ctx_long_put_signal(ctx, team_in + k * NELEM, out, NELEM, &sig_team[k], 7,
                              SHMEM_SIGNAL_SET, tright);
    memset(out, 0, sizeof(out));
    CHECK_EQ(shmem_signal_wait_until(&sig_team[k], SHMEM_CMP_NE, 0), (uint64_t)7);
    for (int i = 0; i < NELEM; i++)
        CHECK_EQ(team_in[k * NELEM + i], (long)pe_key_bits(key(wleft, FAM_TEAM, k, 0, i)));
    shmem_team_sync(team); /* everyone has seen exactly 7 */

    /* nbi with an ADD, then the 1.6 updates, all on the team context. */
    shmem_ctx_putmem_signal_nbi(ctx, team_in + k * NELEM, team_in + k * NELEM, 0, &sig_team[k],
                                5, SHMEM_SIGNAL_ADD, tright);
    shmem_ctx_quiet(ctx);
    CHECK_EQ(shmem_signal_wait_until(&sig_team[k], SHMEM_CMP_GE, 12), (uint64_t)12);
    shmem_team_sync(team);
    shmem_ctx_signal_set(ctx, &sig_team[k], (uint64_t)(1000 + tme), tright);
    CHECK_EQ(shmem_signal_wait_until(&sig_team[k], SHMEM_CMP_GE, 1000), (uint64_t)(1000 + tleft));
    shmem_team_sync(team);
    shmem_ctx_signal_add(ctx, &sig_team[k], 1, tleft);
    CHECK_EQ(shmem_signal_wait_until(&sig_team[k], SHMEM_CMP_EQ, (uint64_t)(1001 + tleft)),
             (uint64_t)(1001 + tleft));
    shmem_team_sync(team);
    shmem_ctx_destroy(ctx);
}

/* ---- the one fatal case --------------------------------------------------------------- */

static int bad_sig_op(void)
{
    static uint64_t s;
    static char     d[8];
    pe_section("invalid sig_op");
    shmem_putmem_signal(d, "abcdefg", 8, &s, 1, 7, pe_me);
    /* Not reached when the library checks sig_op. */
    printf("shmem_putmem_signal accepted sig_op 7\n");
    return 1;
}

int main(int argc, char **argv)
{
    pe_test_init();
    if (argc > 1 && strcmp(argv[1], "bad-sig-op") == 0)
        return bad_sig_op();

    const int me = pe_me, n = pe_npes;
    const int right = (me + 1) % n, left = (me + n - 1) % n;

    sig_heap = shmem_calloc(SI_COUNT + 4, sizeof(uint64_t));
    sized_in = shmem_calloc(SI_COUNT, SIZED_SLOT);
    CHECK(sig_heap != NULL);
    CHECK(sized_in != NULL);

    pe_section("typed put_signal, every RMA type");
#define RUN_TYPED(TYPE, TN) send_typed_##TN(right);
    USHMEM_RMA_TYPES(RUN_TYPED)
#define RUN_CHECK_TYPED(TYPE, TN) check_typed_##TN(left);
    USHMEM_RMA_TYPES(RUN_CHECK_TYPED)
    for (int t = 0; t < TI_COUNT; t++)
        CHECK_EQ(shmem_signal_fetch(&sig_typed[t]), (uint64_t)NFORM);

    pe_section("sized put_signal");
    send_sized(right);
    check_sized(left);

    pe_section("putmem_signal");
    send_mem(right);
    check_mem(left);
    shmem_barrier_all();

    pe_section("C11 generics on a created context");
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
    generics(ctx, right, left);
    shmem_barrier_all();

    pe_section("signal_add from every PE, then signal_set");
    concurrent_adds(ctx);

    pe_section("empty payload");
    shmem_ctx_putmem_signal(ctx, mem_in, mem_in, 0, &sig_counter, 42, SHMEM_SIGNAL_SET, right);
    CHECK_EQ(shmem_signal_wait_until(&sig_counter, SHMEM_CMP_EQ, 42), (uint64_t)42);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();

    pe_section("team contexts");
    shmem_team_t rev = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev), 0);
    if (n > 1)
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd), 0);
    team_round(rev, 0);
    if (odd != SHMEM_TEAM_INVALID)
        team_round(odd, 1);
    shmem_barrier_all();
    if (odd == SHMEM_TEAM_INVALID)
        CHECK_EQ(shmem_signal_fetch(&sig_team[1]), (uint64_t)0);
    else
        shmem_team_destroy(odd);
    shmem_team_destroy(rev);

    shmem_free(sized_in);
    shmem_free(sig_heap);
    return pe_test_finish();
}
#endif
