/*
 * Collective algorithms. They use the core below them (core/ush_rma.h),
 * never the public shmem_* names above them, so a profiling tool sees one
 * call per user call.
 */
#ifndef USH_COLL_H
#define USH_COLL_H

#include <stddef.h>
#include <stdint.h>

/* The PEs a collective runs over: world PEs start + i * stride for
 * 0 <= i < size; this PE is member me (or -1 when not a member). Active
 * sets (PE_start, logPE_stride, PE_size) and teams both reduce to this. */
typedef struct {
    int start;
    int stride;
    int size;
    int me;
} ush_coll_set_t;

static inline int ush_coll_pe(const ush_coll_set_t *set, int i)
{
    return set->start + i * set->stride;
}

/* Rounds a dissemination barrier needs at most (2^32 PEs). */
#define USH_COLL_BARRIER_ROUNDS 32

/* Barrier over set (barrier.c: dissemination or central). flags:
 * symmetric uint64_t[USH_COLL_BARRIER_ROUNDS] owned by this set (not
 * reset between barriers: each stores a larger sequence number); seq:
 * this PE's private count of barriers on these flags, the same on every
 * member; kept: nobody clears the flags while the set lives (the world's;
 * not a team's, cleared at destroy). Completes no outstanding operations
 * (that is the caller's quiet). */
void ush_coll_barrier_seq(const ush_coll_set_t *set, uint64_t *flags, uint64_t *seq, int kept);

/* Internal symmetric state of the collectives, allocated at init. */
void ush_coll_init(void);

/* The receive buffer of active-set reductions, in place of pWrk when only
 * one thread can be in them at a time: the spec's pWrk (half the data) cuts
 * a reduction into two chunks, each a round trip per round. */
#define USH_COLL_ASET_SCRATCH (64u << 10)
extern void *ush_coll_aset_scratch;

/* SHMEM_DEBUG=1 (check.c): before a collective runs, its members compare
 * what they called, and a difference ends the job naming both PEs and both
 * calls. A domain is where a call's check runs: a team's pool slot, or an
 * active-set channel. count is -1 where members may differ (collect) or
 * the routine has none, root -1 where it has none, dst and sst 0 but for
 * alltoalls. Call it on every member, before any early return. */
typedef struct {
    const char *routine;
    long        root;
    long        count;
    long        dst, sst;
} ush_coll_call_t;
#define USH_COLL_CHECK_TEAMS      64
#define USH_COLL_CHECK_CHANS      64
#define USH_COLL_CHECK_DOMAINS    (USH_COLL_CHECK_TEAMS + USH_COLL_CHECK_CHANS)
#define USH_COLL_CHECK_TEAM(slot) (slot)
#define USH_COLL_CHECK_CHAN(chan) (USH_COLL_CHECK_TEAMS + (chan))
void ush_coll_check_init(void);
void ush_coll_check(int domain, const ush_coll_set_t *set, const ush_coll_call_t *call);

/* Read and check SHMEM_<KIND>_ALGORITHM (select.c); a bad name is fatal,
 * so it is caught at start-up rather than at the first collective. */
void ush_coll_select_init(void);


/* ======================================================================
 * Below: the collective algorithms (every collectives/ file but barrier.c).
 * ====================================================================== */

#include <ushmem/types.h>

/* After the words every collective uses (USH_COLL_W_BASE) come regions a
 * member may fill before their owner enters the call (coll_sync.h): the
 * slots of reductions, alltoalls and fcollects, then the broadcast mailboxes of sets of up to
 * USH_COLL_MBOX_N members, one region per payload class (slots of a tag
 * and 8, 56, 256 or 2048 bytes: the smaller the slot, the more calls one
 * cache line carries). Their sizes are a layout: a channel has room for
 * deep mailboxes, so a root can run many calls ahead; a team's bank comes
 * round again only once every member is past its last use, so one slot
 * per root is enough there (and its two largest classes have none). */
#define USH_COLL_W_BASE        136
#define USH_COLL_MBOX_N        16
/* Sets a linear broadcast serves without mailboxes too (ready counts on
 * the root's word, then the root copies to each); up to USH_COLL_MBOX_N,
 * only through mailboxes (bcast.c falls back to the tree where a layout
 * has none). */
#define USH_COLL_LINEAR_MAX    8
#define USH_COLL_MBOX_CLASSES  4
#define USH_COLL_MBOX_MAX      2048 /* bytes: the largest class */

typedef struct {
    int red_words;                         /* slots, from USH_COLL_W_BASE */
    int mbox_words[USH_COLL_MBOX_CLASSES]; /* mailboxes, by class, after them (0: none) */
} ush_coll_layout_t;

/* Active sets: the words of one channel (aset_chan.c), all regions. */
#define USH_COLL_ASET_RED      2112
#define USH_COLL_ASET_MBOX     { 512, 2048, 2112, 4112 }
#define USH_COLL_W_TOTAL       (USH_COLL_W_BASE + USH_COLL_ASET_RED + 512 + 2048 + 2112 + 4112)
/* One bank of a team's sync words. */
#define USH_COLL_TEAM_RED      2112
#define USH_COLL_TEAM_MBOX     { 32, 128, 0, 0 }
#define USH_COLL_W_TEAM        (USH_COLL_W_BASE + USH_COLL_TEAM_RED + 32 + 128)
extern const ush_coll_layout_t ush_coll_layout_aset, ush_coll_layout_team;

/* Where a collective keeps its cross-PE state.
 *   w        symmetric words: the channel of the caller's pSync (active
 *            set, aset_chan.c) or one bank of the team's sync words,
 *            laid out as lay says. A flag counts signals not yet
 *            consumed (a signal adds one, a wait takes one back), so a
 *            word is 0 again once its owner has seen every signal, and a
 *            peer already in the next call on the same words only leaves
 *            a count behind instead of being lost.
 *   scratch  symmetric receive buffer of scratch_bytes (pWrk or the team's
 *            scratch); reductions and scans only. */
typedef struct {
    ush_coll_set_t           set;
    uint64_t                *w;
    const ush_coll_layout_t *lay; /* of w beyond USH_COLL_W_BASE */
    void                    *scratch;
    size_t                   scratch_bytes;
} ush_coll_sync_t;

/* Channels of the active-set routines (aset_chan.c): the state of a call
 * lives in a block of library symmetric memory bound to its (pSync, set);
 * pSync itself serves only the first call's agreement on which block, in
 * its first USH_COLL_PSYNC_WORDS longs (the SHMEM_*_SYNC_SIZE constants
 * must cover them): 16 bytes, which Fortran's INTEGER pSync(4) holds too. */
#define USH_COLL_PSYNC_WORDS 2
void ush_coll_chan_init(void);
/* The channel of (pSync, set): bound earlier, or agreed on now with the
 * other members (collective over set then). Pass it to ush_coll_chan_put
 * when the call is done. */
int       ush_coll_chan_get(const ush_coll_set_t *set, long *pSync);
uint64_t *ush_coll_chan_words(int chan);
/* End of a call on chan (s->w its words): a borrowed channel is handed
 * back after a barrier over the set; a bound one needs nothing. */
void ush_coll_chan_put(const ush_coll_sync_t *s, int chan);

/* Forget the call counts kept for sync words in [w, w + words) (a team's,
 * when it is destroyed), or all of them (w NULL, at init). Collective. */
void ush_coll_seq_drop(const uint64_t *w, size_t words);

typedef enum {
    USH_COLL_BARRIER,
    USH_COLL_BCAST,
    USH_COLL_COLLECT,
    USH_COLL_FCOLLECT,
    USH_COLL_ALLTOALL,
    USH_COLL_REDUCE,
    USH_COLL_KINDS
} ush_coll_kind_t;

/* The direct reduction (members that map each other's memory) serves sets
 * of at most this many members. */
#define USH_COLL_DIRECT_MAX 16

/* The algorithm for one call: forced by SHMEM_<KIND>_ALGORITHM, else the
 * selection table by (kind, bytes, set size). bytes and n must be the same
 * on every member. Returns an index into that kind's name list. */
int ush_coll_select(ush_coll_kind_t kind, size_t bytes, int n);
/* The algorithm SHMEM_<KIND>_ALGORITHM forces, or -1 (auto). */
int ush_coll_forced_algo(ush_coll_kind_t kind);
/* Name of algorithm `algo` of `kind` (for messages and docs). */
const char *ush_coll_algo_name(ush_coll_kind_t kind, int algo);

/* inout[i] = inout[i] OP in[i] for i < n. */
typedef void (*ush_coll_op_fn_t)(void *inout, const void *in, size_t n);

/* The algorithms. They return nothing: flags are counts, so a call leaves
 * its caller nothing to carry into the next one. Members must pass the same
 * sizes, root and operator. */
void ush_coll_barrier_aset(const ush_coll_sync_t *s);
/* bytes from member root's src into every other member's dest; the root's
 * dest is not touched (the team API copies it itself). */
void ush_coll_bcast(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes, int root);
/* The deprecated active-set broadcast with its pSync, argument checks and
 * messages under the name of the routine the user called (api/
 * coll_active_api.c): shmem_broadcast32/64, and the HPVM interface's
 * shmem_broadcast (api/hpvm.c). */
void ush_aset_bcast(const char *routine, void *dest, const void *source, size_t nelems,
                    size_t esize, int PE_root, int PE_start, int logPE_stride, int PE_size,
                    long *pSync);
/* Member i's bytes land at dest + i * bytes on every member. */
void ush_coll_fcollect(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes);
/* Like fcollect but bytes may differ per member: blocks are concatenated in
 * member order. */
void ush_coll_collect(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes);
/* Member i's block j (nelems elements of esize bytes, element stride sst,
 * starting at element sst * j * nelems) lands on member j at element
 * dst * i * nelems with element stride dst. */
void ush_coll_alltoall(const ush_coll_sync_t *s, void *dest, const void *src, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems, size_t esize);
/* dest = op over members of src, count elements of esize bytes, through
 * s->scratch only (chunked by its size). src may equal dest. */
void ush_coll_reduce(const ush_coll_sync_t *s, void *dest, const void *src, size_t count,
                     size_t esize, ush_coll_op_fn_t op);
/* Prefix sums: member i gets src summed over members 0..i (inclusive) or
 * 0..i-1 (exclusive; zero on member 0). sum is the type's SUM operator. */
void ush_coll_scan(const ush_coll_sync_t *s, void *dest, const void *src, size_t count,
                   size_t esize, ush_coll_op_fn_t sum, int exclusive);

/* Reduction operators, one per (operator, type): ush_coll_op_sum_int, ... */
#define USH_COLL_DECL_OP_(T, N, OP) void ush_coll_op_##OP##_##N(void *inout, const void *in, size_t n);
#define USH_COLL_DECL_BIT_(T, N)    USH_COLL_DECL_OP_(T, N, and) USH_COLL_DECL_OP_(T, N, or) USH_COLL_DECL_OP_(T, N, xor)
#define USH_COLL_DECL_MINMAX_(T, N) USH_COLL_DECL_OP_(T, N, max) USH_COLL_DECL_OP_(T, N, min)
#define USH_COLL_DECL_ARITH_(T, N)  USH_COLL_DECL_OP_(T, N, sum) USH_COLL_DECL_OP_(T, N, prod)
USHMEM_REDUCE_BIT_TYPES(USH_COLL_DECL_BIT_)
USHMEM_TO_ALL_BIT_TYPES(USH_COLL_DECL_BIT_)
USHMEM_REDUCE_MINMAX_TYPES(USH_COLL_DECL_MINMAX_)
USHMEM_REDUCE_ARITH_TYPES(USH_COLL_DECL_ARITH_)

/* Fortran's REAL*16 (SHMEM_REAL16_*_TO_ALL): IEEE binary128, which is
 * __float128 on x86-64 (its long double is the 80-bit format) and long
 * double where that is binary128 (aarch64, s390x). Without either there
 * are no REAL16 reductions. */
#if defined(__SIZEOF_FLOAT128__) && !(__LDBL_MANT_DIG__ == 113)
#define USH_HAVE_REAL16 1
typedef __float128 ush_real16_t;
#elif __LDBL_MANT_DIG__ == 113
#define USH_HAVE_REAL16 1
typedef long double ush_real16_t;
#endif
#ifdef USH_HAVE_REAL16
#define USH_COLL_REAL16_TYPES(X) X(ush_real16_t, real16)
#else
#define USH_COLL_REAL16_TYPES(X)
#endif
USH_COLL_REAL16_TYPES(USH_COLL_DECL_MINMAX_)
USH_COLL_REAL16_TYPES(USH_COLL_DECL_ARITH_)

#endif
