/*
 * The Fortran interface (OpenSHMEM 1.4, the last with Fortran bindings):
 * how a routine is defined and named, and the Fortran types.
 *
 * Fortran passes every argument by reference. A Fortran routine NAME is
 * defined once, as pNAME_ (gfortran's lower case and one underscore, with
 * the profiling p in front), and exported under the names other compilers
 * and options use: NAME_ (gfortran, Intel, flang), NAME__ (g77 and
 * gfortran -fsecond-underscore, for names holding an underscore), NAME
 * (xlf, Cray, -fno-underscoring), and their pNAME_, pNAME__, pNAME
 * profiling forms. All are weak aliases of the one definition, so a
 * profiling library interposes exactly as for C.
 *
 * The bare NAME is left out where C already owns it (shmem_put32,
 * shmem_barrier, ...): there the C routine, with C's by-value arguments,
 * is what a C caller needs, and that is also what every other OpenSHMEM
 * library does. The families say which via USH_F_BARE.
 */
#ifndef USH_FORTRAN_H
#define USH_FORTRAN_H

#include "api/ush_check.h"
#include "api/ush_profiling.h"
#include "core/ush.h"

#include <stdint.h>

/* Default INTEGER and LOGICAL (gfortran and every x86-64/aarch64 compiler
 * without -fdefault-integer-8): 4 bytes. LOGICAL .TRUE. is 1. */
typedef int32_t ush_fint_t;
typedef int32_t ush_flogical_t;

#define USH_F_ALIAS_(name, target)                                            \
    extern __typeof__(target) name __attribute__((weak, alias(#target)));

/* Declare pNAME_ with its parameters, export NAME_, NAME__, pNAME__ as its
 * aliases, and open its definition. `params` is the parenthesised list. */
#define USH_F_DEF(ret, name, params)                                          \
    ret p##name##_ params;                                                    \
    USH_F_ALIAS_(name##_, p##name##_)                                         \
    USH_F_ALIAS_(name##__, p##name##_)                                        \
    USH_F_ALIAS_(p##name##__, p##name##_)                                     \
    ret p##name##_ params

/* NAME and pNAME too, for names C does not have. At file scope, after the
 * definition, no semicolon. */
#define USH_F_BARE(name)                                                      \
    USH_F_ALIAS_(name, p##name##_)                                            \
    USH_F_ALIAS_(p##name, p##name##_)

#define USH_F_NO_BARE(name)

/* Around the C routine a Fortran one runs: its messages name the Fortran
 * routine first (ush_f_routine, core/ush.h). */
#define USH_F_ENTER(FNAME) (ush_f_routine = (FNAME))
#define USH_F_LEAVE()      (ush_f_routine = NULL)
#define USH_F_RUN(FNAME, call)                                                \
    do {                                                                      \
        USH_F_ENTER(FNAME);                                                   \
        call;                                                                 \
        USH_F_LEAVE();                                                        \
    } while (0)

/* A Fortran count (nelems, nreduce, length): a negative one is a mistake
 * C's size_t cannot even express, so say so in Fortran's terms. */
static inline size_t ush_f_count(const char *froutine, const char *arg, ush_fint_t n)
{
    if (USH_UNLIKELY(n < 0)) {
        ush_f_routine = NULL; /* froutine is the name already */
        ush_fatal(froutine, "%s is %d; it must not be negative", arg, (int)n);
    }
    return (size_t)n;
}

#endif
