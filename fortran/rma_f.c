/*
 * Fortran RMA: SHMEM_PUT4 ... SHMEM_PUT128, SHMEM_<TYPE>_PUT, SHMEM_PUTMEM,
 * their GET, _NBI and strided (IPUT/IGET) forms. Each runs the C routine
 * of the same element size; counts and strides are default INTEGERs.
 */
#include "ush_fortran.h"
#include "ush_fortran_types.h"

/* SHMEM_<NAME>(dest, source, nelems, pe), running C's shmem_<cname>. */
#define USH_F_CONTIG_(name, NAME, cname)                                      \
    USH_F_DEF(void, shmem_##name, (void *dest, const void *source,            \
                                   const ush_fint_t *nelems, const ush_fint_t *pe)) \
    {                                                                         \
        static const char fname[] = "SHMEM_" #NAME;                           \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_##cname(dest, source, n, *pe));               \
    }

/* SHMEM_<NAME>(dest, source, dst, sst, nelems, pe): strides in elements. */
#define USH_F_STRIDED_(name, NAME, cname)                                     \
    USH_F_DEF(void, shmem_##name, (void *dest, const void *source,            \
                                   const ush_fint_t *dst, const ush_fint_t *sst, \
                                   const ush_fint_t *nelems, const ush_fint_t *pe)) \
    {                                                                         \
        static const char fname[] = "SHMEM_" #NAME;                           \
        size_t n = ush_f_count(fname, "nelems", *nelems);                     \
        USH_F_RUN(fname, pshmem_##cname(dest, source, *dst, *sst, n, *pe));   \
    }

/* SHMEM_PUT4 ... SHMEM_IGET128. */
#define USH_F_SIZED_(SUF, BITS, BARE)                                         \
    USH_F_CONTIG_(put##SUF, PUT##SUF, put##BITS)                              \
    USH_F_CONTIG_(get##SUF, GET##SUF, get##BITS)                              \
    USH_F_CONTIG_(put##SUF##_nbi, PUT##SUF##_NBI, put##BITS##_nbi)            \
    USH_F_CONTIG_(get##SUF##_nbi, GET##SUF##_NBI, get##BITS##_nbi)            \
    USH_F_STRIDED_(iput##SUF, IPUT##SUF, iput##BITS)                          \
    USH_F_STRIDED_(iget##SUF, IGET##SUF, iget##BITS)                          \
    BARE(shmem_put##SUF) BARE(shmem_get##SUF)                                 \
    BARE(shmem_put##SUF##_nbi) BARE(shmem_get##SUF##_nbi)                     \
    BARE(shmem_iput##SUF) BARE(shmem_iget##SUF)
USH_F_RMA_SIZES(USH_F_SIZED_)

/* SHMEM_PUTMEM & co.: bytes (C's own names, so no bare ones). */
USH_F_CONTIG_(putmem, PUTMEM, putmem)
USH_F_CONTIG_(getmem, GETMEM, getmem)
USH_F_CONTIG_(putmem_nbi, PUTMEM_NBI, putmem_nbi)
USH_F_CONTIG_(getmem_nbi, GETMEM_NBI, getmem_nbi)

/* SHMEM_CHARACTER_PUT ... SHMEM_REAL_IGET. A CHARACTER argument brings a
 * hidden length after the others, which these never read. */
#define USH_F_TYPED_(name, NAME, BITS, BARE)                                  \
    USH_F_CONTIG_(name##_put, NAME##_PUT, put##BITS)                          \
    USH_F_CONTIG_(name##_get, NAME##_GET, get##BITS)                          \
    USH_F_CONTIG_(name##_put_nbi, NAME##_PUT_NBI, put##BITS##_nbi)            \
    USH_F_CONTIG_(name##_get_nbi, NAME##_GET_NBI, get##BITS##_nbi)            \
    BARE(shmem_##name##_put) BARE(shmem_##name##_get)                         \
    BARE(shmem_##name##_put_nbi) BARE(shmem_##name##_get_nbi)
#define USH_F_TYPED_STRIDED_(name, NAME, BITS, BARE)                          \
    USH_F_STRIDED_(name##_iput, NAME##_IPUT, iput##BITS)                      \
    USH_F_STRIDED_(name##_iget, NAME##_IGET, iget##BITS)                      \
    BARE(shmem_##name##_iput) BARE(shmem_##name##_iget)
USH_F_RMA_TYPES(USH_F_TYPED_)
USH_F_RMA_STRIDED_TYPES(USH_F_TYPED_STRIDED_)
