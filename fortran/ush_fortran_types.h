/*
 * The Fortran families and what each is in C's type table
 * (<ushmem/types.h>): the Fortran layer expands from these lists, and every
 * C routine it runs is one the C table generates (the compiler checks each
 * name against <pshmem.h>). Element sizes are the 1.4 text's: the 4 and 32
 * forms move 32-bit elements, the 8 and 64 forms 64-bit ones.
 */
#ifndef USH_FORTRAN_TYPES_H
#define USH_FORTRAN_TYPES_H

/* Sized RMA: X(suffix, C bits, BARE): SHMEM_PUT<suffix> runs
 * shmem_put<bits>. BARE (fortran/ush_fortran.h) is USH_F_NO_BARE where C
 * has a routine of the Fortran name (shmem_put8, ..., its 8 meaning bits). */
#define USH_F_RMA_SIZES(X)                                                    \
    X(4, 32, USH_F_BARE)                                                      \
    X(8, 64, USH_F_NO_BARE)                                                   \
    X(32, 32, USH_F_NO_BARE)                                                  \
    X(64, 64, USH_F_NO_BARE)                                                  \
    X(128, 128, USH_F_NO_BARE)

/* Typed RMA: X(name, NAME, C bits of one element, BARE), where BARE is
 * USH_F_BARE, or USH_F_NO_BARE for DOUBLE, whose bare names
 * (shmem_double_put, ...) are C routines. CHARACTER has no strided forms
 * in 1.4; USH_F_RMA_STRIDED_TYPES lists those that do. */
#define USH_F_RMA_STRIDED_TYPES(X)                                            \
    X(complex, COMPLEX, 64, USH_F_BARE)                                       \
    X(double, DOUBLE, 64, USH_F_NO_BARE)                                      \
    X(integer, INTEGER, 32, USH_F_BARE)                                       \
    X(logical, LOGICAL, 32, USH_F_BARE)                                       \
    X(real, REAL, 32, USH_F_BARE)
#define USH_F_RMA_TYPES(X) X(character, CHARACTER, 8, USH_F_BARE) USH_F_RMA_STRIDED_TYPES(X)

/* Sized active-set collectives (broadcast, collect, fcollect):
 * X(suffix, C bits, BARE). alltoall(s) have only the 32 and 64 forms,
 * which are C's names too. */
#define USH_F_COLL_SIZES(X)                                                   \
    X(4, 32, USH_F_BARE)                                                      \
    X(8, 64, USH_F_BARE)                                                      \
    X(32, 32, USH_F_NO_BARE)                                                  \
    X(64, 64, USH_F_NO_BARE)

/* Atomics: X(name, NAME, C type, C typename of the AMO type table). */
#define USH_F_AMO_INT_TYPES(X)                                                \
    X(int4, INT4, int32_t, int32)                                             \
    X(int8, INT8, int64_t, int64)
#define USH_F_AMO_REAL_TYPES(X)                                               \
    X(real4, REAL4, float, float)                                             \
    X(real8, REAL8, double, double)

/* Point-to-point waits: X(name, NAME, C type, C typename). */
#define USH_F_WAIT_TYPES(X) USH_F_AMO_INT_TYPES(X)

/* Reductions: X(name, NAME, C type, C typename of the to_all table).
 * Fortran's INTEGER*2, *4 and *8 are C's short, int and long on every LP64
 * target (checked in the file that expands them). INTEGER*2 is not in 1.4's
 * list; SGI's and Cray's SHMEM had it, and so do Open MPI's and OSSS's
 * Fortran interfaces, which programs of that era call it through. REAL*16 is IEEE quad, not x86's
 * long double, so it has operators of its own (fortran/reduce_f.c). */
#define USH_F_REDUCE_INT_TYPES(X)                                             \
    X(int2, INT2, short, short)                                               \
    X(int4, INT4, int, int)                                                   \
    X(int8, INT8, long, long)
#define USH_F_REDUCE_REAL_TYPES(X)                                            \
    X(real4, REAL4, float, float)                                             \
    X(real8, REAL8, double, double)
#define USH_F_REDUCE_COMPLEX_TYPES(X)                                         \
    X(comp4, COMP4, ush_complexf_t, complexf)                                 \
    X(comp8, COMP8, ush_complexd_t, complexd)

#endif
