/*
 * The set-wide barrier (the world's, a team's, the exit barrier), on
 * flags of the set's own:
 *
 * - dissemination (Hensgen, Finkel and Manber) finishes in ceil(log2 n)
 *   rounds with one signal sent and one awaited per PE per round, for any
 *   n. Round r signals PE (me + 2^r) mod n by storing the barrier's
 *   sequence number into its flag r and waits until our own flag r reaches
 *   it.
 * - central: members 1..n-1 tell member 0 they have arrived; member 0
 *   waits for all of them, then stores the sequence number into word 0 of
 *   each member's flags. Two one-way transfers, like dissemination at 3 or
 *   4 members, and member 0 leaves first: what it does next (a broadcast,
 *   handing out work) is under way when the others leave, instead of
 *   finding them already waiting for it. Up to USH_BARRIER_CENTRAL_WORDS
 *   members each store into a word of their own in member 0's flags (a
 *   hang report can then name the one missing); beyond, they add one to
 *   member 0's word 1, the last to arrive wakes member 0, and member 0's
 *   one store into its own word 0 releases them all (on flags that
 *   nobody clears: see ush_coll_barrier_seq). Where the
 *   node's PEs outnumber its cores, every PE that waits must get a turn on
 *   a core again to go on: n + n turns here against n per round of
 *   dissemination's log2 n (1024 PEs on 2 cores: the last PE leaves a
 *   barrier 0.17-0.33 s after the first, against 0.8 s).
 *
 * The sequence only grows, so flags never need resetting: a peer already
 * in the next barrier writes a larger number, which still satisfies ">=".
 * A set uses one algorithm on its flags for its whole life: the choice
 * depends on the set's size, ush_tp_all_mapped and ush_g.crowded, all
 * settled by shmem_init's closing agreement, before any barrier (the
 * central count assumes every barrier on its flags was central).
 */
#include "ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "transport/ush_tp.h"

#include <stdint.h>

/* Members of a central barrier that arrive in words of their own. */
#define USH_BARRIER_CENTRAL_WORDS 8
_Static_assert(USH_BARRIER_CENTRAL_WORDS < USH_COLL_BARRIER_ROUNDS,
               "central words exceed the flags");

static uint64_t *ush_barrier_flags; /* symmetric: the world's barrier flags */
static uint64_t  ush_barrier_seq;
/* The exit barrier's own flags (ush_exit_barrier): a PE leaving without
 * shmem_finalize must never be counted into a barrier the others are in. */
static uint64_t *ush_exit_flags;
static uint64_t  ush_exit_seq;

void *ush_coll_aset_scratch;

const ush_coll_layout_t ush_coll_layout_aset = { USH_COLL_ASET_RED, USH_COLL_ASET_MBOX };
const ush_coll_layout_t ush_coll_layout_team = { USH_COLL_TEAM_RED, USH_COLL_TEAM_MBOX };

void ush_coll_init(void)
{
    ush_barrier_flags = ush_symm_internal_alloc(USH_COLL_BARRIER_ROUNDS * sizeof(uint64_t));
    ush_exit_flags    = ush_symm_internal_alloc(USH_COLL_BARRIER_ROUNDS * sizeof(uint64_t));
    ush_coll_aset_scratch = ush_symm_internal_alloc(USH_COLL_ASET_SCRATCH);
    ush_coll_chan_init();
    ush_coll_check_init();
    for (int r = 0; r < USH_COLL_BARRIER_ROUNDS; r++) ush_barrier_flags[r] = ush_exit_flags[r] = 0;
    ush_barrier_seq = ush_exit_seq = 0;
    ush_coll_seq_drop(NULL, 0);
    ush_coll_select_init();
}

/* Signal member to's flags[word] that this PE reached barrier s. With
 * every peer mapped, a release store of s (what this PE wrote or read
 * before is ordered before it, and the acquire load that sees it orders
 * the peer after). Otherwise the progress thread may write into our
 * memory for remote peers, and the flag goes through UCX: an add of one
 * (ush_put_add_own: one message to another node), which is the same as
 * storing s, because each word has one sender that signals it once per
 * barrier; an add is one way, where UCX's only set is a swap whose reply
 * must be waited for. It is the barrier's own traffic, which no later
 * quiet owes a flush. The caller ends with a full fence, which orders us
 * after it. */
static void barrier_signal(const ush_coll_set_t *set, uint64_t *flags, int word, uint64_t s,
                           int to)
{
    int       pe  = ush_coll_pe(set, to);
    uint64_t *map = ush_tp_all_mapped ? ush_ptr(&flags[word], pe) : NULL;

    if (map != NULL) {
        __atomic_store_n(map, s, __ATOMIC_RELEASE);
        ush_wake(pe);
        return;
    }
    ush_put_add_own(NULL, NULL, 0, &flags[word], 1, pe);
}

/* Add one to member 0's arrival count, waking member 0 if this was the
 * arrival it waits for (total: what the count holds once barrier s is
 * complete). Mapped, an acq_rel add: the arrivals before ours are ordered
 * before the wake, ours before member 0's acquire. Through UCX, one
 * message, as barrier_signal's. */
static void barrier_arrive(const ush_coll_set_t *set, uint64_t *count, uint64_t total)
{
    int       pe  = ush_coll_pe(set, 0);
    uint64_t *map = ush_tp_all_mapped ? ush_ptr(count, pe) : NULL;

    if (map == NULL) {
        ush_put_add_own(NULL, NULL, 0, count, 1, pe);
        return;
    }
    if (__atomic_add_fetch(map, 1, __ATOMIC_ACQ_REL) >= total) ush_wake(pe);
}

/* Member from of set is the one to store s into *flag. */
static void barrier_await(const ush_coll_set_t *set, uint64_t *flag, uint64_t s, int from)
{
    USH_WAIT_UNTIL_PE(__atomic_load_n(flag, __ATOMIC_ACQUIRE) >= s, ush_coll_pe(set, from));
}

static void barrier_dissemination(const ush_coll_set_t *set, uint64_t *flags, uint64_t s)
{
    int n = set->size, me = set->me;

    for (int r = 0, dist = 1; dist < n; r++, dist <<= 1) {
        barrier_signal(set, flags, r, s, (me + dist) % n);
        barrier_await(set, &flags[r], s, (me - dist % n + n) % n);
    }
}

/* Word v (1 <= v < n) of member 0 is member v's arrival, or with more
 * than USH_BARRIER_CENTRAL_WORDS members word 1 counts them all (n - 1
 * adds a barrier, so s (n - 1) once barrier s is complete). The release
 * is word 0: of every other member, each stored by member 0; or, in a
 * counted set whose members map each other, member 0's own, which they
 * all read. One store then releases them all, where a loop of stores and
 * wakes made member 0 the one PE everybody waited for: on a crowded node
 * each wake hands the woken PE member 0's core (512 PEs on 2 cores, the
 * last member left 9.5 s after the first). */
static void barrier_central(const ush_coll_set_t *set, uint64_t *flags, uint64_t s)
{
    int       n     = set->size;
    int       words = n <= USH_BARRIER_CENTRAL_WORDS;
    uint64_t  total = s * (uint64_t)(n - 1);
    uint64_t *one   = words || !ush_tp_all_mapped ? NULL : ush_ptr(flags, ush_coll_pe(set, 0));

    if (set->me != 0) {
        if (words)
            barrier_signal(set, flags, set->me, s, 0);
        else
            barrier_arrive(set, &flags[1], total);
        if (one != NULL)
            USH_WAIT_UNTIL_PE(__atomic_load_n(one, __ATOMIC_ACQUIRE) >= s, ush_coll_pe(set, 0));
        else
            barrier_await(set, &flags[0], s, 0);
        return;
    }
    if (words) {
        for (int v = 1; v < n; v++) barrier_await(set, &flags[v], s, v);
    } else {
        USH_WAIT_UNTIL(__atomic_load_n(&flags[1], __ATOMIC_ACQUIRE) >= total);
    }
    if (one != NULL)
        __atomic_store_n(one, s, __ATOMIC_RELEASE);
    else
        for (int v = 1; v < n; v++) barrier_signal(set, flags, 0, s, v);
}

void ush_coll_barrier_seq(const ush_coll_set_t *set, uint64_t *flags, uint64_t *seq, int kept)
{
    uint64_t s = ++*seq;
    int      n = set->size;

    /* Member 0's one-store release is read after member 0 has left: only
     * flags that nobody clears may carry it. A team's are cleared when it
     * is destroyed, right after its last barrier; a large team whose
     * members map each other then keeps dissemination, whose releases
     * are each in the waiting member's own flags. */
    if (n > 1 && ush_coll_select(USH_COLL_BARRIER, 0, n) == 1 &&
        (kept || n <= USH_BARRIER_CENTRAL_WORDS || !ush_tp_all_mapped))
        barrier_central(set, flags, s);
    else
        barrier_dissemination(set, flags, s);
    if (!ush_tp_all_mapped) __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void ush_sync_all(void)
{
    ush_coll_set_t world = { .start = 0, .stride = 1, .size = ush_g.n_pes, .me = ush_g.my_pe };
    ush_coll_barrier_seq(&world, ush_barrier_flags, &ush_barrier_seq, 1);
}

void ush_exit_barrier(void)
{
    ush_coll_set_t world = { .start = 0, .stride = 1, .size = ush_g.n_pes, .me = ush_g.my_pe };
    ush_coll_barrier_seq(&world, ush_exit_flags, &ush_exit_seq, 1);
}

void ush_barrier_all(void)
{
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_sync_all();
}
