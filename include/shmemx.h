/*
 * ushmem: extensions to the OpenSHMEM API (shmemx_* names).
 *
 * None yet; the header exists so programs written for other
 * implementations, which include <shmemx.h> unconditionally, still build.
 */
#ifndef USHMEM_SHMEMX_H
#define USHMEM_SHMEMX_H

#include "shmem.h"

#endif /* USHMEM_SHMEMX_H */
