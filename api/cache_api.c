/*
 * Cache management of the Cray T3D/T3E era (OpenSHMEM 1.2 names, removed
 * from later specs). Those machines did not keep the data cache coherent
 * with remote writes, so programs had to invalidate or flush by hand. Every
 * platform ushmem runs on is cache coherent, for the CPU's own stores, for
 * node-local peers' stores into mapped memory and for the network's DMA, so
 * each routine is a no-op kept only so that old programs link. They need
 * not even be initialised: the originals only touched the local cache.
 */
#include "ush_profiling.h"
#include "core/ush.h"

USH_API(void, shmem_clear_cache_inv)(void) {}
USH_API(void, shmem_set_cache_inv)(void) {}
USH_API(void, shmem_udcflush)(void) {}

USH_API(void, shmem_clear_cache_line_inv)(void *dest) { (void)dest; }
USH_API(void, shmem_set_cache_line_inv)(void *dest) { (void)dest; }
USH_API(void, shmem_udcflush_line)(void *dest) { (void)dest; }
