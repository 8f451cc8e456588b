/*
 * put/get/p/g of every standard RMA type between every ordered pair of PEs,
 * on the symmetric heap (plain and context (SHMEM_CTX_DEFAULT) names) and
 * on static data (plain names); then putmem/getmem and the sized put/get
 * 8..128.
 *
 * Layout: on every PE each typed array has one slot of NELEM elements per
 * source PE.  PE s writes slot s on every target t with values keyed by
 * (s, t, type, index, variant); after a barrier each PE checks every slot.
 * For gets, each owner fills slot r with values keyed for reader r, so a get
 * that reads the wrong PE, slot or offset sees the wrong key.
 */
#include "pe_test.h"
#include <ushmem/types.h>

#define MAX_PES 64 /* static arrays are sized for this many PEs */
#define NELEM   8 /* per slot on the heap: 2 put, 2 ctx put, 2 p, 2 ctx p */
#define Q       (NELEM / 4)

enum { KIND_PUT = 0, KIND_GET = 1 };
enum { SEG_HEAP = 0, SEG_STATIC = 1 };

/* One index per type, so every type's values differ. */
#define TYPE_INDEX(TYPE, TN) TI_##TN,
enum { USHMEM_RMA_TYPES(TYPE_INDEX) TI_COUNT };

static uint64_t key(int src, int dst, int type, int idx, int kind, int seg)
{
    return pe_key((uint64_t)src, (uint64_t)dst, (uint64_t)type, (uint64_t)idx,
                  (uint64_t)(kind * 2 + seg));
}

/* Per type: static put/get arrays and one routine that runs the exchange on
 * both segments. */
#define DEFINE_TYPE_TEST(TYPE, TN)                                                                \
    static TYPE static_put_##TN[MAX_PES * NELEM];                                                 \
    static TYPE static_src_##TN[MAX_PES * NELEM];                                                 \
                                                                                                  \
    static void test_##TN(void)                                                                   \
    {                                                                                             \
        const int me = pe_me, npes = pe_npes, ti = TI_##TN;                                       \
        TYPE     *heap_put = shmem_malloc(sizeof(TYPE) * NELEM * (size_t)npes);                   \
        TYPE     *heap_src = shmem_malloc(sizeof(TYPE) * NELEM * (size_t)npes);                   \
        TYPE     *put_arr[2] = {heap_put, static_put_##TN};                                       \
        TYPE     *src_arr[2] = {heap_src, static_src_##TN};                                       \
                                                                                                  \
        pe_section("rma " #TN);                                                                   \
        CHECK(heap_put != NULL);                                                                  \
        CHECK(heap_src != NULL);                                                                  \
        for (int seg = 0; seg < 2; seg++) {                                                       \
            memset(put_arr[seg], 0, sizeof(TYPE) * NELEM * (size_t)npes);                         \
            for (int r = 0; r < npes; r++)                                                        \
                for (int i = 0; i < NELEM; i++)                                                   \
                    src_arr[seg][r * NELEM + i] = PE_VALUE(TYPE, key(me, r, ti, i, KIND_GET, seg)); \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        for (int seg = 0; seg < 2; seg++) {                                                       \
            for (int k = 1; k <= npes; k++) {                                                     \
                const int t = (me + k) % npes; /* self last, spread the load */                   \
                TYPE      out[NELEM], in[NELEM];                                                  \
                TYPE     *dst = put_arr[seg] + me * NELEM;                                        \
                TYPE     *src = src_arr[seg] + me * NELEM;                                        \
                                                                                                  \
                for (int i = 0; i < NELEM; i++)                                                   \
                    out[i] = PE_VALUE(TYPE, key(me, t, ti, i, KIND_PUT, seg));                    \
                memset(in, 0, sizeof(in));                                                        \
                if (seg == SEG_HEAP) {                                                            \
                    shmem_##TN##_put(dst, out, Q, t);                                             \
                    shmem_ctx_##TN##_put(SHMEM_CTX_DEFAULT, dst + Q, out + Q, Q, t);              \
                    for (int i = 2 * Q; i < 3 * Q; i++)                                           \
                        shmem_##TN##_p(dst + i, out[i], t);                                       \
                    for (int i = 3 * Q; i < NELEM; i++)                                           \
                        shmem_ctx_##TN##_p(SHMEM_CTX_DEFAULT, dst + i, out[i], t);                \
                } else { /* static data: the same translation, fewer calls */                     \
                    shmem_##TN##_put(dst, out, NELEM - 1, t);                                     \
                    shmem_##TN##_p(dst + NELEM - 1, out[NELEM - 1], t);                           \
                }                                                                                 \
                /* The source may be reused as soon as a blocking put returns. */                 \
                memset(out, 0, sizeof(out));                                                      \
                if (seg == SEG_HEAP) {                                                            \
                    shmem_##TN##_get(in, src, Q, t);                                              \
                    shmem_ctx_##TN##_get(SHMEM_CTX_DEFAULT, in + Q, src + Q, Q, t);               \
                    for (int i = 2 * Q; i < 3 * Q; i++)                                           \
                        in[i] = shmem_##TN##_g(src + i, t);                                       \
                    for (int i = 3 * Q; i < NELEM; i++)                                           \
                        in[i] = shmem_ctx_##TN##_g(SHMEM_CTX_DEFAULT, src + i, t);                \
                } else {                                                                          \
                    shmem_##TN##_get(in, src, NELEM - 1, t);                                      \
                    in[NELEM - 1] = shmem_##TN##_g(src + NELEM - 1, t);                           \
                }                                                                                 \
                for (int i = 0; i < NELEM; i++)                                                   \
                    CHECK_EQ(in[i], PE_VALUE(TYPE, key(t, me, ti, i, KIND_GET, seg)));            \
            }                                                                                     \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
                                                                                                  \
        for (int seg = 0; seg < 2; seg++)                                                         \
            for (int s = 0; s < npes; s++)                                                        \
                for (int i = 0; i < NELEM; i++)                                                   \
                    CHECK_EQ(put_arr[seg][s * NELEM + i],                                         \
                             PE_VALUE(TYPE, key(s, me, ti, i, KIND_PUT, seg)));                   \
        shmem_free(heap_src);                                                                     \
        shmem_free(heap_put);                                                                     \
    }

USHMEM_RMA_TYPES(DEFINE_TYPE_TEST)

/* ---- untyped transfers: putmem/getmem and put/get SIZE ------------------- */

#define MEM_SLOT 64 /* bytes per source PE; 4 elements of 128 bits */
#define MEM_ELEMS 4

enum { OP_MEM = 0, OP_8, OP_16, OP_32, OP_64, OP_128 };

static _Alignas(16) unsigned char static_mem_put[MAX_PES * MEM_SLOT];
static _Alignas(16) unsigned char static_mem_src[MAX_PES * MEM_SLOT];

static uint64_t mem_seed(int src, int dst, int op, int kind, int seg)
{
    return pe_key((uint64_t)src, (uint64_t)dst, 1000u + (uint64_t)op, (uint64_t)kind,
                  (uint64_t)seg);
}

/* Bytes each op moves: putmem moves an odd count to catch rounding to
 * words; the sized ones move MEM_ELEMS elements and must leave the rest of
 * the slot alone, which catches a wrong element size. */
static size_t op_bytes(int op)
{
    static const size_t bytes[] = {37, MEM_ELEMS * 1, MEM_ELEMS * 2, MEM_ELEMS * 4,
                                   MEM_ELEMS * 8, MEM_ELEMS * 16};
    return bytes[op];
}

static void do_put(int op, void *dst, const void *src, int pe)
{
    switch (op) {
    case OP_MEM: shmem_putmem(dst, src, op_bytes(op), pe); break;
#define PUT_SIZE(BITS)                                                                            \
    case OP_##BITS: shmem_put##BITS(dst, src, MEM_ELEMS, pe); break;
        USHMEM_RMA_SIZES(PUT_SIZE)
#undef PUT_SIZE
    }
}

static void do_get(int op, void *dst, const void *src, int pe)
{
    switch (op) {
    case OP_MEM: shmem_getmem(dst, src, op_bytes(op), pe); break;
#define GET_SIZE(BITS)                                                                            \
    case OP_##BITS: shmem_get##BITS(dst, src, MEM_ELEMS, pe); break;
        USHMEM_RMA_SIZES(GET_SIZE)
#undef GET_SIZE
    }
}

static void test_mem(void)
{
    const int      me = pe_me, npes = pe_npes;
    unsigned char *heap_put = shmem_malloc(MEM_SLOT * (size_t)npes);
    unsigned char *heap_src = shmem_malloc(MEM_SLOT * (size_t)npes);
    unsigned char *put_arr[2] = {heap_put, static_mem_put};
    unsigned char *src_arr[2] = {heap_src, static_mem_src};

    CHECK(heap_put != NULL);
    CHECK(heap_src != NULL);
    for (int op = OP_MEM; op <= OP_128; op++) {
        size_t n = op_bytes(op);

        pe_section(op == OP_MEM ? "putmem/getmem" : "put/get SIZE");
        for (int seg = 0; seg < 2; seg++) {
            memset(put_arr[seg], 0, MEM_SLOT * (size_t)npes);
            for (int r = 0; r < npes; r++)
                pe_fill_pattern(src_arr[seg] + r * MEM_SLOT, MEM_SLOT,
                                mem_seed(me, r, op, KIND_GET, seg));
        }
        shmem_barrier_all();

        for (int seg = 0; seg < 2; seg++) {
            for (int k = 1; k <= npes; k++) {
                const int               t = (me + k) % npes;
                _Alignas(16) unsigned char out[MEM_SLOT], in[MEM_SLOT];

                pe_fill_pattern(out, n, mem_seed(me, t, op, KIND_PUT, seg));
                do_put(op, put_arr[seg] + me * MEM_SLOT, out, t);

                memset(in, 0, sizeof(in));
                do_get(op, in, src_arr[seg] + me * MEM_SLOT, t);
                CHECK_PATTERN(in, n, mem_seed(t, me, op, KIND_GET, seg));
                CHECK_FILLED(in + n, MEM_SLOT - n, 0);
            }
        }
        shmem_barrier_all();

        for (int seg = 0; seg < 2; seg++) {
            for (int s = 0; s < npes; s++) {
                unsigned char *slot = put_arr[seg] + s * MEM_SLOT;
                CHECK_PATTERN(slot, n, mem_seed(s, me, op, KIND_PUT, seg));
                CHECK_FILLED(slot + n, MEM_SLOT - n, 0);
            }
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
            fprintf(stderr, "rma_types: built for at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
#define RUN_TYPE_TEST(TYPE, TN) test_##TN();
    USHMEM_RMA_TYPES(RUN_TYPE_TEST)
    test_mem();
    return pe_test_finish();
}
