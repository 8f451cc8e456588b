/*
 * shmem_pcontrol: the profiling control hook. A profiling library that
 * interposes shmem_pcontrol (all public names are weak aliases of
 * pshmem_*) receives the calls; without one, the level pauses (0) and
 * resumes (any other) ushmem's own job profile (SHMEM_PROFILE) on the
 * calling PE, and does nothing when that is off.
 */
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"

USH_API(void, shmem_pcontrol)(int level, ...)
{
    ush_prof_control(level);
}

/* SOS's shmemx_ name (USHMEM_X_LIST_SETUP of <shmemx.h>). */
USH_SHMEMX_ALIAS(pcontrol)
