/*
 * Fortran active-set collectives: SHMEM_BARRIER(_ALL), SHMEM_BROADCAST4 ...
 * SHMEM_ALLTOALLS64 and the 37 SHMEM_<KIND>_<OP>_TO_ALL reductions (INT2's
 * seven beyond 1.4's list). pSync
 * is a default INTEGER array of SHMEM_*_SYNC_SIZE elements: 16 bytes, which
 * is all the agreement of collectives/aset_chan.c uses.
 */
#include "ush_fortran.h"
#include "ush_fortran_types.h"
#include "api/ush_aset.h"

_Static_assert(sizeof(short) == 2 && sizeof(int) == 4 && sizeof(long) == 8,
               "INTEGER*2, *4 and *8 reductions run C's short, int and long ones");

USH_F_DEF(void, shmem_barrier_all, (void))
{
    USH_F_RUN("SHMEM_BARRIER_ALL", pshmem_barrier_all());
}

USH_F_DEF(void, shmem_barrier, (const ush_fint_t *PE_start, const ush_fint_t *logPE_stride,
                                const ush_fint_t *PE_size, ush_fint_t *pSync))
{
    USH_F_RUN("SHMEM_BARRIER",
              pshmem_barrier(*PE_start, *logPE_stride, *PE_size, (long *)pSync));
}

#define USH_F_SET_PARAMS_                                                     \
    const ush_fint_t *PE_start, const ush_fint_t *logPE_stride,               \
    const ush_fint_t *PE_size
#define USH_F_SET_ARGS_ *PE_start, *logPE_stride, *PE_size

#define USH_F_COLL_SIZED_(SUF, BITS, BARE)                                    \
    USH_F_DEF(void, shmem_broadcast##SUF,                                     \
              (void *dest, const void *source, const ush_fint_t *nelems,      \
               const ush_fint_t *PE_root, USH_F_SET_PARAMS_, ush_fint_t *pSync)) \
    {                                                                         \
        static const char fname[] = "SHMEM_BROADCAST" #SUF;                   \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_broadcast##BITS(dest, source, n, *PE_root,    \
                                                USH_F_SET_ARGS_, (long *)pSync)); \
    }                                                                         \
    USH_F_DEF(void, shmem_collect##SUF,                                       \
              (void *dest, const void *source, const ush_fint_t *nelems,      \
               USH_F_SET_PARAMS_, ush_fint_t *pSync))                         \
    {                                                                         \
        static const char fname[] = "SHMEM_COLLECT" #SUF;                     \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_collect##BITS(dest, source, n, USH_F_SET_ARGS_, \
                                              (long *)pSync));                \
    }                                                                         \
    USH_F_DEF(void, shmem_fcollect##SUF,                                      \
              (void *dest, const void *source, const ush_fint_t *nelems,      \
               USH_F_SET_PARAMS_, ush_fint_t *pSync))                         \
    {                                                                         \
        static const char fname[] = "SHMEM_FCOLLECT" #SUF;                    \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_fcollect##BITS(dest, source, n, USH_F_SET_ARGS_, \
                                               (long *)pSync));               \
    }                                                                         \
    BARE(shmem_broadcast##SUF) BARE(shmem_collect##SUF) BARE(shmem_fcollect##SUF)
USH_F_COLL_SIZES(USH_F_COLL_SIZED_)

/* SHMEM_ALLTOALL32/64 and SHMEM_ALLTOALLS32/64 (C's names: no bare ones). */
#define USH_F_ALLTOALL_(BITS)                                                 \
    USH_F_DEF(void, shmem_alltoall##BITS,                                     \
              (void *dest, const void *source, const ush_fint_t *nelems,      \
               USH_F_SET_PARAMS_, ush_fint_t *pSync))                         \
    {                                                                         \
        static const char fname[] = "SHMEM_ALLTOALL" #BITS;                   \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_alltoall##BITS(dest, source, n, USH_F_SET_ARGS_, \
                                               (long *)pSync));               \
    }                                                                         \
    USH_F_DEF(void, shmem_alltoalls##BITS,                                    \
              (void *dest, const void *source, const ush_fint_t *dst,         \
               const ush_fint_t *sst, const ush_fint_t *nelems,               \
               USH_F_SET_PARAMS_, ush_fint_t *pSync))                         \
    {                                                                         \
        static const char fname[] = "SHMEM_ALLTOALLS" #BITS;                  \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_alltoalls##BITS(dest, source, *dst, *sst, n,  \
                                                USH_F_SET_ARGS_, (long *)pSync)); \
    }
USHMEM_COLL_SIZES(USH_F_ALLTOALL_)

/* SHMEM_<KIND>_<OP>_TO_ALL(dest, source, nreduce, PE_start, logPE_stride,
 * PE_size, pWrk, pSync), running C's shmem_<N>_<op>_to_all. */
#define USH_F_TO_ALL_(name, NAME, T, N, op, OP)                               \
    USH_F_DEF(void, shmem_##name##_##op##_to_all,                             \
              (T *dest, const T *source, const ush_fint_t *nreduce,           \
               USH_F_SET_PARAMS_, T *pWrk, ush_fint_t *pSync))                \
    {                                                                         \
        USH_F_RUN("SHMEM_" #NAME "_" #OP "_TO_ALL",                           \
                  pshmem_##N##_##op##_to_all(dest, source, *nreduce, USH_F_SET_ARGS_, \
                                             pWrk, (long *)pSync));           \
    }                                                                         \
    USH_F_BARE(shmem_##name##_##op##_to_all)
#define USH_F_TO_ALL_BIT_(name, NAME, T, N)                                   \
    USH_F_TO_ALL_(name, NAME, T, N, and, AND)                                 \
    USH_F_TO_ALL_(name, NAME, T, N, or, OR)                                   \
    USH_F_TO_ALL_(name, NAME, T, N, xor, XOR)
#define USH_F_TO_ALL_MINMAX_(name, NAME, T, N)                                \
    USH_F_TO_ALL_(name, NAME, T, N, max, MAX)                                 \
    USH_F_TO_ALL_(name, NAME, T, N, min, MIN)
#define USH_F_TO_ALL_ARITH_(name, NAME, T, N)                                 \
    USH_F_TO_ALL_(name, NAME, T, N, sum, SUM)                                 \
    USH_F_TO_ALL_(name, NAME, T, N, prod, PROD)

USH_F_REDUCE_INT_TYPES(USH_F_TO_ALL_BIT_)
USH_F_REDUCE_INT_TYPES(USH_F_TO_ALL_MINMAX_)
USH_F_REDUCE_INT_TYPES(USH_F_TO_ALL_ARITH_)
USH_F_REDUCE_REAL_TYPES(USH_F_TO_ALL_MINMAX_)
USH_F_REDUCE_REAL_TYPES(USH_F_TO_ALL_ARITH_)
USH_F_REDUCE_COMPLEX_TYPES(USH_F_TO_ALL_ARITH_)

/* REAL*16: binary128 operators of the library's own (collectives/ush_coll.h);
 * the reduction itself is the one every *_to_all runs. */
#ifdef USH_HAVE_REAL16
#define USH_F_TO_ALL_REAL16_(op, OP)                                          \
    USH_F_DEF(void, shmem_real16_##op##_to_all,                               \
              (ush_real16_t *dest, const ush_real16_t *source,                \
               const ush_fint_t *nreduce, USH_F_SET_PARAMS_, ush_real16_t *pWrk, \
               ush_fint_t *pSync))                                            \
    {                                                                         \
        static const char fname[] = "SHMEM_REAL16_" #OP "_TO_ALL";            \
        USH_F_RUN(fname, ush_aset_reduce(fname, dest, source, *nreduce,       \
                                         sizeof(ush_real16_t),                \
                                         ush_coll_op_##op##_real16,           \
                                         USH_F_SET_ARGS_, pWrk, (long *)pSync)); \
    }                                                                         \
    USH_F_BARE(shmem_real16_##op##_to_all)
USH_F_TO_ALL_REAL16_(max, MAX)
USH_F_TO_ALL_REAL16_(min, MIN)
USH_F_TO_ALL_REAL16_(sum, SUM)
USH_F_TO_ALL_REAL16_(prod, PROD)
#endif
