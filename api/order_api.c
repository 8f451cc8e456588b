/*
 * Memory ordering: fence (ordering of puts, AMOs and stores per PE) and
 * quiet (completion of everything outstanding), on the default context or
 * a given one, and the 1.6 per-PE quiet.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"

USH_API(void, shmem_fence)(void)
{
    USH_PROF_SCOPE("shmem_fence");
    USH_CHECK_INIT("shmem_fence");
    ush_fence(SHMEM_CTX_DEFAULT);
}

/* An invalid context has nothing outstanding to order or complete, so
 * fence and quiet on SHMEM_CTX_INVALID do nothing (unlike RMA and AMO
 * routines, for which it is an error). */
USH_API(void, shmem_ctx_fence)(shmem_ctx_t ctx)
{
    USH_PROF_SCOPE("shmem_ctx_fence");
    if (ctx == SHMEM_CTX_INVALID) return;
    USH_CHECK_INIT("shmem_ctx_fence");
    USH_CHECK_CTX("shmem_ctx_fence", ctx);
    ush_fence(ctx);
}

USH_API(void, shmem_quiet)(void)
{
    USH_PROF_SCOPE("shmem_quiet");
    USH_CHECK_INIT("shmem_quiet");
    ush_quiet(SHMEM_CTX_DEFAULT);
}

USH_API(void, shmem_ctx_quiet)(shmem_ctx_t ctx)
{
    USH_PROF_SCOPE("shmem_ctx_quiet");
    if (ctx == SHMEM_CTX_INVALID) return;
    USH_CHECK_INIT("shmem_ctx_quiet");
    USH_CHECK_CTX("shmem_ctx_quiet", ctx);
    ush_quiet(ctx);
}

/* Quiet towards target_pes only. Completing everything on the context is a
 * correct (if not minimal) way to do that, and costs one flush whatever the
 * number of PEs; the PEs are still checked so a wrong list is reported. */
static void ush_pe_quiet(const char *routine, shmem_ctx_t ctx, const int *target_pes,
                         size_t npes)
{
    USH_PROF_SCOPE(routine);
    USH_CHECK_INIT(routine);
    USH_CHECK_CTX(routine, ctx);
    if (npes == 0) return;
    /* PE numbers of the context's team, like every ctx routine's. */
    for (size_t i = 0; i < npes; i++) USH_CHECK_CTX_PE(routine, ctx, target_pes[i]);
    ush_quiet(ctx);
}

USH_API(void, shmem_pe_quiet)(const int *target_pes, size_t npes)
{
    ush_pe_quiet("shmem_pe_quiet", SHMEM_CTX_DEFAULT, target_pes, npes);
}

USH_API(void, shmem_ctx_pe_quiet)(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    if (ctx == SHMEM_CTX_INVALID) return;
    ush_pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes);
}
