/*
 * Mutual exclusion under contention: every PE takes a lock many times and,
 * inside, increments a counter on another PE with a plain get and put, the
 * read-modify-write the lock exists to protect. A lost exclusion (two
 * holders at once) or a release that lets the next holder read the counter
 * before the last put landed loses an increment, so the final counts must
 * be exact. An "owner" word swapped on entry and exit catches two holders
 * at once even when no increment happens to be lost.
 *
 * Locks in the heap and in static data are used at the same time, nested
 * and alone, and an array of locks spreads the queues over several PEs.
 * The puts are not quieted by the test: shmem_clear_lock must complete them.
 *
 * Only OpenSHMEM 1.4 routines, so the same program validates against Open
 * MPI's OSHMEM.
 */
#include "pe_test.h"

/* Lock acquisitions per PE and phase; argv[1] overrides (the UCX-path
 * runs use fewer: emulated atomics cost milliseconds on a crowded node). */
static int iters = 500;
#define NARRAY 4   /* locks in the array phase */

static long slock;  /* static-data lock, guards scount */
static long scount; /* on the last PE */
static long sowner;

/* Claim the critical section guarded by owner (on PE 0): nobody else may
 * be in it. */
static void enter(long *owner, int me)
{
    long prev = shmem_long_atomic_swap(owner, me + 1, 0);
    CHECK_MSG(prev == 0, "PE %d entered a critical section PE %ld holds", me, prev - 1);
}

static void leave(long *owner, int me)
{
    long prev = shmem_long_atomic_swap(owner, 0, 0);
    CHECK_MSG(prev == me + 1, "PE %d left a critical section that PE %ld held", me, prev - 1);
}

/* Non-atomic increment: only correct under the lock. */
static void bump(long *counter, int pe)
{
    long v = shmem_long_g(counter, pe);
    shmem_long_p(counter, v + 1, pe);
}

int main(int argc, char **argv)
{
    if (argc > 1) iters = atoi(argv[1]);
    pe_test_init();
    CHECK(iters > 0);
    const int me = pe_me, npes = pe_npes, last = npes - 1;
    long     *hlock  = shmem_calloc(1, sizeof(long));
    long     *hcount = shmem_calloc(1, sizeof(long)); /* on PE 0 */
    long     *howner = shmem_calloc(1, sizeof(long));
    long     *alocks = shmem_calloc(NARRAY, sizeof(long));
    long     *acount = shmem_calloc(NARRAY, sizeof(long)); /* [k] on PE k % npes */
    long     *aowner = shmem_calloc(NARRAY, sizeof(long));
    CHECK(hlock && hcount && howner && alocks && acount && aowner);
    shmem_barrier_all();

    pe_section("one heap lock");
    for (int i = 0; i < iters; i++) {
        shmem_set_lock(hlock);
        enter(howner, me);
        bump(hcount, 0);
        leave(howner, me);
        shmem_clear_lock(hlock);
    }
    shmem_barrier_all();
    if (me == 0) CHECK_EQ(*hcount, (long)iters * npes);
    shmem_barrier_all(); /* checked before anyone counts on */

    pe_section("heap and static locks together");
    long nh = 0, ns = 0; /* this PE's increments under each lock */
    for (int i = 0; i < iters; i++) {
        int which = (i + me) % 3; /* 0 heap, 1 static, 2 both nested */
        if (which != 1) {
            shmem_set_lock(hlock);
            enter(howner, me);
        }
        if (which != 0) {
            shmem_set_lock(&slock);
            enter(&sowner, me);
            bump(&scount, last);
            ns++;
        }
        if (which != 1) {
            bump(hcount, 0);
            nh++;
        }
        if (which != 0) {
            leave(&sowner, me);
            shmem_clear_lock(&slock);
        }
        if (which != 1) {
            leave(howner, me);
            shmem_clear_lock(hlock);
        }
    }
    shmem_barrier_all();
    /* Which lock each (PE, i) took follows from the same formula. */
    long th = 0, ts = 0;
    for (int pe = 0; pe < npes; pe++) {
        for (int i = 0; i < iters; i++) {
            th += (i + pe) % 3 != 1;
            ts += (i + pe) % 3 != 0;
        }
    }
    CHECK(nh > 0 && ns > 0);
    if (me == 0) CHECK_EQ(*hcount, (long)iters * npes + th);
    if (me == last) CHECK_EQ(scount, ts);
    shmem_barrier_all();

    pe_section("an array of locks");
    for (int i = 0; i < iters; i++) {
        int k = (i * 7 + me) % NARRAY;
        shmem_set_lock(&alocks[k]);
        enter(&aowner[k], me);
        bump(&acount[k], k % npes);
        leave(&aowner[k], me);
        shmem_clear_lock(&alocks[k]);
    }
    shmem_barrier_all();
    for (int k = 0; k < NARRAY; k++) {
        /* Each PE's share of lock k follows from the same formula. */
        long sum = 0;
        for (int pe = 0; pe < npes; pe++)
            for (int i = 0; i < iters; i++) sum += (i * 7 + pe) % NARRAY == k;
        if (me == k % npes) CHECK_EQ(acount[k], sum);
    }

    pe_section("locks are free again");
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        if (me == pe) {
            CHECK_EQ(shmem_test_lock(hlock), 0);
            CHECK_EQ(shmem_test_lock(&slock), 0);
            shmem_clear_lock(&slock);
            shmem_clear_lock(hlock);
        }
        shmem_barrier_all();
    }

    shmem_free(aowner);
    shmem_free(acount);
    shmem_free(alocks);
    shmem_free(howner);
    shmem_free(hcount);
    shmem_free(hlock);
    return pe_test_finish();
}
