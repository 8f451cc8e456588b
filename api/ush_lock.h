/*
 * The home PE of a lock, one rule for C's locks (a long holding an MCS
 * queue, lock.c) and Fortran's (a 32-bit ticket lock, fortran/lock_f.c).
 */
#ifndef USH_LOCK_H
#define USH_LOCK_H

#include "ush_check.h"
#include "core/ush.h"
#include "core/ush_symm.h"

#include <stdint.h>

/* The home PE from the lock's place in symmetric memory, which (unlike its
 * address) is the same on every PE; mixing the offset, counted in locks of
 * size bytes, spreads neighbouring locks (an array of them) over different
 * PEs. A lock outside symmetric memory ends the job, naming routine. */
static inline int ush_lock_home(const char *routine, const void *lock, size_t size)
{
    size_t off;
    int    seg = ush_seg_find(lock, size, &off);
    if (USH_UNLIKELY(seg < 0)) ush_check_fail_symm(routine, "lock", lock, size);
    uint64_t h = ((uint64_t)off / size) ^ ((uint64_t)seg << 56);
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (int)(h % (uint64_t)ush_g.n_pes);
}

#endif
