/*
 * Strided RMA: iput/iget with several stride pairs (equal, different source
 * and target strides, nelems 0 and 1) for several types and for the sized
 * iput/iget 8..128; with a 1.6 header also ibput/ibget (blocks of bsize
 * elements).
 *
 * Every source position holds a distinct value, so a transfer that ignores
 * or swaps a stride picks the wrong values; every target position that must
 * not be written is checked to still be zero.  Each PE transfers to and
 * from itself and its right neighbour; combos alternate between the heap
 * and static data.  (Strided calls may cost one round trip per element, so
 * the pairs and types are few; rma_types covers every pair and type.)
 *
 * ibput/ibget strides: the 1.6 text calls dst/sst "the stride between
 * consecutive elements"; the proposal's authors (spec issue #556, SOS) read
 * them as the distance in elements between the starts of consecutive
 * blocks, >= bsize.  This test uses that reading: block b of bsize elements
 * goes from source[b * sst] to dest[b * dst].  With bsize 1 both readings
 * agree.
 */
#include "pe_test.h"
#include <ushmem/types.h>

#define MAX_PES 64
#define SLOT    32 /* elements per source PE, enough for every combo below */

typedef struct {
    ptrdiff_t tst, sst;   /* target (dest) and source strides, in elements */
    size_t    bsize;      /* elements per block; 1 for iput/iget */
    size_t    nblocks;    /* blocks; nelems for iput/iget */
} combo_t;

static const combo_t combos[] = {
    {1, 1, 1, 5}, {2, 2, 1, 4}, {3, 3, 1, 3}, {1, 3, 1, 4},
    {3, 1, 1, 4}, {2, 5, 1, 3}, {7, 2, 1, 1}, {2, 3, 1, 0}, /* iput/iget */
    {2, 2, 2, 3}, {3, 2, 2, 3}, {2, 5, 2, 2}, {5, 3, 3, 2}, {6, 3, 2, 3},
};
#define NCOMBOS ((int)(sizeof(combos) / sizeof(combos[0])))

enum { KIND_PUT = 0, KIND_GET = 1 };
enum { API_I = 0, API_IB = 1 };

#if PE_SPEC_AT_LEAST(1, 6)
#define HAVE_IB 1
#else
#define HAVE_IB 0
#endif

/* Is dest position p written by combo c, and from which source position? */
static int written(const combo_t *c, int p, int *src_pos)
{
    size_t b = (size_t)p / (size_t)c->tst, j = (size_t)p % (size_t)c->tst;
    if (b >= c->nblocks || j >= c->bsize)
        return 0;
    *src_pos = (int)(b * (size_t)c->sst + j);
    return 1;
}

/* PE me transfers to targets[0..ntargets): itself and its right neighbour;
 * so slot s on PE me is written by s == me and s == left only. */
static int targets(int *t)
{
    t[0] = pe_me;
    t[1] = (pe_me + 1) % pe_npes;
    return pe_npes > 1 ? 2 : 1;
}

static int writes_to_me(int s)
{
    return s == pe_me || s == (pe_me + pe_npes - 1) % pe_npes;
}

static uint64_t key(int src, int dst, int type, int combo, int pos, int kind, int seg)
{
    return pe_key((uint64_t)src, (uint64_t)dst, (uint64_t)type,
                  (uint64_t)combo * 64 + (uint64_t)pos, (uint64_t)(kind * 2 + seg));
}

/* One type of each element size and class (the sized routines repeat the
 * sizes); the whole type table is covered by rma_types. */
#define STRIDED_TYPES(X)                                                                          \
    X(char, char)                                                                                 \
    X(int, int)                                                                                   \
    X(double, double)                                                                             \
    X(long double, longdouble)

#define TYPE_INDEX(TYPE, TN) TI_##TN,
enum { STRIDED_TYPES(TYPE_INDEX) TI_COUNT };

#if HAVE_IB
#define IB_PUT(TN, d, s, c, pe)                                                                   \
    shmem_##TN##_ibput(d, s, (c)->tst, (c)->sst, (c)->bsize, (c)->nblocks, pe)
#define IB_GET(TN, d, s, c, pe)                                                                   \
    shmem_##TN##_ibget(d, s, (c)->tst, (c)->sst, (c)->bsize, (c)->nblocks, pe)
#else
#define IB_PUT(TN, d, s, c, pe) pe_fail(__FILE__, __LINE__, "ibput", "1.6 header", "older")
#define IB_GET(TN, d, s, c, pe) pe_fail(__FILE__, __LINE__, "ibget", "1.6 header", "older")
#endif

#define DEFINE_TYPE_TEST(TYPE, TN)                                                                \
    static TYPE static_put_##TN[MAX_PES * SLOT];                                                  \
    static TYPE static_src_##TN[MAX_PES * SLOT];                                                  \
                                                                                                  \
    static void run_##TN(TYPE *put_arr[2], TYPE *src_arr[2], int api, int ci)                     \
    {                                                                                             \
        const int      me = pe_me, npes = pe_npes, ti = TI_##TN, seg = ci % 2;                    \
        const combo_t *c  = &combos[ci];                                                          \
        int            sp, tgt[2], nt = targets(tgt);                                             \
        TYPE          *put = put_arr[seg], *srcs = src_arr[seg];                                  \
                                                                                                  \
        memset(put, 0, sizeof(TYPE) * SLOT * (size_t)npes);                                       \
        for (int r = 0; r < npes; r++)                                                            \
            for (int p = 0; p < SLOT; p++)                                                        \
                srcs[r * SLOT + p] = PE_VALUE(TYPE, key(me, r, ti, ci, p, KIND_GET, seg));        \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        for (int k = 0; k < nt; k++) {                                                            \
            const int t = tgt[k];                                                                 \
            TYPE      out[SLOT], in[SLOT];                                                        \
            TYPE     *dst = put + me * SLOT, *src = srcs + me * SLOT;                             \
                                                                                                  \
            for (int p = 0; p < SLOT; p++)                                                        \
                out[p] = PE_VALUE(TYPE, key(me, t, ti, ci, p, KIND_PUT, seg));                    \
            memset(in, 0, sizeof(in));                                                            \
            if (api == API_I) {                                                                   \
                shmem_##TN##_iput(dst, out, c->tst, c->sst, c->nblocks, t);                       \
                shmem_##TN##_iget(in, src, c->tst, c->sst, c->nblocks, t);                        \
            } else {                                                                              \
                IB_PUT(TN, dst, out, c, t);                                                       \
                IB_GET(TN, in, src, c, t);                                                        \
            }                                                                                     \
            for (int p = 0; p < SLOT; p++) {                                                      \
                if (written(c, p, &sp))                                                           \
                    CHECK_EQ(in[p], PE_VALUE(TYPE, key(t, me, ti, ci, sp, KIND_GET, seg)));       \
                else                                                                              \
                    CHECK_EQ(in[p], 0);                                                           \
            }                                                                                     \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        for (int s = 0; s < npes; s++)                                                            \
            for (int p = 0; p < SLOT; p++) {                                                      \
                TYPE got = put[s * SLOT + p];                                                     \
                if (writes_to_me(s) && written(c, p, &sp))                                        \
                    CHECK_EQ(got, PE_VALUE(TYPE, key(s, me, ti, ci, sp, KIND_PUT, seg)));         \
                else                                                                              \
                    CHECK_EQ(got, 0);                                                             \
            }                                                                                     \
    }                                                                                             \
                                                                                                  \
    static void test_##TN(void)                                                                   \
    {                                                                                             \
        TYPE *heap_put = shmem_malloc(sizeof(TYPE) * SLOT * (size_t)pe_npes);                     \
        TYPE *heap_src = shmem_malloc(sizeof(TYPE) * SLOT * (size_t)pe_npes);                     \
        TYPE *put_arr[2] = {heap_put, static_put_##TN};                                           \
        TYPE *src_arr[2] = {heap_src, static_src_##TN};                                           \
                                                                                                  \
        CHECK(heap_put != NULL);                                                                  \
        CHECK(heap_src != NULL);                                                                  \
        pe_section("iput/iget " #TN);                                                             \
        for (int ci = 0; ci < NCOMBOS; ci++)                                                      \
            if (combos[ci].bsize == 1)                                                            \
                run_##TN(put_arr, src_arr, API_I, ci);                                            \
        if (HAVE_IB) {                                                                            \
            pe_section("ibput/ibget " #TN);                                                       \
            for (int ci = 0; ci < NCOMBOS; ci++)                                                  \
                run_##TN(put_arr, src_arr, API_IB, ci);                                           \
        }                                                                                         \
        shmem_free(heap_src);                                                                     \
        shmem_free(heap_put);                                                                     \
    }

STRIDED_TYPES(DEFINE_TYPE_TEST)

/* ---- sized: iputSIZE/igetSIZE (and ibputSIZE/ibgetSIZE) ----------------- */

static _Alignas(16) unsigned char static_put_bytes[MAX_PES * SLOT * 16];
static _Alignas(16) unsigned char static_src_bytes[MAX_PES * SLOT * 16];

static void sized_xfer(int bits, int api, int kind, void *dst, const void *src, const combo_t *c,
                       int pe)
{
    switch (bits * 4 + api * 2 + kind) {
#define SIZED_CASES(BITS)                                                                         \
    case BITS * 4 + API_I * 2 + KIND_PUT:                                                         \
        shmem_iput##BITS(dst, src, c->tst, c->sst, c->nblocks, pe);                               \
        break;                                                                                    \
    case BITS * 4 + API_I * 2 + KIND_GET:                                                         \
        shmem_iget##BITS(dst, src, c->tst, c->sst, c->nblocks, pe);                               \
        break;
        USHMEM_RMA_SIZES(SIZED_CASES)
#undef SIZED_CASES
#if HAVE_IB
#define SIZED_IB_CASES(BITS)                                                                      \
    case BITS * 4 + API_IB * 2 + KIND_PUT:                                                        \
        shmem_ibput##BITS(dst, src, c->tst, c->sst, c->bsize, c->nblocks, pe);                    \
        break;                                                                                    \
    case BITS * 4 + API_IB * 2 + KIND_GET:                                                        \
        shmem_ibget##BITS(dst, src, c->tst, c->sst, c->bsize, c->nblocks, pe);                    \
        break;
        USHMEM_RMA_SIZES(SIZED_IB_CASES)
#undef SIZED_IB_CASES
#endif
    default:
        CHECK_MSG(0, "no routine for %d bits, api %d", bits, api);
    }
}

static uint64_t elem_seed(int src, int dst, int bits, int ci, int pos, int kind, int seg)
{
    return key(src, dst, 100 + bits, ci, pos, kind, seg);
}

static void check_elems(const unsigned char *buf, size_t es, const combo_t *c, int src, int dst,
                        int bits, int ci, int kind, int seg)
{
    int sp;
    for (int p = 0; p < SLOT; p++) {
        if (written(c, p, &sp))
            CHECK_PATTERN(buf + (size_t)p * es, es, elem_seed(src, dst, bits, ci, sp, kind, seg));
        else
            CHECK_FILLED(buf + (size_t)p * es, es, 0);
    }
}

static void run_sized(unsigned char *put_arr[2], unsigned char *src_arr[2], int bits, int api,
                      int ci)
{
    const int      me = pe_me, npes = pe_npes, seg = ci % 2;
    const size_t   es = (size_t)bits / 8, slot = SLOT * es;
    const combo_t *c = &combos[ci];
    unsigned char *put = put_arr[seg], *srcs = src_arr[seg];
    int            tgt[2], nt = targets(tgt);

    memset(put, 0, slot * (size_t)npes);
    for (int r = 0; r < npes; r++)
        for (int p = 0; p < SLOT; p++)
            pe_fill_pattern(srcs + r * slot + (size_t)p * es, es,
                            elem_seed(me, r, bits, ci, p, KIND_GET, seg));
    shmem_barrier_all();

    for (int k = 0; k < nt; k++) {
        const int                  t = tgt[k];
        _Alignas(16) unsigned char out[SLOT * 16], in[SLOT * 16];

        for (int p = 0; p < SLOT; p++)
            pe_fill_pattern(out + (size_t)p * es, es, elem_seed(me, t, bits, ci, p, KIND_PUT, seg));
        memset(in, 0, sizeof(in));
        sized_xfer(bits, api, KIND_PUT, put + me * slot, out, c, t);
        sized_xfer(bits, api, KIND_GET, in, srcs + me * slot, c, t);
        check_elems(in, es, c, t, me, bits, ci, KIND_GET, seg);
    }
    shmem_barrier_all();

    for (int s = 0; s < npes; s++) {
        if (writes_to_me(s))
            check_elems(put + s * slot, es, c, s, me, bits, ci, KIND_PUT, seg);
        else
            CHECK_FILLED(put + s * slot, slot, 0);
    }
}

static void test_sized(void)
{
    unsigned char *heap_put = shmem_malloc(SLOT * 16 * (size_t)pe_npes);
    unsigned char *heap_src = shmem_malloc(SLOT * 16 * (size_t)pe_npes);
    unsigned char *put_arr[2] = {heap_put, static_put_bytes};
    unsigned char *src_arr[2] = {heap_src, static_src_bytes};
    static const int sizes[] = {
#define SIZE_ENTRY(BITS) BITS,
        USHMEM_RMA_SIZES(SIZE_ENTRY)
#undef SIZE_ENTRY
    };

    CHECK(heap_put != NULL);
    CHECK(heap_src != NULL);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        pe_section("iputSIZE/igetSIZE");
        for (int ci = 0; ci < NCOMBOS; ci++)
            if (combos[ci].bsize == 1)
                run_sized(put_arr, src_arr, sizes[si], API_I, ci);
        if (HAVE_IB) {
            pe_section("ibputSIZE/ibgetSIZE");
            for (int ci = 0; ci < NCOMBOS; ci++)
                run_sized(put_arr, src_arr, sizes[si], API_IB, ci);
        }
    }
    shmem_free(heap_src);
    shmem_free(heap_put);
}

int main(void)
{
    pe_test_init();
    if (pe_npes > MAX_PES) {
        if (pe_me == 0)
            fprintf(stderr, "rma_strided: built for at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    if (!HAVE_IB)
        pe_section("header older than 1.6: ibput/ibget not tested");
#define RUN_TYPE_TEST(TYPE, TN) test_##TN();
    STRIDED_TYPES(RUN_TYPE_TEST)
    test_sized();
    return pe_test_finish();
}
