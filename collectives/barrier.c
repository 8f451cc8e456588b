/*
 * The job-wide barrier: dissemination (Hensgen, Finkel and Manber), which
 * finishes in ceil(log2 n) rounds with one signal sent and one awaited per
 * PE per round, for any n.
 *
 * Round r signals PE (me + 2^r) mod n by storing the barrier's sequence
 * number into its flag r and waits until our own flag r reaches it. The
 * sequence only grows, so flags never need resetting: a peer already in
 * the next barrier writes a larger number, which still satisfies ">=".
 */
#include "ush.h"
#include "ush_coll.h"
#include "ush_rma.h"
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
    for (int r = 0; r < USH_COLL_BARRIER_ROUNDS; r++) ush_barrier_flags[r] = ush_exit_flags[r] = 0;
    ush_barrier_seq = ush_exit_seq = 0;
    ush_coll_seq_drop(NULL, 0);
    ush_coll_select_init();
}

void ush_coll_barrier_seq(const ush_coll_set_t *set, uint64_t *flags, uint64_t *seq)
{
    int      n = set->size, me = set->me;
    uint64_t s = ++*seq;

    for (int r = 0, dist = 1; dist < n; r++, dist <<= 1) {
        int       to  = ush_coll_pe(set, (me + dist) % n);
        uint64_t *map = ush_tp_all_mapped ? ush_ptr(&flags[r], to) : NULL;
        /* With every peer mapped, a release store is all a flag needs:
         * what this PE wrote or read before is ordered before it, and what
         * it does after is ordered after the acquire load that sees the
         * peer's flag. Otherwise the progress thread may write into our
         * memory for remote peers, and the barrier goes through UCX (and
         * its lock) with a full fence, which orders us after it. */
        if (map != NULL)
            __atomic_store_n(map, s, __ATOMIC_RELEASE);
        else
            ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_SET, &flags[r], s, sizeof(uint64_t), to);
        USH_WAIT_UNTIL(__atomic_load_n(&flags[r], __ATOMIC_ACQUIRE) >= s);
    }
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
