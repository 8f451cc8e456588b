/*
 * What a failed argument check says. Each message names the routine, the
 * argument and what to do, then the whole job ends.
 */
#include "ush_check.h"
#include "core/ush.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void ush_check_fail_init(const char *routine)
{
    if (ush_g.finalized) {
        ush_fatal(routine, "called after shmem_finalize; OpenSHMEM routines may only be "
                           "called between shmem_init and shmem_finalize");
    }
    ush_fatal(routine, "called before shmem_init; call shmem_init first");
}

/* Routines on the fast path leave the initialised check to their failure
 * paths: before shmem_init no PE is in range (a context's team has 0 PEs)
 * and after shmem_finalize no address is symmetric. Each failure asks
 * first whether the library is up, so the message says what is wrong. */
#define USH_CHECK_FAIL_UP(routine)                                                do {                                                                              if (!ush_g.initialized) ush_check_fail_init(routine);                     } while (0)

void ush_check_fail_pe(const char *routine, int pe)
{
    USH_CHECK_FAIL_UP(routine);
    ush_fatal(routine, "pe %d is out of range: this job has %d PEs (0 to %d)", pe, ush_g.n_pes,
              ush_g.n_pes - 1);
}

static const char *const ush_seg_name[USH_SEG_COUNT] = {
    [USH_SEG_HEAP] = "the symmetric heap",
    [USH_SEG_DATA] = "the static data",
};

/* "[0x..., 0x...)" of segment s into buf. */
static const char *ush_seg_range(int s, char *buf, size_t len)
{
    snprintf(buf, len, "[%#lx, %#lx)", (unsigned long)ush_seg[s].base,
             (unsigned long)(ush_seg[s].base + ush_seg[s].size));
    return buf;
}

/* Only called once ush_seg_find has failed: say whether the start was in a
 * segment and the length ran out of it (a count too large), or where the
 * start lies relative to the nearest segment. */
void ush_check_fail_symm(const char *routine, const char *arg, const void *addr, size_t nbytes)
{
    USH_CHECK_FAIL_UP(routine);
    uintptr_t a = (uintptr_t)addr;
    char      r0[64], r1[64];

    /* NULL is no stack address: most often a shmem_malloc that failed and
     * whose result was not checked, or a pointer never set. */
    if (!addr) {
        ush_fatal(routine,
                  "%s is NULL: pass a symmetric object (from shmem_malloc & co. or a "
                  "global/static variable); if it came from shmem_malloc, that allocation "
                  "failed: check its result",
                  arg);
    }

    for (int s = 0; s < USH_SEG_COUNT; s++) {
        if (ush_seg[s].size && a - ush_seg[s].base < ush_seg[s].size) {
            size_t room = ush_seg[s].size - (a - ush_seg[s].base);
            /* A work array is simply too small; anything else was given
             * a count too large for it. */
            int         psync = strcmp(arg, "pSync") == 0, pwrk = strcmp(arg, "pWrk") == 0;
            const char *fix   = psync ? "declare pSync with the SHMEM_*_SYNC_SIZE constant "
                                        "this routine's description names"
                              : pwrk ? "declare pWrk with max(nreduce/2 + 1, "
                                       "SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements"
                                     : "pass a count that fits the symmetric object";
            ush_fatal(routine,
                      "%s (%p, %zu bytes) starts in %s %s but only %zu bytes remain before "
                      "its end: %s runs %zu bytes past that end; %s",
                      arg, addr, nbytes, ush_seg_name[s], ush_seg_range(s, r0, sizeof(r0)),
                      room,
                      psync || pwrk ? "the array the routine needs"
                                    : "the length (nelems, or the strides and block count)",
                      nbytes - room, fix);
        }
    }

    /* Outside every segment: name the nearest one and the distance. */
    int    near = -1;
    size_t dist = SIZE_MAX;
    int    past = 0;
    for (int s = 0; s < USH_SEG_COUNT; s++) {
        if (!ush_seg[s].size) continue;
        uintptr_t end = ush_seg[s].base + ush_seg[s].size;
        size_t    d   = a < ush_seg[s].base ? ush_seg[s].base - a : a - end;
        if (d < dist) {
            dist = d;
            near = s;
            past = a >= end;
        }
    }
    if (near >= 0 && dist < ush_seg[near].size) {
        ush_fatal(routine,
                  "%s (%p, %zu bytes) is not symmetric: it is %zu bytes %s %s %s; use memory "
                  "from shmem_malloc & co. or a global/static variable, and keep indices "
                  "inside the object",
                  arg, addr, nbytes, dist, past ? "past the end of" : "before",
                  ush_seg_name[near], ush_seg_range(near, r0, sizeof(r0)));
    }
    ush_fatal(routine,
              "%s (%p, %zu bytes) is not symmetric: it lies in no symmetric segment "
              "(the symmetric heap %s, the static data %s); it is probably a stack or "
              "malloc() address: use memory from shmem_malloc & co. or a global/static "
              "variable",
              arg, addr, nbytes, ush_seg_range(USH_SEG_HEAP, r0, sizeof(r0)),
              ush_seg[USH_SEG_DATA].size ? ush_seg_range(USH_SEG_DATA, r1, sizeof(r1))
                                         : "(not registered)");
}

void ush_check_fail_nelems(const char *routine, const char *arg, size_t nelems, size_t elem_size)
{
    USH_CHECK_FAIL_UP(routine);
    ush_fatal(routine,
              "%s = %zu elements of %zu bytes overflows size_t (%zu bytes at most): "
              "the count is probably negative or uninitialised; pass the number of elements",
              arg, nelems, elem_size, SIZE_MAX);
}

void ush_check_fail_heap_ptr(const char *routine, const void *ptr)
{
    USH_CHECK_FAIL_UP(routine);
    size_t into;
    char   r0[64];
    switch (ush_heap_classify(ush_g.heap, ptr, &into)) {
    case USH_HEAP_PTR_INTERIOR:
        ush_fatal(routine,
                  "ptr %p is %zu bytes inside a block of the symmetric heap: pass the "
                  "pointer shmem_malloc/calloc/align/realloc returned, not one into the block",
                  ptr, into);
    case USH_HEAP_PTR_FREE:
        ush_fatal(routine,
                  "ptr %p is free heap space: it was already freed (or never allocated); "
                  "free each block once and set the pointer to NULL afterwards",
                  ptr);
    case USH_HEAP_PTR_OUTSIDE:
        /* The user's part: the segment also holds the library's objects,
         * which no shmem_malloc returned. */
        snprintf(r0, sizeof(r0), "[%#lx, %#lx)", (unsigned long)ush_symm_user.base,
                 (unsigned long)(ush_symm_user.base + ush_symm_user.size));
        ush_fatal(routine,
                  "ptr %p is not in the symmetric heap %s: only pointers from "
                  "shmem_malloc/calloc/align/realloc may be given (static, stack and "
                  "malloc() memory must not)",
                  ptr, r0);
    case USH_HEAP_PTR_LIVE:
        break;
    }
    ush_fatal(routine, "ptr %p was rejected by the heap allocator", ptr);
}

void ush_check_fail_align(const char *routine, const char *arg, const void *addr, size_t size)
{
    USH_CHECK_FAIL_UP(routine);
    ush_fatal(routine,
              "%s = %p is not aligned to %zu bytes, the size of the operation's type: "
              "atomics need naturally aligned objects (is it a member of a packed struct, "
              "or a pointer into a char buffer at an odd offset?)",
              arg, addr, size);
}

void ush_check_fail_ctx(const char *routine, shmem_ctx_t ctx)
{
    USH_CHECK_FAIL_UP(routine);
    if (ctx == SHMEM_CTX_INVALID) {
        ush_fatal(routine, "ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context "
                           "from shmem_ctx_create");
    }
    if (ush_ctx_in_table(ctx) && ctx->state == USH_CTX_DESTROYED) {
        ush_fatal(routine,
                  "ctx (%p) was destroyed by shmem_ctx_destroy; use a live context (or "
                  "SHMEM_CTX_DEFAULT), and set a destroyed one to SHMEM_CTX_INVALID",
                  (void *)ctx);
    }
    ush_fatal(routine,
              "ctx (%p) is not a context handle: pass SHMEM_CTX_DEFAULT or a context from "
              "shmem_ctx_create or shmem_team_create_ctx (is the variable uninitialised?)",
              (void *)ctx);
}

void ush_check_fail_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    USH_CHECK_FAIL_UP(routine);
    /* The routines without a ctx argument run on the default context: a
     * program that never named a context is told about the job, not about
     * "the context's team". */
    if (ctx == &ush_ctx_default) ush_check_fail_pe(routine, pe);
    ush_fatal(routine,
              "pe %d is out of range: the context's team has %d PEs (0 to %d), and PE "
              "numbers given with a context count members of its team",
              pe, ctx->pe_size, ctx->pe_size - 1);
}
