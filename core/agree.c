/*
 * What every PE must see alike, settled once at start-up.
 *
 * Some choices are made by each PE alone yet must come out the same on
 * every PE: a collective's algorithm, whether a barrier's flags are plain
 * stores, the locking of the active-set channels. They depend on facts
 * only the PEs themselves know: the thread mode UCX gave each, and whether
 * the PEs of a node can map each other's memory. Reading every peer's
 * wire-up data would tell, at a cost that grows with the job; instead the
 * PEs OR their answers together in a dissemination all-reduce: round r
 * sends what this PE has gathered to PE me + 2^r and ORs in what PE
 * me - 2^r sent, so after ceil(log2 n) rounds every PE holds everyone's
 * (an OR may count a PE twice). That is the dissemination barrier's
 * pattern, and it is a barrier too: a PE holds every PE's word only once
 * every PE has sent its first, so it closes shmem_init, which costs one
 * exchange, not two. No PE is everybody's partner.
 *
 * On one node the exchange is central instead: every PE ORs its word into
 * PE 0's and counts itself in, and PE 0 hands each the result. Where the
 * PEs outnumber the cores each round of the all-reduce costs every PE a
 * turn on a core, and log2 n rounds of 1 024 PEs on 2 cores made the
 * exchange a second of start-up; central costs two turns. PE 0 stores
 * the result into its own slot, which the others read: a napping PE sees
 * it when its nap ends, and PE 0 neither wakes a thousand PEs (each wake
 * hands the woken PE its core) nor looks up a thousand peers (each a
 * request to the PMIx server, which has to win a core too: 40 s at 1 024
 * PEs). A PE that cannot map PE 0 asks, in its word, to be handed the
 * result; PE 0 then hands it to every PE. A job on one node knows it is
 * (its node's PE count is the job's), so every PE makes the same choice.
 *
 * Whether a node's PEs map each other is asked of one pair per PE: each
 * maps the next PE of its node. If some PEs of a node could not map some
 * others (different containers, say), the cycle through the node crosses
 * from one group to another somewhere, and that PE says so.
 */
#include "ush.h"
#include "ush_rma.h"
#include "transport/ush_tp.h"

/* Bit t: a PE was provided thread mode t. */
#define USH_AGREE_THREAD(t) (UINT64_C(1) << (t))
/* Bits from here: the segments a PE could not map of its next node-local
 * peer. */
#define USH_AGREE_UNMAPPED_SHIFT 8
/* Set by a PE whose node runs more PEs than the cores it may use: the
 * waits of that node's PEs hand their cores over, and a collective's
 * algorithm may choose by it (barrier.c). */
#define USH_AGREE_CROWDED   (UINT64_C(1) << 62)
/* Set by a PE that cannot read PE 0's result in the central exchange. */
#define USH_AGREE_PUSH      (UINT64_C(1) << 61)
/* Set in every word sent: a slot that is not 0 has arrived. */
#define USH_AGREE_SENT      (UINT64_C(1) << 63)
#define USH_AGREE_ROUNDS    32

static uint64_t *ush_agree_slots; /* symmetric: [round], written once each */

void ush_agree_init(void)
{
    ush_agree_slots = ush_symm_internal_alloc(USH_AGREE_ROUNDS * sizeof(uint64_t));
    /* Zeroed before the wire-up fence, so before any peer's word lands. */
    for (int r = 0; r < USH_AGREE_ROUNDS; r++) {
        __atomic_store_n(&ush_agree_slots[r], 0, __ATOMIC_RELAXED);
    }
}

/* Slots of the central exchange, in PE 0's memory (OR, count) and in
 * every PE's (the result). */
enum { USH_AGREE_OR, USH_AGREE_COUNT, USH_AGREE_RESULT };

/* The central exchange of a one-node job of n PEs: all of this PE's word
 * in, everyone's out. Mapped, plain CPU atomics (ush_amo_* would wake the
 * peer at each); otherwise UCX's, the OR fenced before the count. */
static uint64_t ush_agree_central(uint64_t all, int n)
{
    uint64_t *slot = ush_agree_slots;

    if (ush_g.my_pe != 0) {
        ush_tp_peer_warm(0);
        uint64_t *root = ush_ptr(slot, 0); /* PE 0's slots, or NULL */
        uint64_t *res  = root ? &root[USH_AGREE_RESULT] : &slot[USH_AGREE_RESULT];
        if (root != NULL) {
            __atomic_fetch_or(&root[USH_AGREE_OR], all, __ATOMIC_SEQ_CST);
            if (__atomic_add_fetch(&root[USH_AGREE_COUNT], 1, __ATOMIC_SEQ_CST) == (uint64_t)n - 1)
                ush_wake(0);
        } else {
            ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_OR, &slot[USH_AGREE_OR], all | USH_AGREE_PUSH,
                         sizeof(all), 0);
            ush_fence(SHMEM_CTX_DEFAULT);
            ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &slot[USH_AGREE_COUNT], 1, sizeof(all), 0);
        }
        USH_WAIT_UNTIL_PE(__atomic_load_n(res, __ATOMIC_ACQUIRE) != 0, 0);
        return __atomic_load_n(res, __ATOMIC_RELAXED);
    }
    USH_WAIT_UNTIL(__atomic_load_n(&slot[USH_AGREE_COUNT], __ATOMIC_ACQUIRE) >= (uint64_t)n - 1);
    all |= __atomic_load_n(&slot[USH_AGREE_OR], __ATOMIC_ACQUIRE);
    __atomic_store_n(&slot[USH_AGREE_RESULT], all, __ATOMIC_RELEASE);
    for (int pe = 1; pe < n && (all & USH_AGREE_PUSH); pe++) {
        ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_SET, &slot[USH_AGREE_RESULT], all, sizeof(all), pe);
    }
    return all;
}

void ush_agree(void)
{
    int me = ush_g.my_pe, n = ush_g.n_pes;
    int central = n >= 3 && ush_g.local_size == n;

    /* Every partner's wire-up data and endpoint first, back to back: a
     * lookup made while the node's other PEs spin in their waits queues
     * for a PMIx server that has to win a core from them (hundreds of ms
     * each on an oversubscribed node), and every round would pay it. */
    for (int dist = 1; dist < n && !central; dist <<= 1) ush_tp_peer_warm((me + dist) % n);

    uint64_t all = USH_AGREE_SENT | USH_AGREE_THREAD(ush_tp_thread_provided) |
                   ((uint64_t)ush_tp_map_probe() << USH_AGREE_UNMAPPED_SHIFT) |
                   (ush_node_oversubscribed(ush_tp_npus) ? USH_AGREE_CROWDED : 0);

    if (central) all = ush_agree_central(all, n);
    for (int r = 0, dist = 1; dist < n && !central; r++, dist <<= 1) {
        /* An add into a slot that is 0 and has one sender: a CPU atomic
         * where the peer is mapped, else one active message to its node
         * (an atomic through UCX waits for the peer's reply). The acquire
         * load that sees the word orders what follows after it. */
        ush_put_add_own(NULL, NULL, 0, &ush_agree_slots[r], all, (me + dist) % n);
        USH_WAIT_UNTIL(__atomic_load_n(&ush_agree_slots[r], __ATOMIC_ACQUIRE) != 0);
        all |= __atomic_load_n(&ush_agree_slots[r], __ATOMIC_RELAXED);
    }

    ush_tp_thread_t max = USH_TP_THREAD_SINGLE;
    for (int t = USH_TP_THREAD_SINGLE; t <= USH_TP_THREAD_MULTI; t++) {
        if (all & USH_AGREE_THREAD(t)) max = (ush_tp_thread_t)t;
    }
    ush_g.crowded = (all & USH_AGREE_CROWDED) != 0;
    ush_tp_agreed(max, (unsigned)((all & ~(USH_AGREE_SENT | USH_AGREE_CROWDED | USH_AGREE_PUSH)) >>
                                  USH_AGREE_UNMAPPED_SHIFT));
}
