/*
 * The atomic memory operations of the API: blocking (fetch, set, swap,
 * compare_swap, [fetch_]inc, [fetch_]add, [fetch_]and/or/xor), the
 * non-blocking fetching _nbi forms and the deprecated 1.4 names, all
 * expanded from the type table. The internal layer works on 4- or 8-byte
 * bit patterns, so one path serves signed, unsigned and floating types.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "transport/ush_bits.h"

#include <string.h>

/* The internal layer has 4- and 8-byte atomics only. */
#define USH_AMO_SIZE_OK(T, N)                                                 \
    _Static_assert(sizeof(T) == 4 || sizeof(T) == 8,                          \
                   "shmem_" #N " atomics need a 4- or 8-byte type");
USHMEM_AMO_EXT_TYPES(USH_AMO_SIZE_OK)

/* ---- Checks and dispatch shared by every routine ---------------------------- */

static inline __attribute__((always_inline)) void
ush_amo_check(const char *routine, shmem_ctx_t ctx, const char *arg, const void *remote,
              size_t size, int pe)
{
    USH_CHECK_CTX(routine, ctx);
    USH_CHECK_CTX_PE(routine, ctx, pe);
    USH_CHECK_SYMM(routine, arg, remote, size);
    /* CPU atomics on a misaligned word are not atomic (or trap), and UCX
     * refuses them: every path gets the same answer here. */
    if (USH_UNLIKELY((uintptr_t)remote % size != 0)) ush_check_fail_align(routine, arg, remote, size);
}

/* The operands travel by value, as bit patterns (USH_AMO_BITS): a pointer
 * to a routine's own argument would make the compiler keep it in memory,
 * and cost the routine its tail call, only because the profiled path
 * (USH_PROF_DISPATCH) passes it on out of line. */
#define USH_AMO_BITS(T, v)                                                    \
    __extension__({                                                           \
        T ush_amo_v_ = (v);                                                   \
        ush_bits_load(&ush_amo_v_, sizeof(T));                                \
    })
/* The T whose bit pattern is bits. */
#define USH_AMO_VALUE(T, bits)                                                \
    __extension__({                                                           \
        T ush_amo_v_;                                                         \
        ush_bits_store(&ush_amo_v_, (bits), sizeof(T));                       \
        ush_amo_v_;                                                           \
    })

/* Blocking fetching atomic: the old value's bits. value and cond are
 * operands of `size` bytes (0 when op ignores them). */
static inline __attribute__((always_inline)) uint64_t
ush_api_amo_fetch_do(const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, const void *remote,
                     uint64_t value, uint64_t cond, size_t size, int pe)
{
    ush_amo_check(routine, ctx, op == USH_AMO_FETCH ? "source" : "dest", remote, size, pe);
    USH_PROF_PEER(size, ush_ctx_world_pe(ctx, pe));
    return ush_amo_fetch(ctx, op, (void *)remote, value, cond, size, pe);
}

USH_PROF_DISPATCH_RET(uint64_t, ush_api_amo_fetch,
                      (const char *routine, shmem_ctx_t ctx, ush_amo_op_t op,
                       const void *remote, uint64_t value, uint64_t cond, size_t size, int pe),
                      (routine, ctx, op, remote, value, cond, size, pe))

/* Non-fetching atomic. */
static inline __attribute__((always_inline)) void
ush_api_amo_post_do(const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, void *dest,
                    uint64_t value, size_t size, int pe)
{
    ush_amo_check(routine, ctx, "dest", dest, size, pe);
    USH_PROF_PEER(size, ush_ctx_world_pe(ctx, pe));
    ush_amo_post(ctx, op, dest, value, size, pe);
}

USH_PROF_DISPATCH(ush_api_amo_post,
                  (const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, void *dest,
                   uint64_t value, size_t size, int pe),
                  (routine, ctx, op, dest, value, size, pe))

/* Non-blocking fetching atomic: the old value lands in *fetch by the next
 * quiet on ctx. */
static inline __attribute__((always_inline)) void
ush_api_amo_nbi_do(const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, void *fetch,
                   const void *remote, uint64_t value, uint64_t cond, size_t size, int pe)
{
    ush_amo_check(routine, ctx, op == USH_AMO_FETCH ? "source" : "dest", remote, size, pe);
    USH_PROF_PEER(size, ush_ctx_world_pe(ctx, pe));
    ush_amo_fetch_nbi(ctx, op, fetch, (void *)remote, value, cond, size, pe);
}

USH_PROF_DISPATCH(ush_api_amo_nbi,
                  (const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, void *fetch,
                   const void *remote, uint64_t value, uint64_t cond, size_t size, int pe),
                  (routine, ctx, op, fetch, remote, value, cond, size, pe))

/* ---- Standard AMO types: inc, fetch_inc, add, fetch_add, compare_swap ------- */

/* inc is ADD of a 1 of the routine's own type. */
#define USH_AMO_STD(T, N)                                                                          \
    USH_API(T, shmem_##N##_atomic_fetch_inc)(T *dest, int pe)                                      \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_fetch_inc", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), 0, sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_fetch_inc)(shmem_ctx_t ctx, T *dest, int pe)                 \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_fetch_inc", ctx, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic_inc)(T *dest, int pe)                                         \
    { ush_api_amo_post("shmem_" #N "_atomic_inc", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_inc)(shmem_ctx_t ctx, T *dest, int pe)                    \
    { ush_api_amo_post("shmem_ctx_" #N "_atomic_inc", ctx, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_atomic_fetch_add)(T *dest, T value, int pe)                             \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_fetch_add", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_fetch_add)(shmem_ctx_t ctx, T *dest, T value, int pe)        \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_fetch_add", ctx, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic_add)(T *dest, T value, int pe)                                \
    { ush_api_amo_post("shmem_" #N "_atomic_add", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_add)(shmem_ctx_t ctx, T *dest, T value, int pe)           \
    { ush_api_amo_post("shmem_ctx_" #N "_atomic_add", ctx, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_atomic_compare_swap)(T *dest, T cond, T value, int pe)                  \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_compare_swap", SHMEM_CTX_DEFAULT, USH_AMO_CSWAP, dest, USH_AMO_BITS(T, value), USH_AMO_BITS(T, cond), sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_compare_swap)(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_compare_swap", ctx, USH_AMO_CSWAP, dest, USH_AMO_BITS(T, value), USH_AMO_BITS(T, cond), sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic_fetch_inc_nbi)(T *fetch, T *dest, int pe)                     \
    { ush_api_amo_nbi("shmem_" #N "_atomic_fetch_inc_nbi", SHMEM_CTX_DEFAULT, USH_AMO_ADD, fetch, dest, USH_AMO_BITS(T, 1), 0, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_fetch_inc_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_fetch_inc_nbi", ctx, USH_AMO_ADD, fetch, dest, USH_AMO_BITS(T, 1), 0, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_atomic_fetch_add_nbi)(T *fetch, T *dest, T value, int pe)            \
    { ush_api_amo_nbi("shmem_" #N "_atomic_fetch_add_nbi", SHMEM_CTX_DEFAULT, USH_AMO_ADD, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_fetch_add_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_fetch_add_nbi", ctx, USH_AMO_ADD, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_atomic_compare_swap_nbi)(T *fetch, T *dest, T cond, T value, int pe) \
    { ush_api_amo_nbi("shmem_" #N "_atomic_compare_swap_nbi", SHMEM_CTX_DEFAULT, USH_AMO_CSWAP, fetch, dest, USH_AMO_BITS(T, value), USH_AMO_BITS(T, cond), sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_compare_swap_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_compare_swap_nbi", ctx, USH_AMO_CSWAP, fetch, dest, USH_AMO_BITS(T, value), USH_AMO_BITS(T, cond), sizeof(T), pe); }

USHMEM_AMO_TYPES(USH_AMO_STD)

/* ---- Extended AMO types: fetch, set, swap (floats travel as bits) --------- */

#define USH_AMO_EXT(T, N)                                                                          \
    USH_API(T, shmem_##N##_atomic_fetch)(const T *source, int pe)                                  \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_fetch", SHMEM_CTX_DEFAULT, USH_AMO_FETCH, source, 0, 0, sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_fetch)(shmem_ctx_t ctx, const T *source, int pe)             \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_fetch", ctx, USH_AMO_FETCH, source, 0, 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic_set)(T *dest, T value, int pe)                                \
    { ush_api_amo_post("shmem_" #N "_atomic_set", SHMEM_CTX_DEFAULT, USH_AMO_SET, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_set)(shmem_ctx_t ctx, T *dest, T value, int pe)           \
    { ush_api_amo_post("shmem_ctx_" #N "_atomic_set", ctx, USH_AMO_SET, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_atomic_swap)(T *dest, T value, int pe)                                  \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_swap", SHMEM_CTX_DEFAULT, USH_AMO_SWAP, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_swap)(shmem_ctx_t ctx, T *dest, T value, int pe)             \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_swap", ctx, USH_AMO_SWAP, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic_fetch_nbi)(T *fetch, const T *source, int pe)                 \
    { ush_api_amo_nbi("shmem_" #N "_atomic_fetch_nbi", SHMEM_CTX_DEFAULT, USH_AMO_FETCH, fetch, source, 0, 0, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_fetch_nbi)(shmem_ctx_t ctx, T *fetch, const T *source, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_fetch_nbi", ctx, USH_AMO_FETCH, fetch, source, 0, 0, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_atomic_swap_nbi)(T *fetch, T *dest, T value, int pe)                 \
    { ush_api_amo_nbi("shmem_" #N "_atomic_swap_nbi", SHMEM_CTX_DEFAULT, USH_AMO_SWAP, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_swap_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_swap_nbi", ctx, USH_AMO_SWAP, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); }

USHMEM_AMO_EXT_TYPES(USH_AMO_EXT)

/* ---- Bitwise AMO types: and, or, xor --------------------------------------- */

/* OP is the routine-name suffix (_and), OPC the internal operation. */
#define USH_AMO_BIT_OP(T, N, OP, OPC)                                                              \
    USH_API(T, shmem_##N##_atomic_fetch##OP)(T *dest, T value, int pe)                             \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_atomic_fetch" #OP, SHMEM_CTX_DEFAULT, OPC, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(T, shmem_ctx_##N##_atomic_fetch##OP)(shmem_ctx_t ctx, T *dest, T value, int pe)        \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_ctx_" #N "_atomic_fetch" #OP, ctx, OPC, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_atomic##OP)(T *dest, T value, int pe)                                \
    { ush_api_amo_post("shmem_" #N "_atomic" #OP, SHMEM_CTX_DEFAULT, OPC, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic##OP)(shmem_ctx_t ctx, T *dest, T value, int pe)           \
    { ush_api_amo_post("shmem_ctx_" #N "_atomic" #OP, ctx, OPC, dest, USH_AMO_BITS(T, value), sizeof(T), pe); }    \
    USH_API(void, shmem_##N##_atomic_fetch##OP##_nbi)(T *fetch, T *dest, T value, int pe)          \
    { ush_api_amo_nbi("shmem_" #N "_atomic_fetch" #OP "_nbi", SHMEM_CTX_DEFAULT, OPC, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_atomic_fetch##OP##_nbi)(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    { ush_api_amo_nbi("shmem_ctx_" #N "_atomic_fetch" #OP "_nbi", ctx, OPC, fetch, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe); }

#define USH_AMO_BIT(T, N)                                                     \
    USH_AMO_BIT_OP(T, N, _and, USH_AMO_AND)                                   \
    USH_AMO_BIT_OP(T, N, _or, USH_AMO_OR)                                     \
    USH_AMO_BIT_OP(T, N, _xor, USH_AMO_XOR)

USHMEM_AMO_BIT_TYPES(USH_AMO_BIT)

/* ---- Deprecated (1.4) names: default context ----------------------------- */

#define USH_AMO_DEPR(T, N)                                                                         \
    USH_API(T, shmem_##N##_finc)(T *dest, int pe)                                                  \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_finc", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_inc)(T *dest, int pe)                                                \
    { ush_api_amo_post("shmem_" #N "_inc", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, 1), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_fadd)(T *dest, T value, int pe)                                         \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_fadd", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_add)(T *dest, T value, int pe)                                       \
    { ush_api_amo_post("shmem_" #N "_add", SHMEM_CTX_DEFAULT, USH_AMO_ADD, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_cswap)(T *dest, T cond, T value, int pe)                                \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_cswap", SHMEM_CTX_DEFAULT, USH_AMO_CSWAP, dest, USH_AMO_BITS(T, value), USH_AMO_BITS(T, cond), sizeof(T), pe)); }

USHMEM_AMO_DEPR_TYPES(USH_AMO_DEPR)

#define USH_AMO_DEPR_EXT(T, N)                                                                     \
    USH_API(T, shmem_##N##_fetch)(const T *source, int pe)                                         \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_fetch", SHMEM_CTX_DEFAULT, USH_AMO_FETCH, source, 0, 0, sizeof(T), pe)); } \
    USH_API(void, shmem_##N##_set)(T *dest, T value, int pe)                                       \
    { ush_api_amo_post("shmem_" #N "_set", SHMEM_CTX_DEFAULT, USH_AMO_SET, dest, USH_AMO_BITS(T, value), sizeof(T), pe); } \
    USH_API(T, shmem_##N##_swap)(T *dest, T value, int pe)                                         \
    { return USH_AMO_VALUE(T, ush_api_amo_fetch("shmem_" #N "_swap", SHMEM_CTX_DEFAULT, USH_AMO_SWAP, dest, USH_AMO_BITS(T, value), 0, sizeof(T), pe)); }

USHMEM_AMO_DEPR_EXT_TYPES(USH_AMO_DEPR_EXT)

/* SOS's shmemx_ names of the non-blocking fetching and bitwise atomics
 * (<shmemx.h>). */
USHMEM_X_LIST_AMO
