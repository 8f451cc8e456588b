/*
 * Fortran atomics (all deprecated names in 1.4): SHMEM_INT4_ADD ...
 * SHMEM_REAL8_SWAP and SHMEM_SWAP, each running the C atomic of the same
 * type from the AMO type table. Values and results are the Fortran type;
 * the PE a default INTEGER.
 */
#include "ush_fortran.h"
#include "ush_fortran_types.h"

#define USH_F_AMO_INT_(name, NAME, T, N)                                      \
    USH_F_DEF(void, shmem_##name##_add, (T *dest, const T *value, const ush_fint_t *pe)) \
    {                                                                         \
        USH_F_RUN("SHMEM_" #NAME "_ADD", pshmem_##N##_atomic_add(dest, *value, *pe)); \
    }                                                                         \
    USH_F_BARE(shmem_##name##_add)                                            \
    USH_F_DEF(void, shmem_##name##_inc, (T *dest, const ush_fint_t *pe))      \
    {                                                                         \
        USH_F_RUN("SHMEM_" #NAME "_INC", pshmem_##N##_atomic_inc(dest, *pe)); \
    }                                                                         \
    USH_F_BARE(shmem_##name##_inc)                                            \
    USH_F_DEF(T, shmem_##name##_cswap, (T *dest, const T *cond, const T *value,   \
                                        const ush_fint_t *pe))                \
    {                                                                         \
        T r;                                                                  \
        USH_F_RUN("SHMEM_" #NAME "_CSWAP",                                    \
                  r = pshmem_##N##_atomic_compare_swap(dest, *cond, *value, *pe)); \
        return r;                                                             \
    }                                                                         \
    USH_F_BARE(shmem_##name##_cswap)                                          \
    USH_F_DEF(T, shmem_##name##_fadd, (T *dest, const T *value, const ush_fint_t *pe)) \
    {                                                                         \
        T r;                                                                  \
        USH_F_RUN("SHMEM_" #NAME "_FADD", r = pshmem_##N##_atomic_fetch_add(dest, *value, *pe)); \
        return r;                                                             \
    }                                                                         \
    USH_F_BARE(shmem_##name##_fadd)                                           \
    USH_F_DEF(T, shmem_##name##_finc, (T *dest, const ush_fint_t *pe))        \
    {                                                                         \
        T r;                                                                  \
        USH_F_RUN("SHMEM_" #NAME "_FINC", r = pshmem_##N##_atomic_fetch_inc(dest, *pe)); \
        return r;                                                             \
    }                                                                         \
    USH_F_BARE(shmem_##name##_finc)

/* fetch, set and swap: the integer and the real kinds. */
#define USH_F_AMO_EXT_(name, NAME, T, N)                                      \
    USH_F_DEF(T, shmem_##name##_fetch, (const T *source, const ush_fint_t *pe)) \
    {                                                                         \
        T r;                                                                  \
        USH_F_RUN("SHMEM_" #NAME "_FETCH", r = pshmem_##N##_atomic_fetch(source, *pe)); \
        return r;                                                             \
    }                                                                         \
    USH_F_BARE(shmem_##name##_fetch)                                          \
    USH_F_DEF(void, shmem_##name##_set, (T *dest, const T *value, const ush_fint_t *pe)) \
    {                                                                         \
        USH_F_RUN("SHMEM_" #NAME "_SET", pshmem_##N##_atomic_set(dest, *value, *pe)); \
    }                                                                         \
    USH_F_BARE(shmem_##name##_set)                                            \
    USH_F_DEF(T, shmem_##name##_swap, (T *dest, const T *value, const ush_fint_t *pe)) \
    {                                                                         \
        T r;                                                                  \
        USH_F_RUN("SHMEM_" #NAME "_SWAP", r = pshmem_##N##_atomic_swap(dest, *value, *pe)); \
        return r;                                                             \
    }                                                                         \
    USH_F_BARE(shmem_##name##_swap)

USH_F_AMO_INT_TYPES(USH_F_AMO_INT_)
USH_F_AMO_INT_TYPES(USH_F_AMO_EXT_)
USH_F_AMO_REAL_TYPES(USH_F_AMO_EXT_)

/* SHMEM_SWAP: default INTEGERs. C's shmem_swap is a generic macro, not a
 * symbol, so the bare name is free. */
USH_F_DEF(ush_fint_t, shmem_swap, (ush_fint_t *dest, const ush_fint_t *value,
                                   const ush_fint_t *pe))
{
    ush_fint_t r;
    USH_F_RUN("SHMEM_SWAP", r = pshmem_int32_atomic_swap(dest, *value, *pe));
    return r;
}
USH_F_BARE(shmem_swap)
