/*
 * The active-set collectives (deprecated in 1.5, still used): barrier,
 * sync, broadcast, collect, fcollect, alltoall(s) and the *_to_all
 * reductions over (PE_start, logPE_stride, PE_size).
 *
 * Their only cross-PE state is the caller's pSync (and pWrk for
 * reductions): the algorithms in collectives/ run on it in counting mode
 * (a flag counts signals not yet taken), and every signal is taken back by
 * the wait it was meant for, so pSync is SHMEM_SYNC_VALUE again on return
 * and the same pSync can serve consecutive barriers. Nothing is
 * allocated.
 */
#include "ush.h"
#include "ush_check.h"
#include "ush_profiling.h"
#include "ush_rma.h"
#include "collectives/ush_coll.h"
#include "transport/ush_tp.h"

#include <string.h>

/* SHMEM_DEBUG=1: pSync must hold SHMEM_SYNC_VALUE on entry. Words a
 * faster member may already have signalled in this very call ("ready"
 * flags, the barrier's rounds in use) cannot be judged and are skipped. */
static int aset_early_word(size_t i, size_t sync_words, int n)
{
    if (sync_words == USH_COLL_W_BAR_WORDS) return (1 << i) < n && i < 31;
    return ush_coll_word_early(i);
}

static void aset_check_psync(const char *routine, const long *pSync, size_t sync_words, int n)
{
    for (size_t i = 0; i < sync_words; i++) {
        if (aset_early_word(i, sync_words, n)) continue;
        long v = __atomic_load_n(&pSync[i], __ATOMIC_RELAXED);
        if (v != SHMEM_SYNC_VALUE) {
            ush_fatal(routine,
                      "pSync[%zu] is %ld, not SHMEM_SYNC_VALUE: set every element to "
                      "SHMEM_SYNC_VALUE before the first use, and synchronise the active "
                      "set before reusing a pSync (or alternate two of them)",
                      i, v);
        }
    }
}

/* Validates the triplet (always: a bad one sends to wrong PEs) and pSync's
 * contents (SHMEM_DEBUG=1), and builds the sync state over pSync. */
static ush_coll_sync_t aset_begin(const char *routine, int PE_start, int logPE_stride,
                                  int PE_size, long *pSync, size_t sync_words)
{
    USH_CHECK_INIT(routine);
    if (PE_start < 0 || logPE_stride < 0 || logPE_stride > 30 || PE_size < 1 ||
        (long)PE_start + ((long)(PE_size - 1) << logPE_stride) >= ush_g.n_pes) {
        ush_fatal(routine,
                  "invalid active set PE_start=%d logPE_stride=%d PE_size=%d: its PEs "
                  "PE_start + i * 2^logPE_stride (0 <= i < PE_size) must lie in 0..%d",
                  PE_start, logPE_stride, PE_size, ush_g.n_pes - 1);
    }
    int stride = 1 << logPE_stride, rel = ush_g.my_pe - PE_start;
    if (rel < 0 || rel % stride != 0 || rel / stride >= PE_size) {
        ush_fatal(routine,
                  "PE %d is not in the active set PE_start=%d logPE_stride=%d PE_size=%d; "
                  "only members of the set may call it",
                  ush_g.my_pe, PE_start, logPE_stride, PE_size);
    }
    USH_CHECK_SYMM(routine, "pSync", pSync, sync_words * sizeof(long));
    if (ush_g.env.debug) aset_check_psync(routine, pSync, sync_words, PE_size);
    return (ush_coll_sync_t){ .set = { .start = PE_start, .stride = stride, .size = PE_size,
                                       .me = rel / stride },
                              .w = (uint64_t *)pSync, .lay = &ush_coll_layout_aset };
}

/* The words each kind uses must fit the pSync the spec has programs
 * allocate for it. */
_Static_assert(SHMEM_BCAST_SYNC_SIZE >= USH_COLL_W_TOTAL, "SHMEM_BCAST_SYNC_SIZE too small");
_Static_assert(SHMEM_REDUCE_SYNC_SIZE >= USH_COLL_W_REDUCE &&
               SHMEM_ALLTOALL_SYNC_SIZE >= USH_COLL_W_REDUCE &&
               SHMEM_ALLTOALLS_SYNC_SIZE >= USH_COLL_W_REDUCE &&
               SHMEM_COLLECT_SYNC_SIZE >= USH_COLL_W_REDUCE, "SHMEM_*_SYNC_SIZE too small");
_Static_assert(SHMEM_SYNC_SIZE >= USH_COLL_W_TOTAL, "SHMEM_SYNC_SIZE too small");

USH_API(void, shmem_barrier)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    ush_coll_sync_t s = aset_begin("shmem_barrier", PE_start, logPE_stride, PE_size, pSync,
                                   USH_COLL_W_BAR_WORDS);
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_coll_barrier_aset(&s);
}

USH_API(void, shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    ush_coll_sync_t s = aset_begin("shmem_sync", PE_start, logPE_stride, PE_size, pSync,
                                   USH_COLL_W_BAR_WORDS);
    ush_coll_barrier_aset(&s);
}

static void aset_bcast(const char *routine, void *dest, const void *source, size_t nelems,
                       size_t esize, int PE_root, int PE_start, int logPE_stride, int PE_size,
                       long *pSync)
{
    ush_coll_sync_t s =
        aset_begin(routine, PE_start, logPE_stride, PE_size, pSync, USH_COLL_W_TOTAL);
    size_t          bytes;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    if (PE_root < 0 || PE_root >= PE_size) {
        ush_fatal(routine, "PE_root %d is out of range: it counts members of the active set, "
                  "0 to %d", PE_root, PE_size - 1);
    }
    USH_CHECK_SYMM(routine, "dest", dest, bytes);
    if (bytes == 0) return; /* every member has nothing to do (buffers may be NULL) */
    /* The root's dest stays as it was (seeds 000, 003). */
    ush_coll_bcast(&s, dest, source, bytes, PE_root);
}

static void aset_collect(const char *routine, int fixed, void *dest, const void *source,
                         size_t nelems, size_t esize, int PE_start, int logPE_stride,
                         int PE_size, long *pSync)
{
    ush_coll_sync_t s =
        aset_begin(routine, PE_start, logPE_stride, PE_size, pSync, USH_COLL_W_REDUCE);
    size_t          bytes, total;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    if (fixed) {
        USH_CHECK_NBYTES(routine, "nelems (times PE_size)", nelems, esize * (size_t)PE_size,
                         &total);
        USH_CHECK_SYMM(routine, "dest", dest, total);
        if (bytes == 0) return;
        ush_coll_fcollect(&s, dest, source, bytes);
    } else {
        ush_coll_collect(&s, dest, source, bytes);
    }
}

static void aset_alltoall(const char *routine, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t esize, int PE_start,
                          int logPE_stride, int PE_size, long *pSync)
{
    ush_coll_sync_t s =
        aset_begin(routine, PE_start, logPE_stride, PE_size, pSync, USH_COLL_W_REDUCE);
    if (dst < 1 || sst < 1) {
        ush_fatal(routine, "dst (%td) and sst (%td) must be at least 1", dst, sst);
    }
    if (nelems) {
        /* dest holds PE_size blocks of nelems elements dst apart. */
        size_t blocks, span;
        USH_CHECK_NBYTES(routine, "nelems (times PE_size)", nelems, PE_size, &blocks);
        USH_CHECK_NBYTES(routine, "nelems (times PE_size and dst)", blocks - 1, (size_t)dst,
                         &span);
        USH_CHECK_NBYTES(routine, "nelems (times PE_size, dst and element size)", span + 1,
                         esize, &span);
        USH_CHECK_SYMM(routine, "dest", dest, span);
    }
    if (nelems == 0) return;
    ush_coll_alltoall(&s, dest, source, dst, sst, nelems, esize);
}

#define USH_ASET_SIZED_(B)                                                                   \
    USH_API(void, shmem_broadcast##B)(void *dest, const void *source, size_t nelems,         \
                                      int PE_root, int PE_start, int logPE_stride,           \
                                      int PE_size, long *pSync)                              \
    {                                                                                        \
        aset_bcast("shmem_broadcast" #B, dest, source, nelems, B / 8, PE_root, PE_start,   \
                   logPE_stride, PE_size, pSync);                                            \
    }                                                                                        \
    USH_API(void, shmem_collect##B)(void *dest, const void *source, size_t nelems,           \
                                    int PE_start, int logPE_stride, int PE_size,             \
                                    long *pSync)                                             \
    {                                                                                        \
        aset_collect("shmem_collect" #B, 0, dest, source, nelems, B / 8, PE_start,         \
                     logPE_stride, PE_size, pSync);                                          \
    }                                                                                        \
    USH_API(void, shmem_fcollect##B)(void *dest, const void *source, size_t nelems,          \
                                     int PE_start, int logPE_stride, int PE_size,            \
                                     long *pSync)                                            \
    {                                                                                        \
        aset_collect("shmem_fcollect" #B, 1, dest, source, nelems, B / 8, PE_start,        \
                     logPE_stride, PE_size, pSync);                                          \
    }                                                                                        \
    USH_API(void, shmem_alltoall##B)(void *dest, const void *source, size_t nelems,          \
                                     int PE_start, int logPE_stride, int PE_size,            \
                                     long *pSync)                                            \
    {                                                                                        \
        aset_alltoall("shmem_alltoall" #B, dest, source, 1, 1, nelems, B / 8, PE_start,      \
                      logPE_stride, PE_size, pSync);                                         \
    }                                                                                        \
    USH_API(void, shmem_alltoalls##B)(void *dest, const void *source, ptrdiff_t dst,         \
                                      ptrdiff_t sst, size_t nelems, int PE_start,            \
                                      int logPE_stride, int PE_size, long *pSync)            \
    {                                                                                        \
        aset_alltoall("shmem_alltoalls" #B, dest, source, dst, sst, nelems, B / 8, PE_start, \
                      logPE_stride, PE_size, pSync);                                         \
    }
USHMEM_COLL_SIZES(USH_ASET_SIZED_)

/* pWrk holds max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements.
 * The algorithms use the library's larger scratch instead, unless some PE
 * runs multi-threaded (two threads may then reduce over disjoint active
 * sets at once; the choice must be the same on every PE): then exactly
 * pWrk, in chunks when nreduce is larger. Either is only written by
 * members of this call after this PE said it is ready. */
static void aset_reduce(const char *routine, void *dest, const void *source, int nreduce,
                        size_t esize, ush_coll_op_fn_t op, int PE_start, int logPE_stride,
                        int PE_size, void *pWrk, long *pSync)
{
    ush_coll_sync_t s =
        aset_begin(routine, PE_start, logPE_stride, PE_size, pSync, USH_COLL_W_REDUCE);
    if (nreduce < 0) ush_fatal(routine, "nreduce is %d; it must not be negative", nreduce);
    if (nreduce == 0) return; /* pWrk, dest and source may be NULL */
    size_t wrk = (size_t)nreduce / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE) wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    USH_CHECK_SYMM(routine, "pWrk", pWrk, wrk * esize);
    USH_CHECK_SYMM(routine, "dest", dest, (size_t)nreduce * esize);
    s.scratch       = pWrk;
    s.scratch_bytes = wrk * esize;
    if (ush_tp_thread_job != USH_TP_THREAD_MULTI && s.scratch_bytes < USH_COLL_ASET_SCRATCH) {
        s.scratch       = ush_coll_aset_scratch;
        s.scratch_bytes = USH_COLL_ASET_SCRATCH;
    }
    ush_coll_reduce(&s, dest, source, (size_t)nreduce, esize, op);
}

#define USH_TO_ALL_OP_(T, N, OP)                                                             \
    USH_API(void, shmem_##N##_##OP##_to_all)(T *dest, const T *source, int nreduce,          \
                                             int PE_start, int logPE_stride, int PE_size,    \
                                             T *pWrk, long *pSync)                           \
    {                                                                                        \
        aset_reduce("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, sizeof(T),         \
                    ush_coll_op_##OP##_##N, PE_start, logPE_stride, PE_size, pWrk, pSync);   \
    }
#define USH_TO_ALL_BIT_(T, N)    USH_TO_ALL_OP_(T, N, and) USH_TO_ALL_OP_(T, N, or) USH_TO_ALL_OP_(T, N, xor)
#define USH_TO_ALL_MINMAX_(T, N) USH_TO_ALL_OP_(T, N, max) USH_TO_ALL_OP_(T, N, min)
#define USH_TO_ALL_ARITH_(T, N)  USH_TO_ALL_OP_(T, N, sum) USH_TO_ALL_OP_(T, N, prod)
USHMEM_TO_ALL_BIT_TYPES(USH_TO_ALL_BIT_)
USHMEM_TO_ALL_MINMAX_TYPES(USH_TO_ALL_MINMAX_)
USHMEM_TO_ALL_ARITH_TYPES(USH_TO_ALL_ARITH_)
