/*
 * ushmem: the legacy path of <shmemx.h>. Programs written for Cray SHMEM
 * and Sandia OpenSHMEM include <mpp/shmemx.h> beside <mpp/shmem.h>; SOS
 * installs its extensions header at both paths, so the same program must
 * find it here too.
 */
#ifndef USHMEM_MPP_SHMEMX_H
#define USHMEM_MPP_SHMEMX_H

#include <shmemx.h>

#endif /* USHMEM_MPP_SHMEMX_H */
