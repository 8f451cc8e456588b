/*
 * The context routines: their argument checks and profile scopes, over the
 * contexts of the core (ctx.c), which make, progress and free them.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_team.h"
#include "core/ush.h"

/* shmem_team_create_ctx and shmem_ctx_create, named as the program called them. */
static int ush_ctx_create_checked(const char *routine, shmem_team_t team, long options,
                                  shmem_ctx_t *ctx)
{
    USH_CHECK_INIT(routine);
    if (!ctx) ush_fatal(routine, "ctx is NULL; pass the address of a shmem_ctx_t");
    *ctx = SHMEM_CTX_INVALID;
    USH_CHECK_TEAM(routine, "team", team);
    if (team == SHMEM_TEAM_INVALID || team->my_pe < 0) return -1;
    return ush_ctx_create(routine, team, team->start, team->stride, team->size, options, ctx);
}

USH_API(int, shmem_team_create_ctx)(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    USH_PROF_SCOPE("shmem_team_create_ctx");
    return ush_ctx_create_checked("shmem_team_create_ctx", team, options, ctx);
}

USH_API(int, shmem_ctx_create)(long options, shmem_ctx_t *ctx)
{
    USH_PROF_SCOPE("shmem_ctx_create");
    return ush_ctx_create_checked("shmem_ctx_create", SHMEM_TEAM_WORLD, options, ctx);
}

USH_API(void, shmem_ctx_destroy)(shmem_ctx_t ctx)
{
    USH_PROF_SCOPE("shmem_ctx_destroy");
    USH_CHECK_INIT("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) {
        ush_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    }
    USH_CHECK_CTX("shmem_ctx_destroy", ctx);
    ush_ctx_free(ctx);
}

USH_API(int, shmem_ctx_get_team)(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (!team) return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    USH_CHECK_CTX("shmem_ctx_get_team", ctx);
    *team = ctx->team;
    return 0;
}

/* SOS's shmemx_ names of the team context routines (USHMEM_X_LIST_TEAM of
 * <shmemx.h>). */
USH_SHMEMX_ALIAS(team_create_ctx)
USH_SHMEMX_ALIAS(ctx_get_team)
