/*
 * ushmem: the profiling names of the OpenSHMEM API.
 *
 * Every routine shmem_X is a weak alias of pshmem_X (and start_pes of
 * pstart_pes, shmalloc of pshmalloc, ...), so a profiling library can define
 * shmem_X itself and call pshmem_X to reach ushmem. The prototypes are the
 * same list as <shmem.h>'s, instantiated with the "p" prefix.
 */
#ifndef USHMEM_PSHMEM_H
#define USHMEM_PSHMEM_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define USHMEM_FN(name) p##name
#include "ushmem/api.h"
#undef USHMEM_FN

#ifdef __cplusplus
}
#endif

#endif /* USHMEM_PSHMEM_H */
