/*
 * The pre-OpenSHMEM interface of the HPVM cluster runtime (a Cray T3D-style
 * SHMEM): word-count get and put, counted gets, swap and broadcast on longs.
 * A program written to it includes this header instead of <shmem.h> or
 * <mpp/shmem.h>; docs/hpvm.md says what each routine does in OpenSHMEM's
 * terms.
 *
 * Units: `nlong` counts longs. The page says "32-bit words" because a long
 * was a 32-bit word on its machines; its programs size their buffers in
 * longs, so on LP64 a call moves nlong * 8 bytes: exactly their arrays.
 *
 * The names clash with OpenSHMEM's (shmem_get, shmem_put and
 * shmem_broadcast are its C11 generic routines, with other arguments), so
 * one translation unit includes one header or the other; translation
 * units of both kinds link into one program, because these routines have
 * link names of their own (ushmem_hpvm_*).
 */
#ifndef USHMEM_HPVM_H
#define USHMEM_HPVM_H

#ifdef USHMEM_SHMEM_H
#error "<ushmem/hpvm.h> and <shmem.h> (or <mpp/shmem.h>) declare shmem_get, shmem_put and shmem_broadcast differently: include one of them in a translation unit (docs/hpvm.md)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The link name of a routine whose source name is the page's. */
#if defined(__GNUC__) || defined(__clang__)
#define USHMEM_HPVM_NAME(name) __asm__(#name)
#else
#error "<ushmem/hpvm.h> needs a compiler with GCC's asm labels (gcc, clang)"
#endif

/* pSync of shmem_broadcast: this many longs, each set to _SHMEM_SYNC_VALUE
 * (and a barrier) before the first call; the same values as <shmem.h>. */
#define _SHMEM_BCAST_SYNC_SIZE 4
#define _SHMEM_SYNC_VALUE      0L

/* Start-up and queries. */
void shmem_init(void);
void start_pes(int npes);
int  _my_pe(void);
int  _num_pes(void);
/* Every PE waits for all the others, and all their puts are complete. */
void barrier(void) USHMEM_HPVM_NAME(ushmem_hpvm_barrier);

/* nlong longs from source on node into the local target; returns when
 * target holds them. */
void shmem_get(long *target, long *source, int nlong, int node)
    USHMEM_HPVM_NAME(ushmem_hpvm_get);
/* nlong longs from the local source into target on node; returns when
 * source may be reused (delivery is complete by the next barrier). */
void shmem_put(long *target, long *source, int nlong, int node)
    USHMEM_HPVM_NAME(ushmem_hpvm_put);
/* shmem_get that returns at once: *pcount is incremented (atomically)
 * once target holds the data, with nothing more for the program to call.
 * Several cgets in flight may share one counter. */
void shmem_cget(long *target, long *source, int nlong, int node, int *pcount)
    USHMEM_HPVM_NAME(ushmem_hpvm_cget);
/* Waits until *pcount reaches count: the page names shmem_cwait without a
 * signature; this is ushmem's (docs/hpvm.md). */
void shmem_cwait(int *pcount, int count) USHMEM_HPVM_NAME(ushmem_hpvm_cwait);
/* Atomically stores swap_value in target on node; returns what was there. */
long shmem_swap(long *target, long swap_value, int node) USHMEM_HPVM_NAME(ushmem_hpvm_swap);
/* Collective over the active set (PE_start, 2^logPE_stride, PE_size):
 * nlong longs from source on the set's PE_root-th member (relative to the
 * set) into target on the others; the root's target is not written. */
void shmem_broadcast(long *target, long *source, int nlong, int PE_root, int PE_start,
                     int logPE_stride, int PE_size, long *pSync)
    USHMEM_HPVM_NAME(ushmem_hpvm_broadcast);

#ifdef __cplusplus
}
#endif

#endif /* USHMEM_HPVM_H */
