/*
 * The pre-OpenSHMEM interface of <ushmem/hpvm.h> (docs/hpvm.md): each
 * routine checks its arguments under the page's name and hands the work to
 * the same internal layer as OpenSHMEM's. The link names are ushmem_hpvm_*
 * (the header maps the page's names onto them), so these never clash with
 * OpenSHMEM's routines of the same source names.
 */
#include "ush_check.h"
#include "collectives/ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"


#define USH_HPVM_API __attribute__((visibility("default")))

/* nlong longs as bytes; a negative count is an error, not a huge one. */
static size_t ush_hpvm_bytes(const char *routine, int nlong)
{
    if (USH_UNLIKELY(nlong < 0)) {
        ush_fatal(routine, "nlong is %d: it counts the longs to move, 0 or more", nlong);
    }
    return (size_t)nlong * sizeof(long);
}

/* shmem_get and shmem_put. */
static void ush_hpvm_contig(const char *routine, int is_put, long *target, long *source,
                            int nlong, int node)
{
    size_t bytes = ush_hpvm_bytes(routine, nlong);
    USH_CHECK_INIT(routine);
    USH_CHECK_PE(routine, node);
    if (bytes == 0) return;
    if (is_put) {
        USH_CHECK_SYMM(routine, "target", target, bytes);
        ush_put(SHMEM_CTX_DEFAULT, target, source, bytes, node);
    } else {
        USH_CHECK_SYMM(routine, "source", source, bytes);
        ush_get(SHMEM_CTX_DEFAULT, target, source, bytes, node);
    }
}

USH_HPVM_API void ushmem_hpvm_get(long *target, long *source, int nlong, int node)
{
    ush_hpvm_contig("shmem_get", 0, target, source, nlong, node);
}

USH_HPVM_API void ushmem_hpvm_put(long *target, long *source, int nlong, int node)
{
    ush_hpvm_contig("shmem_put", 1, target, source, nlong, node);
}

/* The counter is the whole protocol: whoever completes the get (this
 * thread, or the progress thread's callback, ops.c) increments it with
 * release after the data is in target, and cwait's acquire load that sees
 * the count reads target after. A program that polls *pcount itself
 * needs an acquire load of its own (docs/hpvm.md says so). */
USH_HPVM_API void ushmem_hpvm_cget(long *target, long *source, int nlong, int node, int *pcount)
{
    size_t bytes = ush_hpvm_bytes("shmem_cget", nlong);
    USH_CHECK_INIT("shmem_cget");
    USH_CHECK_PE("shmem_cget", node);
    if (USH_UNLIKELY(pcount == NULL)) {
        ush_fatal("shmem_cget", "pcount is NULL: pass the counter to increment");
    }
    if (bytes == 0) { /* nothing to wait for: valid at once */
        __atomic_add_fetch(pcount, 1, __ATOMIC_RELEASE);
        return;
    }
    USH_CHECK_SYMM("shmem_cget", "source", source, bytes);
    ush_get_counted(target, source, bytes, node, pcount);
}

USH_HPVM_API void ushmem_hpvm_cwait(int *pcount, int count)
{
    USH_CHECK_INIT("shmem_cwait");
    if (USH_UNLIKELY(pcount == NULL)) {
        ush_fatal("shmem_cwait", "pcount is NULL: pass the counter shmem_cget increments");
    }
    USH_WAIT_UNTIL(__atomic_load_n(pcount, __ATOMIC_ACQUIRE) >= count);
}

USH_HPVM_API long ushmem_hpvm_swap(long *target, long swap_value, int node)
{
    USH_CHECK_INIT("shmem_swap");
    USH_CHECK_PE("shmem_swap", node);
    USH_CHECK_SYMM("shmem_swap", "target", target, sizeof(long));
    return (long)ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_SWAP, target, (uint64_t)swap_value, 0,
                               sizeof(long), node);
}

USH_HPVM_API void ushmem_hpvm_broadcast(long *target, long *source, int nlong, int PE_root,
                                        int PE_start, int logPE_stride, int PE_size,
                                        long *pSync)
{
    (void)ush_hpvm_bytes("shmem_broadcast", nlong);
    USH_CHECK_INIT("shmem_broadcast");
    ush_aset_bcast("shmem_broadcast", target, source, (size_t)nlong, sizeof(long), PE_root,
                   PE_start, logPE_stride, PE_size, pSync);
}

USH_HPVM_API void ushmem_hpvm_barrier(void)
{
    USH_CHECK_INIT("barrier");
    ush_barrier_all();
}
