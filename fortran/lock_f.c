/*
 * Fortran locks: SHMEM_SET_LOCK, SHMEM_TEST_LOCK, SHMEM_CLEAR_LOCK.
 *
 * A Fortran lock is a default INTEGER (the 1.4 text: "of default kind"),
 * 4 bytes, where C's is an 8-byte long holding an MCS queue (api/lock.c).
 * So these are a ticket lock in one 32-bit word on the lock's home PE:
 * the high half is the next ticket to hand out, the low half the ticket
 * being served. Taking a ticket is one fetch-and-add; the lock passes in
 * ticket order (first come, first served, as the spec asks), and 0 is
 * "free, nobody waiting", so a lock set to 0 before first use works.
 * Waiters poll the home word, which costs remote traffic where C's queue
 * lock has none; Fortran programs rarely lean on locks that hard.
 */
#include "ush_fortran.h"
#include "api/ush_lock.h"
#include "core/ush_rma.h"

#define USH_F_TICKET UINT32_C(0x10000)

/* The home PE, by C's rule (api/ush_lock.h), once the lock is known to be
 * an aligned INTEGER. */
static int ush_f_lock_home(const char *froutine, ush_fint_t *lock)
{
    ush_f_routine = NULL;
    USH_CHECK_INIT(froutine);
    if (USH_UNLIKELY(((uintptr_t)lock & 3) != 0)) {
        ush_fatal(froutine, "lock %p is not aligned to 4 bytes: pass a symmetric INTEGER",
                  (void *)lock);
    }
    return ush_lock_home(froutine, lock, sizeof(*lock));
}

static inline uint32_t ush_f_lock_amo(ush_amo_op_t op, ush_fint_t *lock, uint32_t value,
                                      uint32_t cond, int home)
{
    return (uint32_t)ush_amo_fetch(SHMEM_CTX_DEFAULT, op, lock, value, cond, sizeof(*lock), home);
}

USH_F_DEF(void, shmem_set_lock, (ush_fint_t *lock))
{
    int      home   = ush_f_lock_home("SHMEM_SET_LOCK", lock);
    uint32_t ticket = ush_f_lock_amo(USH_AMO_ADD, lock, USH_F_TICKET, 0, home) >> 16;
    USH_WAIT_UNTIL((ush_f_lock_amo(USH_AMO_FETCH, lock, 0, 0, home) & 0xffff) == ticket);
    /* The holder quieted its stores before serving us (below). */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

USH_F_DEF(ush_fint_t, shmem_test_lock, (ush_fint_t *lock))
{
    int      home = ush_f_lock_home("SHMEM_TEST_LOCK", lock);
    uint32_t old  = ush_f_lock_amo(USH_AMO_FETCH, lock, 0, 0, home);
    /* Free (next == serving): take the next ticket, if nobody did first. */
    if ((old >> 16) != (old & 0xffff) ||
        ush_f_lock_amo(USH_AMO_CSWAP, lock, old + USH_F_TICKET, old, home) != old) {
        ush_poll_step(); /* as C's shmem_test_lock: the caller's loop must progress */
        return 1;
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return 0;
}

USH_F_DEF(void, shmem_clear_lock, (ush_fint_t *lock))
{
    int home = ush_f_lock_home("SHMEM_CLEAR_LOCK", lock);
    /* Stores made under the lock complete before the next holder runs. */
    ush_quiet(SHMEM_CTX_DEFAULT);
    /* Only the holder moves the low half, so it is stable here. */
    uint32_t old = ush_f_lock_amo(USH_AMO_FETCH, lock, 0, 0, home);
    if (USH_UNLIKELY((old >> 16) == (old & 0xffff))) {
        ush_fatal("SHMEM_CLEAR_LOCK",
                  "lock %p is not held (it is free): clear only a lock this PE set",
                  (void *)lock);
    }
    /* serving + 1 without carrying into the ticket half: at 0xffff the add
     * carries, and the -0x10000 folded into it takes the carry back. */
    uint32_t add = (old & 0xffff) == 0xffff ? UINT32_C(1) - USH_F_TICKET : 1;
    (void)ush_f_lock_amo(USH_AMO_ADD, lock, add, 0, home);
}
