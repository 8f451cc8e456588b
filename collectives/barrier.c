/*
 * The set-wide barrier (the world's, a team's, the exit barrier), on
 * flags of the set's own:
 *
 * - dissemination (Hensgen, Finkel and Manber) finishes in ceil(log2 n)
 *   rounds with one signal sent and one awaited per PE per round, for any
 *   n. Round r signals PE (me + 2^r) mod n by storing the barrier's
 *   sequence number into its flag r and waits until our own flag r reaches
 *   it.
 * - central: members 1..n-1 store the sequence number into their own word
 *   of member 0's flags; member 0 waits for all of them, then stores it
 *   into word 0 of each member's flags. Two one-way transfers, like
 *   dissemination at 3 or 4 members, and member 0 leaves first: what it
 *   does next (a broadcast, handing out work) is under way when the others
 *   leave, instead of finding them already waiting for it.
 *
 * The sequence only grows, so flags never need resetting: a peer already
 * in the next barrier writes a larger number, which still satisfies ">=".
 * A set uses one algorithm on its flags for its whole life: the choice
 * depends on the set's size and on ush_tp_all_mapped, both fixed.
 */
#include "ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "transport/ush_tp.h"

#include <stdint.h>

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

/* Word v (1 <= v < n) of member 0 is member v's arrival; word 0 of every
 * other member is its release. */
static void barrier_central(const ush_coll_set_t *set, uint64_t *flags, uint64_t s)
{
    int n = set->size;

    if (set->me != 0) {
        barrier_signal(set, flags, set->me, s, 0);
        barrier_await(set, &flags[0], s, 0);
        return;
    }
    for (int v = 1; v < n; v++) barrier_await(set, &flags[v], s, v);
    for (int v = 1; v < n; v++) barrier_signal(set, flags, 0, s, v);
}

void ush_coll_barrier_seq(const ush_coll_set_t *set, uint64_t *flags, uint64_t *seq)
{
    uint64_t s = ++*seq;

    if (set->size > 1 && set->size <= USH_COLL_BARRIER_ROUNDS &&
        ush_coll_select(USH_COLL_BARRIER, 0, set->size) == 1)
        barrier_central(set, flags, s);
    else
        barrier_dissemination(set, flags, s);
    if (!ush_tp_all_mapped) __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void ush_sync_all(void)
{
    ush_coll_set_t world = { .start = 0, .stride = 1, .size = ush_g.n_pes, .me = ush_g.my_pe };
    ush_coll_barrier_seq(&world, ush_barrier_flags, &ush_barrier_seq);
}

void ush_exit_barrier(void)
{
    ush_coll_set_t world = { .start = 0, .stride = 1, .size = ush_g.n_pes, .me = ush_g.my_pe };
    ush_coll_barrier_seq(&world, ush_exit_flags, &ush_exit_seq);
}

void ush_barrier_all(void)
{
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_sync_all();
}
