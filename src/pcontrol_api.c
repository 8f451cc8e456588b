/*
 * shmem_pcontrol: the profiling control hook. ushmem itself does nothing
 * with the level; a profiling library that interposes shmem_pcontrol (all
 * public names are weak aliases of pshmem_*) receives the calls.
 */
#include "ush.h"
#include "ush_profiling.h"

USH_API(void, shmem_pcontrol)(int level, ...)
{
    (void)level;
}

/* SOS's shmemx_ name (USHMEM_X_LIST_SETUP of <shmemx.h>). */
USH_SHMEMX_ALIAS(pcontrol)
