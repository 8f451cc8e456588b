/*
 * The RMA routines of the API: put, get, p, g, iput, iget, ibput, ibget and
 * the _nbi forms, typed (from the type table), sized (8 to 128 bits) and
 * untyped (putmem/getmem), each in a plain form on the default context and
 * a ctx form. Every one checks its arguments and hands bytes to the
 * internal layer (ush_rma.h); nothing here knows about the transport.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"

/* ---- Checks and dispatch shared by every routine ------------------------ */

/* Contiguous transfer of nelems elements of elem bytes. `remote` is the symmetric side (dest of a
 * put, source of a get). An empty transfer touches nothing, so its
 * addresses are not checked (programs pass NULL with nelems == 0). */
static inline __attribute__((always_inline)) void
ush_api_contig_do(const char *routine, shmem_ctx_t ctx, int is_put, int nbi, void *dest,
                  const void *source, size_t nelems, size_t elem, int pe)
{
    size_t nbytes;
    USH_CHECK_CTX(routine, ctx);
    USH_CHECK_CTX_PE(routine, ctx, pe);
    USH_CHECK_NBYTES(routine, "nelems", nelems, elem, &nbytes);
    USH_PROF_PEER(nbytes, ush_ctx_world_pe(ctx, pe));
    if (nbytes == 0) return;
    if (is_put) {
        USH_CHECK_SYMM(routine, "dest", dest, nbytes);
        if (nbi) {
            ush_put_nbi(ctx, dest, source, nbytes, pe);
        } else {
            ush_put(ctx, dest, source, nbytes, pe);
        }
    } else {
        USH_CHECK_SYMM(routine, "source", source, nbytes);
        if (nbi) {
            ush_get_nbi(ctx, dest, source, nbytes, pe);
        } else {
            ush_get(ctx, dest, source, nbytes, pe);
        }
    }
}

USH_PROF_DISPATCH(ush_api_contig,
                  (const char *routine, shmem_ctx_t ctx, int is_put, int nbi, void *dest,
                   const void *source, size_t nelems, size_t elem, int pe),
                  (routine, ctx, is_put, nbi, dest, source, nelems, elem, pe))

/* Strided transfer: nblocks blocks of bsize elements whose starts are dst
 * (dest) and sst (source) elements apart; iput/iget (blocked == 0) are the
 * case bsize == 1. The spec requires strides >= 1, and the internal layer
 * relies on it to find the remote extent, so a bad stride stops here. */
static inline __attribute__((always_inline)) void
ush_api_strided_do(const char *routine, shmem_ctx_t ctx, int is_put, int blocked, void *dest,
                   const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                   size_t nblocks, size_t elem, int pe)
{
    USH_CHECK_CTX(routine, ctx);
    USH_CHECK_CTX_PE(routine, ctx, pe);
    if (nblocks == 0 || bsize == 0) return;
    USH_PROF_PEER(nblocks * bsize * elem, ush_ctx_world_pe(ctx, pe));
    if (USH_UNLIKELY(dst < 1 || sst < 1)) {
        ush_fatal(routine, "strides must be at least 1 (dst = %td, sst = %td)", dst, sst);
    }
    /* The remote span, as rma.c computes it, must not wrap: a wrapped
     * extent would pass the symmetric check with a small length. */
    size_t rstride = (size_t)(is_put ? dst : sst), extent;
    if (USH_UNLIKELY(__builtin_mul_overflow(nblocks - 1, rstride, &extent) ||
                     __builtin_add_overflow(extent, bsize, &extent) ||
                     __builtin_mul_overflow(extent, elem, &extent))) {
        ush_fatal(routine,
                  "the strided span (%zu blocks of %zu elements, %s stride %zu, %zu-byte "
                  "elements) overflows size_t: nelems/nblocks or the stride is probably "
                  "negative or uninitialised",
                  nblocks, bsize, is_put ? "dst" : "sst", rstride, elem);
    }
    if (is_put) {
        USH_CHECK_SYMM(routine, "dest", dest, extent);
        if (blocked) {
            ush_ibput(ctx, dest, source, dst, sst, bsize, nblocks, elem, pe);
        } else {
            ush_iput(ctx, dest, source, dst, sst, nblocks, elem, pe);
        }
    } else {
        USH_CHECK_SYMM(routine, "source", source, extent);
        if (blocked) {
            ush_ibget(ctx, dest, source, dst, sst, bsize, nblocks, elem, pe);
        } else {
            ush_iget(ctx, dest, source, dst, sst, nblocks, elem, pe);
        }
    }
}

USH_PROF_DISPATCH(ush_api_strided,
                  (const char *routine, shmem_ctx_t ctx, int is_put, int blocked, void *dest,
                   const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                   size_t nblocks, size_t elem, int pe),
                  (routine, ctx, is_put, blocked, dest, source, dst, sst, bsize, nblocks, elem, pe))

/* ---- Typed routines ------------------------------------------------------ */

#define USH_RMA_TYPED(T, N)                                                                        \
    USH_API(void, shmem_##N##_put)(T *dest, const T *source, size_t nelems, int pe)                \
    { ush_api_contig("shmem_" #N "_put", SHMEM_CTX_DEFAULT, 1, 0, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_put)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_" #N "_put", ctx, 1, 0, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_put_nbi)(T *dest, const T *source, size_t nelems, int pe)            \
    { ush_api_contig("shmem_" #N "_put_nbi", SHMEM_CTX_DEFAULT, 1, 1, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_put_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_" #N "_put_nbi", ctx, 1, 1, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_get)(T *dest, const T *source, size_t nelems, int pe)                \
    { ush_api_contig("shmem_" #N "_get", SHMEM_CTX_DEFAULT, 0, 0, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_get)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_" #N "_get", ctx, 0, 0, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_get_nbi)(T *dest, const T *source, size_t nelems, int pe)            \
    { ush_api_contig("shmem_" #N "_get_nbi", SHMEM_CTX_DEFAULT, 0, 1, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_get_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_" #N "_get_nbi", ctx, 0, 1, dest, source, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_p)(T *dest, T value, int pe)                                         \
    { ush_api_contig("shmem_" #N "_p", SHMEM_CTX_DEFAULT, 1, 0, dest, &value, 1, sizeof(T), pe); }    \
    USH_API(void, shmem_ctx_##N##_p)(shmem_ctx_t ctx, T *dest, T value, int pe)                    \
    { ush_api_contig("shmem_ctx_" #N "_p", ctx, 1, 0, dest, &value, 1, sizeof(T), pe); }              \
    USH_API(T, shmem_##N##_g)(const T *source, int pe)                                             \
    { T v; ush_api_contig("shmem_" #N "_g", SHMEM_CTX_DEFAULT, 0, 0, &v, source, 1, sizeof(T), pe); return v; } \
    USH_API(T, shmem_ctx_##N##_g)(shmem_ctx_t ctx, const T *source, int pe)                        \
    { T v; ush_api_contig("shmem_ctx_" #N "_g", ctx, 0, 0, &v, source, 1, sizeof(T), pe); return v; } \
    USH_API(void, shmem_##N##_iput)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_" #N "_iput", SHMEM_CTX_DEFAULT, 1, 0, dest, source, dst, sst, 1, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_iput)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_ctx_" #N "_iput", ctx, 1, 0, dest, source, dst, sst, 1, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_iget)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_" #N "_iget", SHMEM_CTX_DEFAULT, 0, 0, dest, source, dst, sst, 1, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_iget)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_ctx_" #N "_iget", ctx, 0, 0, dest, source, dst, sst, 1, nelems, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_ibput)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_" #N "_ibput", SHMEM_CTX_DEFAULT, 1, 1, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_ibput)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ctx_" #N "_ibput", ctx, 1, 1, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe); } \
    USH_API(void, shmem_##N##_ibget)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_" #N "_ibget", SHMEM_CTX_DEFAULT, 0, 1, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe); } \
    USH_API(void, shmem_ctx_##N##_ibget)(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ctx_" #N "_ibget", ctx, 0, 1, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe); }

USHMEM_RMA_TYPES(USH_RMA_TYPED)

/* ---- Sized routines: elements of B bits ------------------------------------ */

#define USH_RMA_SIZED(B)                                                                           \
    USH_API(void, shmem_put##B)(void *dest, const void *source, size_t nelems, int pe)             \
    { ush_api_contig("shmem_put" #B, SHMEM_CTX_DEFAULT, 1, 0, dest, source, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_put##B)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_put" #B, ctx, 1, 0, dest, source, nelems, B / 8, pe); }         \
    USH_API(void, shmem_put##B##_nbi)(void *dest, const void *source, size_t nelems, int pe)       \
    { ush_api_contig("shmem_put" #B "_nbi", SHMEM_CTX_DEFAULT, 1, 1, dest, source, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_put##B##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_put" #B "_nbi", ctx, 1, 1, dest, source, nelems, B / 8, pe); }  \
    USH_API(void, shmem_get##B)(void *dest, const void *source, size_t nelems, int pe)             \
    { ush_api_contig("shmem_get" #B, SHMEM_CTX_DEFAULT, 0, 0, dest, source, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_get##B)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_get" #B, ctx, 0, 0, dest, source, nelems, B / 8, pe); }         \
    USH_API(void, shmem_get##B##_nbi)(void *dest, const void *source, size_t nelems, int pe)       \
    { ush_api_contig("shmem_get" #B "_nbi", SHMEM_CTX_DEFAULT, 0, 1, dest, source, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_get##B##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    { ush_api_contig("shmem_ctx_get" #B "_nbi", ctx, 0, 1, dest, source, nelems, B / 8, pe); }  \
    USH_API(void, shmem_iput##B)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_iput" #B, SHMEM_CTX_DEFAULT, 1, 0, dest, source, dst, sst, 1, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_iput##B)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_ctx_iput" #B, ctx, 1, 0, dest, source, dst, sst, 1, nelems, B / 8, pe); } \
    USH_API(void, shmem_iget##B)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_iget" #B, SHMEM_CTX_DEFAULT, 0, 0, dest, source, dst, sst, 1, nelems, B / 8, pe); } \
    USH_API(void, shmem_ctx_iget##B)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    { ush_api_strided("shmem_ctx_iget" #B, ctx, 0, 0, dest, source, dst, sst, 1, nelems, B / 8, pe); } \
    USH_API(void, shmem_ibput##B)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ibput" #B, SHMEM_CTX_DEFAULT, 1, 1, dest, source, dst, sst, bsize, nblocks, B / 8, pe); } \
    USH_API(void, shmem_ctx_ibput##B)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ctx_ibput" #B, ctx, 1, 1, dest, source, dst, sst, bsize, nblocks, B / 8, pe); } \
    USH_API(void, shmem_ibget##B)(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ibget" #B, SHMEM_CTX_DEFAULT, 0, 1, dest, source, dst, sst, bsize, nblocks, B / 8, pe); } \
    USH_API(void, shmem_ctx_ibget##B)(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) \
    { ush_api_strided("shmem_ctx_ibget" #B, ctx, 0, 1, dest, source, dst, sst, bsize, nblocks, B / 8, pe); }

USHMEM_RMA_SIZES(USH_RMA_SIZED)

/* ---- Untyped routines: nelems bytes ----------------------------------------- */

USH_API(void, shmem_putmem)(void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_putmem", SHMEM_CTX_DEFAULT, 1, 0, dest, source, nelems, 1, pe); }
USH_API(void, shmem_ctx_putmem)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_ctx_putmem", ctx, 1, 0, dest, source, nelems, 1, pe); }
USH_API(void, shmem_putmem_nbi)(void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_putmem_nbi", SHMEM_CTX_DEFAULT, 1, 1, dest, source, nelems, 1, pe); }
USH_API(void, shmem_ctx_putmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_ctx_putmem_nbi", ctx, 1, 1, dest, source, nelems, 1, pe); }
USH_API(void, shmem_getmem)(void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_getmem", SHMEM_CTX_DEFAULT, 0, 0, dest, source, nelems, 1, pe); }
USH_API(void, shmem_ctx_getmem)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_ctx_getmem", ctx, 0, 0, dest, source, nelems, 1, pe); }
USH_API(void, shmem_getmem_nbi)(void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_getmem_nbi", SHMEM_CTX_DEFAULT, 0, 1, dest, source, nelems, 1, pe); }
USH_API(void, shmem_ctx_getmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{ ush_api_contig("shmem_ctx_getmem_nbi", ctx, 0, 1, dest, source, nelems, 1, pe); }

/* SOS's shmemx_ names of the block-strided routines (<shmemx.h>). */
USHMEM_X_LIST_RMA
