/*
 * Collective algorithms. They use the internal layer of src/ (ush_rma.h),
 * never the public shmem_* names.
 */
#ifndef USH_COLL_H
#define USH_COLL_H

/* Internal symmetric state of the collectives, allocated at init. */
void ush_coll_init(void);

#endif
