/*
 * Distributed locks: shmem_set_lock, shmem_test_lock, shmem_clear_lock.
 *
 * An MCS queue lock kept entirely inside the user's symmetric `long`, so
 * no state lives anywhere else and any number of locks costs nothing. The
 * long is two 32-bit words on every PE:
 *
 *   word 0, "tail": used on the lock's home PE only. The last PE in the
 *           queue, plus one; 0 when the lock is free.
 *   word 1, "node": this PE's queue node. Bits 0..30 the PE queued right
 *           behind it, plus one (0: none yet); bit 31 "granted".
 *
 * Acquiring swaps this PE into the home's tail and, if someone was there,
 * links itself behind that PE and then waits on its own node: each waiter
 * polls its own memory, not one word across the network, and the lock
 * passes in arrival order (FIFO, so fair). Releasing hands the lock to the
 * successor with one atomic on the successor's node, or empties the tail.
 *
 * Every access to the two words is an atomic of the internal layer, so the
 * layer's choice between CPU and UCX atomics for a (PE, segment) covers the
 * lock too. A spec-conforming program starts with the long at 0, which is
 * "free, no queue" in this layout.
 */
#include "ush_check.h"
#include "ush_lock.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"

#include <stdint.h>

#define USH_LOCK_GRANTED  UINT32_C(0x80000000)
#define USH_LOCK_NEXT     UINT32_C(0x7fffffff)

typedef struct {
    uint32_t *tail; /* on the home PE */
    uint32_t *node; /* on any PE */
    int       home;
    uint32_t  me1;  /* this PE + 1, as stored in tail and next fields */
} ush_lock_t;

static ush_lock_t ush_lock_enter(const char *routine, long *lock)
{
    USH_CHECK_INIT(routine);
    ush_hang_enter(routine);
    if (USH_UNLIKELY(((uintptr_t)lock & (sizeof(long) - 1)) != 0)) {
        ush_fatal(routine, "lock %p is not aligned to %zu bytes: pass a symmetric long",
                  (void *)lock, sizeof(long));
    }
    ush_lock_t l;
    l.home = ush_lock_home(routine, lock, sizeof(*lock));
    l.tail = (uint32_t *)(void *)lock;
    l.node = l.tail + 1;
    l.me1  = (uint32_t)ush_g.my_pe + 1;
    return l;
}

static inline uint32_t ush_lock_amo(ush_amo_op_t op, uint32_t *word, uint32_t value,
                                    uint32_t cond, int pe)
{
    return (uint32_t)ush_amo_fetch(SHMEM_CTX_DEFAULT, op, word, value, cond, sizeof(*word), pe);
}

/* Own node back to "no successor, not granted", before this PE can be
 * found in the tail: only after that may a successor link into it. The
 * fetching form is complete on return, so the reset cannot land after the
 * successor's link. */
static inline void ush_lock_node_reset(const ush_lock_t *l)
{
    (void)ush_lock_amo(USH_AMO_SWAP, l->node, 0, 0, ush_g.my_pe);
}

static inline uint32_t ush_lock_node_read(const ush_lock_t *l)
{
    return ush_lock_amo(USH_AMO_FETCH, l->node, 0, 0, ush_g.my_pe);
}

/* The lock's owner quieted its stores before passing the lock on; this
 * orders the new owner's loads after the hand-over it observed. */
static inline void ush_lock_acquired(void)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

USH_API(void, shmem_set_lock)(long *lock)
{
    USH_PROF_SCOPE("shmem_set_lock");
    ush_lock_t l = ush_lock_enter("shmem_set_lock", lock);

    ush_lock_node_reset(&l);
    uint32_t prev = ush_lock_amo(USH_AMO_SWAP, l.tail, l.me1, 0, l.home);
    if (prev != 0) {
        if (USH_UNLIKELY(prev == l.me1)) {
            ush_fatal("shmem_set_lock",
                      "lock %p is already held or awaited by this PE: clear it before setting "
                      "it again", (void *)lock);
        }
        /* The predecessor's next field is 0 until this link: it reset its
         * node before entering the tail, and only we follow it. */
        uint32_t old = ush_lock_amo(USH_AMO_ADD, l.node, l.me1, 0, (int)prev - 1);
        if (USH_UNLIKELY((old & USH_LOCK_NEXT) != 0)) {
            ush_fatal("shmem_set_lock",
                      "lock %p is corrupt (PE %u already had PE %u queued behind it): "
                      "initialise every lock to 0 before its first use",
                      (void *)lock, prev - 1, (old & USH_LOCK_NEXT) - 1);
        }
        USH_WAIT_UNTIL(ush_lock_node_read(&l) & USH_LOCK_GRANTED);
    }
    ush_lock_acquired();
}

USH_API(int, shmem_test_lock)(long *lock)
{
    USH_PROF_SCOPE("shmem_test_lock");
    ush_lock_t l = ush_lock_enter("shmem_test_lock", lock);

    ush_lock_node_reset(&l);
    if (ush_lock_amo(USH_AMO_CSWAP, l.tail, l.me1, 0, l.home) != 0) {
        /* Refused callers usually poll in a loop that enters no other
         * routine: one step of progress serves operations the holder's
         * critical section may need from this PE (software-emulated
         * atomics), and yields the CPU to the holder when PEs outnumber
         * cores. Without it such a loop can deadlock against the holder. */
        ush_poll_step();
        return 1;
    }
    ush_lock_acquired();
    return 0;
}

USH_API(void, shmem_clear_lock)(long *lock)
{
    USH_PROF_SCOPE("shmem_clear_lock");
    ush_lock_t l = ush_lock_enter("shmem_clear_lock", lock);

    /* The spec: stores made while holding the lock are complete before the
     * next owner can see the lock free. */
    ush_quiet(SHMEM_CTX_DEFAULT);

    uint32_t next = ush_lock_node_read(&l) & USH_LOCK_NEXT;
    if (next == 0) {
        uint32_t tail = ush_lock_amo(USH_AMO_CSWAP, l.tail, 0, l.me1, l.home);
        if (tail == l.me1) return; /* nobody queued: the lock is free */
        if (USH_UNLIKELY(tail == 0)) {
            ush_fatal("shmem_clear_lock",
                      "lock %p is not held (it is free): clear only a lock this PE set",
                      (void *)lock);
        }
        /* A successor swapped itself into the tail and is about to link
         * into our node. */
        USH_WAIT_UNTIL((next = ush_lock_node_read(&l) & USH_LOCK_NEXT) != 0);
    }
    /* Fetching, so the grant has arrived when we return: a program that
     * computes for long after clear_lock cannot leave the successor waiting
     * for an operation still queued here. */
    (void)ush_lock_amo(USH_AMO_OR, l.node, USH_LOCK_GRANTED, 0, (int)next - 1);
}
