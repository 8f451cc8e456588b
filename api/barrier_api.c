/*
 * Whole-job synchronisation: barrier_all completes this PE's outstanding
 * operations first, sync_all only synchronises.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_team.h"
#include "core/ush.h"
#include "core/ush_rma.h"

USH_API(void, shmem_barrier_all)(void)
{
    USH_PROF_SCOPE("shmem_barrier_all");
    USH_CHECK_INIT("shmem_barrier_all");
    ush_hang_enter_coll("shmem_barrier_all");
    USH_TEAM_CHECK(SHMEM_TEAM_WORLD, "shmem_barrier_all");
    ush_barrier_all();
}

USH_API(void, shmem_sync_all)(void)
{
    USH_PROF_SCOPE("shmem_sync_all");
    USH_CHECK_INIT("shmem_sync_all");
    ush_hang_enter_coll("shmem_sync_all");
    USH_TEAM_CHECK(SHMEM_TEAM_WORLD, "shmem_sync_all");
    ush_sync_all();
}

/* SOS's shmemx_ name (USHMEM_X_LIST_SETUP of <shmemx.h>). */
USH_SHMEMX_ALIAS(sync_all)
