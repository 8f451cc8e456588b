/*
 * The active-set reduction behind every *_to_all routine, for the callers
 * that bring an operator of their own: Fortran's REAL*16 reductions
 * (fortran/coll_f.c), whose type C's table does not have.
 */
#ifndef USH_ASET_H
#define USH_ASET_H

#include "collectives/ush_coll.h"

/* nreduce elements of esize bytes, combined with op over the active set;
 * pWrk and pSync as the spec says. routine names the caller in messages. */
void ush_aset_reduce(const char *routine, void *dest, const void *source, int nreduce,
                     size_t esize, ush_coll_op_fn_t op, int PE_start, int logPE_stride,
                     int PE_size, void *pWrk, long *pSync);

#endif
