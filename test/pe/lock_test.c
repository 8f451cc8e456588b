/*
 * shmem_test_lock returns 0 exactly when it acquired the lock.
 *
 * 1. Deterministic answers: while one PE holds the lock (set_lock or
 *    test_lock), every other PE's test_lock returns 1; once it is
 *    released, each PE in turn gets 0 and releases.
 * 2. Under contention: PEs poll with test_lock (half of them mixed with
 *    set_lock) until each has acquired the lock a fixed number of times;
 *    every success does a non-atomic increment on PE 0 and claims an
 *    "owner" word, so a 0 returned without the lock shows up as two owners
 *    or a lost increment. The final count must equal the successes.
 *
 * Only OpenSHMEM 1.4 routines, so the same program validates against Open
 * MPI's OSHMEM.
 */
#include "pe_test.h"

#define GOAL 60 /* acquisitions per PE in part 2 */

static long lock;   /* static data: part 1 */
static long owner;  /* on PE 0 */
static long count;  /* on PE 0 */

static void enter(int me)
{
    long prev = shmem_long_atomic_swap(&owner, me + 1, 0);
    CHECK_MSG(prev == 0, "PE %d acquired a lock PE %ld holds", me, prev - 1);
}

static void leave(int me)
{
    long prev = shmem_long_atomic_swap(&owner, 0, 0);
    CHECK_MSG(prev == me + 1, "PE %d released a lock PE %ld held", me, prev - 1);
}

static void bump(void)
{
    long v = shmem_long_g(&count, 0);
    shmem_long_p(&count, v + 1, 0);
}

/* Part 1 on lock l: holder takes it (by set or test), the others must be
 * refused, then everyone takes it in turn. */
static void held_then_free(long *l, int holder, int use_test)
{
    const int me = pe_me, npes = pe_npes;
    if (me == holder) {
        if (use_test) {
            CHECK_EQ(shmem_test_lock(l), 0);
        } else {
            shmem_set_lock(l);
        }
    }
    shmem_barrier_all();
    if (me != holder) {
        for (int i = 0; i < 3; i++) CHECK_EQ(shmem_test_lock(l), 1);
    }
    shmem_barrier_all();
    if (me == holder) shmem_clear_lock(l);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        if (me == pe) {
            CHECK_EQ(shmem_test_lock(l), 0);
            shmem_clear_lock(l);
        }
        shmem_barrier_all();
    }
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, npes = pe_npes;
    long     *hlock = shmem_calloc(1, sizeof(long));
    CHECK(hlock != NULL);
    shmem_barrier_all();

    pe_section("refused while held, granted when free");
    for (int holder = 0; holder < npes; holder++) {
        held_then_free(&lock, holder, holder % 2);
        held_then_free(hlock, (holder + 1) % npes, (holder + 1) % 2);
    }

    pe_section("test_lock under contention");
    long got = 0, refused = 0;
    int  mixed = me % 2; /* odd PEs alternate test_lock and set_lock */
    for (int i = 0; got < GOAL; i++) {
        int acquired;
        if (mixed && i % 2) {
            shmem_set_lock(hlock);
            acquired = 1;
        } else {
            acquired = shmem_test_lock(hlock) == 0;
        }
        if (!acquired) {
            refused++;
            continue;
        }
        enter(me);
        bump();
        leave(me);
        shmem_clear_lock(hlock);
        got++;
    }
    shmem_barrier_all();
    if (me == 0) CHECK_EQ(count, (long)GOAL * npes);
    /* With one PE nothing can refuse it. */
    if (npes == 1) CHECK_EQ(refused, 0);

    pe_section("free at the end");
    for (int pe = 0; pe < npes; pe++) {
        if (me == pe) {
            CHECK_EQ(shmem_test_lock(hlock), 0);
            shmem_clear_lock(hlock);
        }
        shmem_barrier_all();
    }

    shmem_free(hlock);
    return pe_test_finish();
}
