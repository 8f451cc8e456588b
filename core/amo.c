/*
 * The internal atomics layer. A peer segment that is mapped here gets CPU
 * atomics of the operation's width when those are coherent with every other
 * path to that memory (ush_tp_direct_amo); everything else goes to UCX. The
 * choice depends only on (pe, segment), so one object never sees both.
 */
#include "ush.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_bits.h"
#include "transport/ush_tp.h"

static const ush_tp_amo_t ush_amo_tp_op[] = {
    [USH_AMO_FETCH] = USH_TP_AMO_OR,    /* or 0: fetch without change */
    [USH_AMO_SET]   = USH_TP_AMO_SWAP,
    [USH_AMO_SWAP]  = USH_TP_AMO_SWAP,
    [USH_AMO_CSWAP] = USH_TP_AMO_CSWAP,
    [USH_AMO_ADD]   = USH_TP_AMO_ADD,
    [USH_AMO_AND]   = USH_TP_AMO_AND,
    [USH_AMO_OR]    = USH_TP_AMO_OR,
    [USH_AMO_XOR]   = USH_TP_AMO_XOR,
};

/* Sequentially consistent, every one: the collectives' sync words, the
 * barrier's flags off the all-mapped path and the locks argue from it
 * (docs/design.md, "Memory ordering"), and for the read-modify-writes it
 * costs nothing more on x86, where every locked instruction is a full
 * barrier. SET is a seq_cst store (an xchg on x86); after ush_fence, as in
 * put_signal, a release store would do, but one rule for every caller is
 * kept until each caller's argument is redone for a weaker one. */
#define USH_CPU_AMO(T, p, op, value, cond)                                          \
    ({                                                                              \
        T *p_ = (T *)(p), v_ = (T)(value), c_ = (T)(cond), old_;                    \
        switch (op) {                                                               \
        case USH_AMO_FETCH: old_ = __atomic_load_n(p_, __ATOMIC_SEQ_CST); break;    \
        case USH_AMO_SET:   __atomic_store_n(p_, v_, __ATOMIC_SEQ_CST); old_ = 0; break; \
        case USH_AMO_SWAP:  old_ = __atomic_exchange_n(p_, v_, __ATOMIC_SEQ_CST); break; \
        case USH_AMO_CSWAP:                                                         \
            old_ = c_;                                                              \
            __atomic_compare_exchange_n(p_, &old_, v_, 0, __ATOMIC_SEQ_CST,         \
                                        __ATOMIC_SEQ_CST);                          \
            break;                                                                  \
        case USH_AMO_ADD:   old_ = __atomic_fetch_add(p_, v_, __ATOMIC_SEQ_CST); break; \
        case USH_AMO_AND:   old_ = __atomic_fetch_and(p_, v_, __ATOMIC_SEQ_CST); break; \
        case USH_AMO_OR:    old_ = __atomic_fetch_or(p_, v_, __ATOMIC_SEQ_CST); break;  \
        default:            old_ = __atomic_fetch_xor(p_, v_, __ATOMIC_SEQ_CST); break; \
        }                                                                           \
        (uint64_t) old_;                                                            \
    })

/* Segment and offset of dest; *pe becomes a world PE. The mapped address
 * when CPU atomics serve it, else NULL. */
static inline char *ush_amo_target(shmem_ctx_t ctx, void *dest, size_t size, int *pe, int *seg,
                                   size_t *off)
{
    *pe  = ush_ctx_world_pe(ctx, *pe);
    *seg = ush_seg_find(dest, size, off);
    if (__builtin_expect(*seg < 0, 0)) {
        ush_fatal("atomic", "address %p is not in symmetric memory", dest);
    }
    return ush_tp_direct_amo ? ush_tp_mapped(*pe, *seg) : NULL;
}

static inline uint64_t ush_cpu_amo(char *p, ush_amo_op_t op, uint64_t value, uint64_t cond,
                                   size_t size)
{
    return size == 4 ? USH_CPU_AMO(uint32_t, p, op, value, cond)
                     : USH_CPU_AMO(uint64_t, p, op, value, cond);
}

uint64_t ush_amo_fetch(shmem_ctx_t ctx, ush_amo_op_t op, void *dest, uint64_t value,
                       uint64_t cond, size_t size, int pe)
{
    int    seg;
    size_t off;
    char  *map = ush_amo_target(ctx, dest, size, &pe, &seg, &off);
    if (map) {
        uint64_t old = ush_cpu_amo(map + off, op, value, cond, size);
        if (op != USH_AMO_FETCH) ush_wake(pe);
        return old;
    }
    return ush_tp_amo_fetch(ctx->tp, ush_amo_tp_op[op], pe, seg, off,
                            op == USH_AMO_FETCH ? 0 : value, cond, size);
}

void ush_amo_post(shmem_ctx_t ctx, ush_amo_op_t op, void *dest, uint64_t value, size_t size,
                  int pe)
{
    int    seg;
    size_t off;
    char  *map = ush_amo_target(ctx, dest, size, &pe, &seg, &off);
    if (map) {
        (void)ush_cpu_amo(map + off, op, value, 0, size);
        ush_wake(pe);
        return;
    }
    ush_tp_amo_post(ctx->tp, ush_amo_tp_op[op], pe, seg, off, value, size);
}

void ush_amo_fetch_nbi(shmem_ctx_t ctx, ush_amo_op_t op, void *fetch, void *dest,
                       uint64_t value, uint64_t cond, size_t size, int pe)
{
    int    seg;
    size_t off;
    char  *map = ush_amo_target(ctx, dest, size, &pe, &seg, &off);
    if (map) {
        ush_bits_store(fetch, ush_cpu_amo(map + off, op, value, cond, size), size);
        if (op != USH_AMO_FETCH) ush_wake(pe);
        return;
    }
    ush_tp_amo_fetch_nbi(ctx->tp, ush_amo_tp_op[op], pe, seg, off,
                         op == USH_AMO_FETCH ? 0 : value, cond, size, fetch);
}
