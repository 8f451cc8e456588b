/*
 * The internal RMA layer: translate a symmetric address to (segment,
 * offset), then either copy through the peer's mapped segment or hand the
 * operation to UCX. The API surface has checked the arguments.
 */
#include "ush.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"
#include "arch/ush_arch.h"

#include <stdint.h>
#include <string.h>

static inline int ush_translate(const void *addr, size_t len, size_t *off)
{
    int seg = ush_seg_find(addr, len, off);
    if (__builtin_expect(seg < 0, 0)) {
        ush_fatal("RMA", "address %p (+%zu bytes) is not in symmetric memory", addr, len);
    }
    return seg;
}

/* A put through the mapping writes every byte of the destination once,
 * at every size (ush_arch_copy_once; arch/copy_once.h says why memcpy
 * must not, docs/design.md what a put promises): a naturally aligned
 * 1/2/4/8-byte element is one store, anything else the architecture's
 * copy-once. */

/* One store of an element of type T from src, and return. */
#define USH_STORE_ONE_(T)                                                      \
    do {                                                                       \
        T v_;                                                                  \
        memcpy(&v_, src, sizeof v_);                                           \
        __atomic_store_n((T *)dst, v_, __ATOMIC_RELAXED);                      \
        return;                                                                \
    } while (0)

static inline void ush_copy_to_peer(void *dst, const void *src, size_t n)
{
    uintptr_t d = (uintptr_t)dst;

    if (n == 1) USH_STORE_ONE_(uint8_t);
    if (n == 8 && (d & 7) == 0) USH_STORE_ONE_(uint64_t);
    if (n == 4 && (d & 3) == 0) USH_STORE_ONE_(uint32_t);
    if (n == 2 && (d & 1) == 0) USH_STORE_ONE_(uint16_t);
    ush_arch_copy_once(dst, src, n);
}

/* Contiguous transfer: a copy through the mapping, or UCX; blocking waits
 * for local completion (source reusable, destination filled). */
static inline void ush_contig(shmem_ctx_t ctx, int is_put, int blocking, void *dest,
                              const void *src, size_t nbytes, int pe)
{
    size_t off;
    int    seg = ush_translate(is_put ? dest : src, nbytes, &off);
    pe         = ush_ctx_world_pe(ctx, pe);
    char  *map = ush_tp_mapped(pe, seg);
    if (map && is_put) {
        ush_copy_to_peer(map + off, src, nbytes);
    } else if (map) {
        memcpy(dest, map + off, nbytes);
    } else if (is_put) {
        ush_tp_put(ctx->tp, pe, seg, off, src, nbytes, blocking);
    } else {
        ush_tp_get(ctx->tp, pe, seg, off, dest, nbytes, blocking);
    }
}

void ush_get_counted(void *dest, const void *src, size_t nbytes, int pe, int *counter)
{
    size_t off;
    int    seg = ush_translate(src, nbytes, &off);
    char  *map = ush_tp_mapped(pe, seg);
    if (map == NULL && ush_g.progress_thread) {
        ush_tp_get_counted(SHMEM_CTX_DEFAULT->tp, pe, seg, off, dest, nbytes, counter);
        return;
    }
    /* a copy, or UCX with no thread to complete it later: done now. The
     * release add publishes dest to shmem_cwait's acquire load, should
     * another thread wait on the counter. */
    if (map) {
        memcpy(dest, map + off, nbytes);
    } else {
        ush_tp_get(SHMEM_CTX_DEFAULT->tp, pe, seg, off, dest, nbytes, 1);
    }
    __atomic_add_fetch(counter, 1, __ATOMIC_RELEASE);
}

void ush_put(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe)
{
    ush_contig(ctx, 1, 1, dest, src, nbytes, pe);
}

void ush_put_nbi(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe)
{
    ush_contig(ctx, 1, 0, dest, src, nbytes, pe);
}

void ush_get(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe)
{
    ush_contig(ctx, 0, 1, dest, src, nbytes, pe);
}

void ush_get_nbi(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe)
{
    ush_contig(ctx, 0, 0, dest, src, nbytes, pe);
}

/* Strided transfers: element by element, issued without waiting and
 * completed together, so a strided put costs one round of completion. */
static void ush_strided(shmem_ctx_t ctx, int is_put, char *dest, const char *src,
                        ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                        size_t elem, int pe)
{
    const char *remote = is_put ? dest : src;
    size_t      span   = nblocks ? ((nblocks - 1) * (size_t)(is_put ? dst : sst) + bsize) * elem : 0;
    size_t      off;
    if (nblocks == 0 || bsize == 0) return;
    int   seg = ush_translate(remote, span, &off);
    pe        = ush_ctx_world_pe(ctx, pe);
    char *map = ush_tp_mapped(pe, seg);
    size_t blk = bsize * elem;

    for (size_t i = 0; i < nblocks; i++) {
        char       *d = dest + (ptrdiff_t)i * dst * (ptrdiff_t)elem;
        const char *s = src + (ptrdiff_t)i * sst * (ptrdiff_t)elem;
        size_t      roff = off + i * (size_t)(is_put ? dst : sst) * elem;
        if (map && is_put) {
            ush_copy_to_peer(map + roff, s, blk);
        } else if (map) {
            memcpy(d, map + roff, blk);
        } else if (is_put) {
            ush_tp_put(ctx->tp, pe, seg, roff, s, blk, 0);
        } else {
            ush_tp_get(ctx->tp, pe, seg, roff, d, blk, 0);
        }
    }
    /* Blocking semantics: sources reusable / destinations filled. */
    if (!map) ush_tp_quiet(ctx->tp);
}

void ush_iput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
              size_t nelems, size_t elem_size, int pe)
{
    ush_strided(ctx, 1, dest, src, dst, sst, 1, nelems, elem_size, pe);
}

void ush_iget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
              size_t nelems, size_t elem_size, int pe)
{
    ush_strided(ctx, 0, dest, src, dst, sst, 1, nelems, elem_size, pe);
}

void ush_ibput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
               size_t bsize, size_t nblocks, size_t elem_size, int pe)
{
    ush_strided(ctx, 1, dest, src, dst, sst, bsize, nblocks, elem_size, pe);
}

void ush_ibget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
               size_t bsize, size_t nblocks, size_t elem_size, int pe)
{
    ush_strided(ctx, 0, dest, src, dst, sst, bsize, nblocks, elem_size, pe);
}

void *ush_ptr(const void *addr, int pe)
{
    size_t off;
    int    seg = ush_seg_find(addr, 1, &off);
    if (seg < 0) return NULL;
    char *map = ush_tp_mapped(pe, seg);
    return map ? map + off : NULL;
}

/* Memory ordering of the mapped paths. A put to a mapped peer is plain
 * stores from this CPU (one relaxed atomic store for an aligned element,
 * which is what a flag is); nothing orders them for another CPU until one
 * of these two fences:
 *  - fence: a release fence, so every store before it is visible to a
 *    peer before any store after it. The peer's side is its wait: a
 *    relaxed load that sees the later store, then an acquire fence
 *    (p2p_api.c, signal_api.c): fence-to-fence synchronisation. A flag
 *    that is part of a larger put after the fence is written by the
 *    copy-once's plain stores (one per aligned word): the fence orders
 *    them the same way on the hardware, though C11 only speaks of atomic
 *    stores there (it has no atomic memcpy).
 *  - quiet: a sequentially consistent fence, because quiet must also order
 *    this PE's stores before its later loads (put a flag, quiet, then read
 *    a peer's: store-to-load order, which a release fence does not give,
 *    and x86 keeps only with this mfence). Then the UCX flush.
 * A get through the mapping is a memcpy from the peer's memory: ordered
 * after the peer's stores by whatever synchronisation the program did
 * first (a wait's acquire fence, a barrier's acquire load). */
void ush_quiet(shmem_ctx_t ctx)
{
    /* Stores to mapped peers: make them globally visible first. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    ush_tp_quiet(ctx->tp);
}

void ush_fence(shmem_ctx_t ctx)
{
    /* Direct stores before, direct stores after; the transport orders a
     * UCX operation still in flight against both (ush_tp_fence). */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    ush_tp_fence(ctx->tp);
}
