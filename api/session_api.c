/*
 * Sessions (OpenSHMEM 1.6): shmem_ctx_session_start / _stop.
 *
 * A session only hints that a context is about to issue a batch of small
 * operations; the spec lets an implementation ignore it, and sessions never
 * change completion or ordering. Here every put and atomic to a node-local
 * peer is already a single store or CPU atomic, and operations through UCX
 * are already implicit non-blocking, so there is nothing to batch: both
 * routines check their arguments and return. Nothing is recorded, so a
 * second start (which the spec says ORs in options) and a stop without a
 * start (which has no effect) need no bookkeeping either.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"

USH_API(void, shmem_ctx_session_start)(shmem_ctx_t ctx, long options,
                                       const shmem_ctx_session_config_t *config,
                                       long config_mask)
{
    USH_PROF_SCOPE("shmem_ctx_session_start");
    /* Any combination of options is allowed (the spec: none is undefined
     * behaviour), including ones this library does not know. */
    (void)options;
    USH_CHECK_INIT("shmem_ctx_session_start");
    /* The spec: on SHMEM_CTX_INVALID, no action. */
    if (ctx == SHMEM_CTX_INVALID) return;
    USH_CHECK_CTX("shmem_ctx_session_start", ctx);
    /* config is read only for the members config_mask selects; a mask of 0
     * means the defaults, so config may then be NULL. */
    if (USH_UNLIKELY(config_mask != 0 && config == NULL)) {
        ush_fatal("shmem_ctx_session_start",
                  "config is NULL but config_mask = %#lx selects members of it; pass a "
                  "shmem_ctx_session_config_t or config_mask = 0 for the defaults",
                  (unsigned long)config_mask);
    }
    if (USH_UNLIKELY(config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)) {
        ush_fatal("shmem_ctx_session_start",
                  "config_mask = %#lx has bits that name no configuration member; use 0 "
                  "or SHMEM_CTX_SESSION_TOTAL_OPS",
                  (unsigned long)config_mask);
    }
}

USH_API(void, shmem_ctx_session_stop)(shmem_ctx_t ctx)
{
    USH_PROF_SCOPE("shmem_ctx_session_stop");
    USH_CHECK_INIT("shmem_ctx_session_stop");
    /* SHMEM_CTX_INVALID included: stopping does nothing here */
    if (ctx != SHMEM_CTX_INVALID) USH_CHECK_CTX("shmem_ctx_session_stop", ctx);
}
