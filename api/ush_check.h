/*
 * Argument checks at the API surface. The cheap ones (initialised, PE in
 * range, address symmetric) always run: without them a bad argument indexes
 * past the peer table or sends to a wrong address, i.e. silent corruption.
 * Costlier ones (e.g. active-set and pSync contents) run when SHMEM_DEBUG=1.
 * Every failure prints "ushmem: PE <n>: <routine>: <what, and what to do>"
 * and ends the whole job.
 */
#ifndef USH_CHECK_H
#define USH_CHECK_H

#include "core/ush.h"
#include "core/ush_symm.h"

#define USH_UNLIKELY(x) __builtin_expect(!!(x), 0)

void ush_check_fail_init(const char *routine) __attribute__((noreturn, cold));
void ush_check_fail_pe(const char *routine, int pe) __attribute__((noreturn, cold));
void ush_check_fail_symm(const char *routine, const char *arg, const void *addr,
                         size_t nbytes) __attribute__((noreturn, cold));
/* ctx is not SHMEM_CTX_DEFAULT nor a live context (check.c says which). */
void ush_check_fail_ctx(const char *routine, shmem_ctx_t ctx) __attribute__((noreturn, cold));
/* An atomic's arg is not aligned to its size. */
void ush_check_fail_align(const char *routine, const char *arg, const void *addr, size_t size)
    __attribute__((noreturn, cold));
/* ptr, given to shmem_free/shmem_realloc, is not a live heap block. */
void ush_check_fail_heap_ptr(const char *routine, const void *ptr) __attribute__((noreturn, cold));
void ush_check_fail_nelems(const char *routine, const char *arg, size_t nelems,
                           size_t elem_size) __attribute__((noreturn, cold));
void ush_check_fail_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
    __attribute__((noreturn, cold));

/* Routine names in messages are the public ones the user called. */
#define USH_CHECK_INIT(routine)                                               \
    do {                                                                      \
        if (USH_UNLIKELY(!ush_g.initialized)) ush_check_fail_init(routine);   \
    } while (0)

#define USH_CHECK_PE(routine, pe)                                             \
    do {                                                                      \
        if (USH_UNLIKELY((unsigned)(pe) >= (unsigned)ush_g.n_pes))            \
            ush_check_fail_pe(routine, pe);                                   \
    } while (0)

/* nbytes = nelems * elem_size, or the job ends: a wrapped product would
 * pass the symmetric check with a small length and then move the wrong
 * number of bytes. `arg` names the count argument (nelems, nreduce...). */
#define USH_CHECK_NBYTES(routine, arg, nelems, elem_size, nbytes)             \
    do {                                                                      \
        if (USH_UNLIKELY(__builtin_mul_overflow((size_t)(nelems),             \
                                                (size_t)(elem_size), (nbytes)))) \
            ush_check_fail_nelems(routine, arg, nelems, elem_size);           \
    } while (0)

/* Remote (symmetric) argument `arg` of nbytes bytes: one range compare per
 * segment; only a failure works out which segment was missed and by how
 * much (check.c). Zero bytes are never touched, so any address will do
 * (the specification's annex: "len is 0, pointer is null: supported"),
 * which only a failed lookup needs to ask. */
#define USH_CHECK_SYMM(routine, arg, addr, nbytes)                            \
    do {                                                                      \
        size_t ush_off_;                                                      \
        if (USH_UNLIKELY(ush_seg_find((addr), (nbytes), &ush_off_) < 0) &&    \
            (nbytes) != 0)                                                    \
            ush_check_fail_symm(routine, arg, addr, nbytes);                  \
    } while (0)

/* pe counts members of ctx's team (after USH_CHECK_CTX). */
#define USH_CHECK_CTX_PE(routine, ctx, pe)                                    \
    do {                                                                      \
        if (USH_UNLIKELY((unsigned)(pe) >= (unsigned)(ctx)->pe_size))         \
            ush_check_fail_ctx_pe(routine, ctx, pe);                          \
    } while (0)

/* ctx is SHMEM_CTX_DEFAULT (free when it is the constant) or a live
 * context of the table: a subtraction, a compare, a mask and one load of
 * the line the operation reads anyway. A handle outside the table is never
 * read, so a garbage handle is reported, not followed; a destroyed one
 * stays marked until its slot is reused. */
static inline int ush_ctx_in_table(shmem_ctx_t ctx)
{
    uintptr_t off = (uintptr_t)ctx - (uintptr_t)ush_ctx_table.base;
    return off < ush_ctx_table.bytes && off % sizeof(*ctx) == 0;
}

static inline int ush_ctx_handle_ok(shmem_ctx_t ctx)
{
    return ush_ctx_in_table(ctx) && ctx->state == USH_CTX_LIVE;
}

#define USH_CHECK_CTX(routine, ctx)                                           \
    do {                                                                      \
        if ((ctx) != SHMEM_CTX_DEFAULT && USH_UNLIKELY(!ush_ctx_handle_ok(ctx))) \
            ush_check_fail_ctx(routine, ctx);                                 \
    } while (0)

#endif
