/*
 * ushmem: the legacy header path (SGI/Cray SHMEM programs include
 * <mpp/shmem.h>). It is the OpenSHMEM API itself.
 */
#ifndef USHMEM_MPP_SHMEM_H
#define USHMEM_MPP_SHMEM_H

#include <shmem.h>

#endif /* USHMEM_MPP_SHMEM_H */
