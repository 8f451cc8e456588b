/*
 * The active-set collectives (deprecated in 1.5, still used): barrier,
 * sync, broadcast, collect, fcollect, alltoall(s) and the *_to_all
 * reductions over (PE_start, logPE_stride, PE_size).
 *
 * A call's cross-PE state lives in the channel its (pSync, set) is bound
 * to (collectives/aset_chan.c): pSync is read and written only by the first
 * call with that pair, to agree on the channel, and is SHMEM_SYNC_VALUE
 * again on return. The algorithms in collectives/ run on the channel in
 * counting mode (a flag counts signals not yet taken), and every signal is
 * taken back by the wait it was meant for. Nothing is allocated per call.
 *
 * A PE outside the active set returns at once, touching nothing, as other
 * implementations do (the spec leaves it undefined, and verification
 * suites call reductions on every PE with a smaller set); SHMEM_DEBUG=1
 * makes it an error, which finds real mistakes.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_aset.h"
#include "collectives/ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "transport/ush_tp.h"

#include <string.h>

/* One size for every kind, covering what any routine uses: a pSync of any
 * documented size serves every kind. The checks below cover all of it. */
_Static_assert(SHMEM_BARRIER_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_BCAST_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_REDUCE_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_COLLECT_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_ALLTOALL_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_ALLTOALLS_SYNC_SIZE == SHMEM_SYNC_SIZE &&
               SHMEM_SYNC_SIZE >= USH_COLL_PSYNC_WORDS,
               "the SHMEM_*_SYNC_SIZE constants must be equal and cover USH_COLL_PSYNC_WORDS");

/* pSync's bytes: SHMEM_SYNC_SIZE longs from C, SHMEM_SYNC_SIZE default
 * INTEGERs (4 bytes) from Fortran (fortran/coll_f.c), which holds the
 * channel agreement's 16 bytes just as well. */
static size_t aset_psync_bytes(void)
{
    return SHMEM_SYNC_SIZE * (ush_f_routine ? sizeof(int32_t) : sizeof(long));
}

/* SHMEM_DEBUG=1: pSync must hold SHMEM_SYNC_VALUE on entry. On the set's
 * first member, its first 16 bytes may already hold a faster member's part of
 * this very call's agreement (aset_chan.c), and are not judged. */
static void aset_check_psync(const char *routine, const long *pSync, int me)
{
    size_t esize = aset_psync_bytes() / SHMEM_SYNC_SIZE; /* long, or a Fortran INTEGER */
    for (size_t i = me == 0 ? USH_COLL_PSYNC_WORDS * sizeof(long) / esize : 0;
         i < SHMEM_SYNC_SIZE; i++) {
        long v = esize == sizeof(long)
                     ? __atomic_load_n(&pSync[i], __ATOMIC_RELAXED)
                     : __atomic_load_n(&((const int32_t *)pSync)[i], __ATOMIC_RELAXED);
        if (v != SHMEM_SYNC_VALUE) {
            if (esize != sizeof(long)) {
                ush_fatal(routine,
                          "pSync(%zu) is %ld, not SHMEM_SYNC_VALUE: set every element to "
                          "SHMEM_SYNC_VALUE before the first use, and synchronise the active "
                          "set before reusing a pSync (or alternate two of them)",
                          i + 1, v);
            }
            ush_fatal(routine,
                      "pSync[%zu] is %ld, not SHMEM_SYNC_VALUE: set every element to "
                      "SHMEM_SYNC_VALUE before the first use, and synchronise the active "
                      "set before reusing a pSync (or alternate two of them)",
                      i, v);
        }
    }
}

/* One call: the set, then (aset_chan) its channel's words. */
typedef struct {
    ush_coll_sync_t s;
    long           *pSync;
    int             chan;
} aset_call_t;

/* SHMEM_DEBUG=1: the members compare their calls on the channel's check
 * block. The channel is handed back at once: the call may end before its
 * algorithm (nothing to move), and a borrowed channel must be returned. */
static void aset_check_call(aset_call_t *c, const ush_coll_call_t *call)
{
    int chan = ush_coll_chan_get(&c->s.set, c->pSync);
    c->s.w   = ush_coll_chan_words(chan);
    ush_coll_check(USH_COLL_CHECK_CHAN(chan), &c->s.set, call);
    ush_coll_chan_put(&c->s, chan);
}

/* Validates the triplet (always: a bad one sends to wrong PEs) and pSync
 * (its contents under SHMEM_DEBUG=1). Returns 0 when this PE is not in the
 * set: the caller returns at once. call->routine is routine. */
static int aset_begin(const ush_coll_call_t *call, int PE_start, int logPE_stride, int PE_size,
                      long *pSync, aset_call_t *c)
{
    const char *routine = call->routine;
    USH_CHECK_INIT(routine);
    ush_hang_enter_coll(routine);
    if (PE_start < 0 || logPE_stride < 0 || logPE_stride > 30 || PE_size < 1 ||
        (long)PE_start + ((long)(PE_size - 1) << logPE_stride) >= ush_g.n_pes) {
        ush_fatal(routine,
                  "invalid active set PE_start=%d logPE_stride=%d PE_size=%d: its PEs "
                  "PE_start + i * 2^logPE_stride (0 <= i < PE_size) must lie in 0..%d",
                  PE_start, logPE_stride, PE_size, ush_g.n_pes - 1);
    }
    int stride = 1 << logPE_stride, rel = ush_g.my_pe - PE_start;
    if (rel < 0 || rel % stride != 0 || rel / stride >= PE_size) {
        if (!ush_g.env.debug) return 0;
        ush_fatal(routine,
                  "PE %d is not in the active set PE_start=%d logPE_stride=%d PE_size=%d; "
                  "only members of the set may call it (without SHMEM_DEBUG such a call "
                  "returns at once and does nothing)",
                  ush_g.my_pe, PE_start, logPE_stride, PE_size);
    }
    USH_CHECK_SYMM(routine, "pSync", pSync, aset_psync_bytes());
    if (ush_g.env.debug) aset_check_psync(routine, pSync, rel / stride);
    *c = (aset_call_t){ .s = { .set = { .start = PE_start, .stride = stride, .size = PE_size,
                                        .me = rel / stride },
                               .lay = &ush_coll_layout_aset },
                        .pSync = pSync, .chan = -1 };
    if (USH_UNLIKELY(ush_g.env.debug)) aset_check_call(c, call);
    return 1;
}

/* The call's channel, right before its algorithm runs (every member gets
 * here, or none: the checks before it are the same on every member). */
static ush_coll_sync_t *aset_chan(aset_call_t *c)
{
    c->chan   = ush_coll_chan_get(&c->s.set, c->pSync);
    c->s.w    = ush_coll_chan_words(c->chan);
    return &c->s;
}

static void aset_done(aset_call_t *c)
{
    ush_coll_chan_put(&c->s, c->chan);
}

USH_API(void, shmem_barrier)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    USH_PROF_SCOPE("shmem_barrier");
    aset_call_t     c;
    ush_coll_call_t call = { "shmem_barrier", -1, -1, 0, 0 };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_coll_barrier_aset(aset_chan(&c));
    aset_done(&c);
}

USH_API(void, shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    USH_PROF_SCOPE("shmem_sync");
    aset_call_t     c;
    ush_coll_call_t call = { "shmem_sync", -1, -1, 0, 0 };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    ush_coll_barrier_aset(aset_chan(&c));
    aset_done(&c);
}

void ush_aset_bcast(const char *routine, void *dest, const void *source, size_t nelems,
                    size_t esize, int PE_root, int PE_start, int logPE_stride, int PE_size,
                    long *pSync)
{
    USH_PROF_SCOPE(routine);
    aset_call_t     c;
    size_t          bytes;
    ush_coll_call_t call = { routine, PE_root, (long)nelems, 0, 0 };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    USH_PROF_BYTES(bytes);
    if (PE_root < 0 || PE_root >= PE_size) {
        ush_fatal(routine, "PE_root %d is out of range: it counts members of the active set, "
                  "0 to %d", PE_root, PE_size - 1);
    }
    USH_CHECK_SYMM(routine, "dest", dest, bytes);
    if (bytes == 0) return; /* every member has nothing to do (buffers may be NULL) */
    /* The root's dest stays as it was (the specification's broadcast page,
     * the HPVM text). */
    ush_coll_bcast(aset_chan(&c), dest, source, bytes, PE_root);
    aset_done(&c);
}

static void aset_collect(const char *routine, int fixed, void *dest, const void *source,
                         size_t nelems, size_t esize, int PE_start, int logPE_stride,
                         int PE_size, long *pSync)
{
    USH_PROF_SCOPE(routine);
    aset_call_t     c;
    size_t          bytes, total;
    ush_coll_call_t call = { routine, -1, fixed ? (long)nelems : -1, 0, 0 };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    USH_PROF_BYTES(bytes);
    if (fixed) {
        USH_CHECK_NBYTES(routine, "nelems (times PE_size)", nelems, esize * (size_t)PE_size,
                         &total);
        USH_CHECK_SYMM(routine, "dest", dest, total);
        if (bytes == 0) return;
        ush_coll_fcollect(aset_chan(&c), dest, source, bytes);
    } else {
        ush_coll_collect(aset_chan(&c), dest, source, bytes);
    }
    aset_done(&c);
}

static void aset_alltoall(const char *routine, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t esize, int PE_start,
                          int logPE_stride, int PE_size, long *pSync)
{
    USH_PROF_SCOPE(routine);
    aset_call_t     c;
    ush_coll_call_t call = { routine, -1, (long)nelems, dst, sst };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    if (dst < 1 || sst < 1) {
        ush_fatal(routine, "dst (%td) and sst (%td) must be at least 1", dst, sst);
    }
    USH_PROF_BYTES(nelems * esize * (size_t)PE_size);
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
    ush_coll_alltoall(aset_chan(&c), dest, source, dst, sst, nelems, esize);
    aset_done(&c);
}

#define USH_ASET_SIZED_(B)                                                                   \
    USH_API(void, shmem_broadcast##B)(void *dest, const void *source, size_t nelems,         \
                                      int PE_root, int PE_start, int logPE_stride,           \
                                      int PE_size, long *pSync)                              \
    {                                                                                        \
        ush_aset_bcast("shmem_broadcast" #B, dest, source, nelems, B / 8, PE_root,          \
                       PE_start, logPE_stride, PE_size, pSync);                              \
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

/* The bytes of pWrk a reduction may use. The spec asks for
 * max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements, but some
 * published examples declare it with SHMEM_REDUCE_SYNC_SIZE elements and
 * run under other implementations, which do not use pWrk either. So a
 * shorter pWrk is only refused where it cannot hold one element; where it
 * ends before the spec's size would (the end of its segment: all a check
 * can see), the reduction uses what there is, in smaller chunks, and
 * SHMEM_DEBUG=1 says so (on the set's first member: it is the same on all). The segment's layout is the same on every PE, so
 * every PE takes the same size, as the algorithms require. */
static size_t aset_pwrk_bytes(const char *routine, void *pWrk, size_t want, size_t esize,
                              int first)
{
    size_t off, room;
    int    s = ush_seg_find(pWrk, esize, &off);

    if (s < 0) ush_check_fail_symm(routine, "pWrk", pWrk, want);
    room = ush_seg[s].size - off;
    if (room >= want) return want;
    if (ush_g.env.debug && first) {
        static int warned;
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) {
            ush_warn(routine,
                     "pWrk (%p) has room for %zu bytes before the end of its segment but the "
                     "spec asks for %zu (max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) "
                     "elements); this library manages with less, other implementations may "
                     "not (said once)",
                     pWrk, room, want);
        }
    }
    return room / esize * esize;
}

/* The algorithms use the library's scratch instead of pWrk when it is
 * larger, unless some PE runs multi-threaded (two threads may then reduce
 * over disjoint active sets at once; the choice must be the same on every
 * PE): then pWrk, in chunks when nreduce is larger. Either is only written
 * by members of this call after this PE said it is ready. */
void ush_aset_reduce(const char *routine, void *dest, const void *source, int nreduce,
                     size_t esize, ush_coll_op_fn_t op, int PE_start, int logPE_stride,
                     int PE_size, void *pWrk, long *pSync)
{
    USH_PROF_SCOPE(routine);
    aset_call_t     c;
    ush_coll_call_t call = { routine, -1, nreduce, 0, 0 };
    if (!aset_begin(&call, PE_start, logPE_stride, PE_size, pSync, &c)) return;
    if (nreduce < 0) ush_fatal(routine, "nreduce is %d; it must not be negative", nreduce);
    USH_PROF_BYTES((size_t)nreduce * esize);
    if (nreduce == 0) return; /* pWrk, dest and source may be NULL */
    size_t wrk = (size_t)nreduce / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE) wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    USH_CHECK_SYMM(routine, "dest", dest, (size_t)nreduce * esize);
    c.s.scratch       = pWrk;
    c.s.scratch_bytes = aset_pwrk_bytes(routine, pWrk, wrk * esize, esize, c.s.set.me == 0);
    if (ush_tp_thread_job != USH_TP_THREAD_MULTI && c.s.scratch_bytes < USH_COLL_ASET_SCRATCH) {
        c.s.scratch       = ush_coll_aset_scratch;
        c.s.scratch_bytes = USH_COLL_ASET_SCRATCH;
    }
    ush_coll_reduce(aset_chan(&c), dest, source, (size_t)nreduce, esize, op);
    aset_done(&c);
}

#define USH_TO_ALL_OP_(T, N, OP)                                                             \
    USH_API(void, shmem_##N##_##OP##_to_all)(T *dest, const T *source, int nreduce,          \
                                             int PE_start, int logPE_stride, int PE_size,    \
                                             T *pWrk, long *pSync)                           \
    {                                                                                        \
        ush_aset_reduce("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, sizeof(T),     \
                        ush_coll_op_##OP##_##N, PE_start, logPE_stride, PE_size, pWrk, pSync); \
    }
#define USH_TO_ALL_BIT_(T, N)    USH_TO_ALL_OP_(T, N, and) USH_TO_ALL_OP_(T, N, or) USH_TO_ALL_OP_(T, N, xor)
#define USH_TO_ALL_MINMAX_(T, N) USH_TO_ALL_OP_(T, N, max) USH_TO_ALL_OP_(T, N, min)
#define USH_TO_ALL_ARITH_(T, N)  USH_TO_ALL_OP_(T, N, sum) USH_TO_ALL_OP_(T, N, prod)
USHMEM_TO_ALL_BIT_TYPES(USH_TO_ALL_BIT_)
USHMEM_TO_ALL_MINMAX_TYPES(USH_TO_ALL_MINMAX_)
USHMEM_TO_ALL_ARITH_TYPES(USH_TO_ALL_ARITH_)
