/*
 * Fortran ordering and point-to-point waits: SHMEM_FENCE, SHMEM_QUIET,
 * SHMEM_WAIT, SHMEM_WAIT_UNTIL (default INTEGER) and the INT4/INT8 forms,
 * running C's typed wait_until (SHMEM_WAIT is "until not equal").
 */
#include "ush_fortran.h"
#include "ush_fortran_types.h"

USH_F_DEF(void, shmem_fence, (void))
{
    pshmem_fence();
}

USH_F_DEF(void, shmem_quiet, (void))
{
    pshmem_quiet();
}

#define USH_F_WAIT_(name, FNAME, T, N)                                        \
    USH_F_DEF(void, name, (T *ivar, const T *cmp_value))                      \
    {                                                                         \
        USH_F_RUN(FNAME, pshmem_##N##_wait_until(ivar, SHMEM_CMP_NE, *cmp_value)); \
    }                                                                         \
    USH_F_DEF(void, name##_until, (T *ivar, const ush_fint_t *cmp, const T *cmp_value)) \
    {                                                                         \
        USH_F_RUN(FNAME "_UNTIL", pshmem_##N##_wait_until(ivar, *cmp, *cmp_value)); \
    }
#define USH_F_WAIT_TYPED_(name, NAME, T, N)                                   \
    USH_F_WAIT_(shmem_##name##_wait, "SHMEM_" #NAME "_WAIT", T, N)            \
    USH_F_BARE(shmem_##name##_wait) USH_F_BARE(shmem_##name##_wait_until)
USH_F_WAIT_TYPES(USH_F_WAIT_TYPED_)

/* C owns shmem_wait and shmem_wait_until (on long): no bare names. */
USH_F_WAIT_(shmem_wait, "SHMEM_WAIT", int32_t, int32)
