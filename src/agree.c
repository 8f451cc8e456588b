/*
 * What every PE must see alike, settled once at start-up.
 *
 * Some choices are made by each PE alone yet must come out the same on
 * every PE: a collective's algorithm, whether a barrier's flags are plain
 * stores, the locking of the active-set channels. They depend on facts
 * only the PEs themselves know: the thread mode UCX gave each, and whether
 * the PEs of a node can map each other's memory. Reading every peer's
 * wire-up data would tell, at a cost that grows with the job; instead each
 * PE ORs its own answer into one word on PE 0 and reads the result back
 * after a barrier: one atomic and one get per PE.
 *
 * Whether a node's PEs map each other is asked of one pair per PE: each
 * maps the next PE of its node. If some PEs of a node could not map some
 * others (different containers, say), the cycle through the node crosses
 * from one group to another somewhere, and that PE says so.
 */
#include "ush.h"
#include "ush_rma.h"
#include "transport/ush_tp.h"

#include <string.h>

/* Bit t: a PE was provided thread mode t. */
#define USH_AGREE_THREAD(t) (UINT64_C(1) << (t))
/* A PE could not map its next node-local peer. */
#define USH_AGREE_NOMAP     (UINT64_C(1) << 8)

static uint64_t *ush_agree_word; /* symmetric; PE 0's is the one used */

void ush_agree_init(void)
{
    ush_agree_word = ush_symm_internal_alloc(sizeof(*ush_agree_word));
    /* Zero before the wire-up fence, so before any peer's OR. */
    __atomic_store_n(ush_agree_word, 0, __ATOMIC_RELAXED);
}

void ush_agree(void)
{
    uint64_t mine = USH_AGREE_THREAD(ush_tp_thread_provided) |
                    (ush_tp_map_probe() ? 0 : USH_AGREE_NOMAP);
    uint64_t all;

    ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_OR, ush_agree_word, mine, sizeof(mine), 0);
    ush_barrier_all(); /* every OR is done */
    ush_get(SHMEM_CTX_DEFAULT, &all, ush_agree_word, sizeof(all), 0);

    ush_tp_thread_t max = USH_TP_THREAD_SINGLE;
    for (int t = USH_TP_THREAD_SINGLE; t <= USH_TP_THREAD_MULTI; t++) {
        if (all & USH_AGREE_THREAD(t)) max = (ush_tp_thread_t)t;
    }
    ush_tp_agreed(max, !(all & USH_AGREE_NOMAP));
}
