/*
 * Communication contexts. SHMEM_CTX_DEFAULT is the address of
 * ush_ctx_default, so it is a constant and costs no load. A context made
 * from a team takes PE numbers relative to that team.
 *
 * Every context shares the default context's UCX worker for now: quiet and
 * fence on one context then also complete and order the others'
 * operations, which the spec allows (it only asks that a context's own be
 * covered), and no worker is left unprogressed while a PE waits. Separate
 * workers per context, for threads that must not contend, are future work.
 */
#include "ush.h"
#include "ush_check.h"
#include "ush_profiling.h"
#include "ush_rma.h"
#include "ush_team.h"

#include <stdlib.h>

struct ush_ctx ush_ctx_default;

USH_API(int, shmem_team_create_ctx)(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    USH_CHECK_INIT("shmem_team_create_ctx");
    *ctx = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID || team->my_pe < 0) return -1;

    struct ush_ctx *c = malloc(sizeof(*c));
    if (!c) return -1;
    c->tp        = ush_ctx_default.tp;
    c->options   = options;
    c->team      = team;
    c->pe_start  = team->start;
    c->pe_stride = team->stride;
    c->pe_size   = team->size;
    *ctx         = c;
    return 0;
}

USH_API(int, shmem_ctx_create)(long options, shmem_ctx_t *ctx)
{
    return pshmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

USH_API(void, shmem_ctx_destroy)(shmem_ctx_t ctx)
{
    USH_CHECK_INIT("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) {
        ush_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    }
    /* Destroying a context completes its outstanding operations. */
    ush_quiet(ctx);
    free(ctx);
}

USH_API(int, shmem_ctx_get_team)(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (!team) return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}
