/*
 * shmem_ptr, shmem_addr_accessible, shmem_pe_accessible.
 *
 * shmem_ptr to the calling PE must not be NULL for symmetric objects.  For
 * every other PE whichever answer it gives is allowed, but a non-NULL
 * pointer must really be the peer's object: a store through it is seen by
 * the peer after a barrier, and a load through it sees the peer's value.
 * Where it is NULL the same slot is written with shmem_p instead, so the
 * check is the same either way.  Both the heap and static data are used.
 * Private memory (stack, malloc) is not accessible.  (shmem_ptr of a
 * private address is not tested: its argument must be symmetric.)
 */
#include "pe_test.h"

#define MAX_PES 64

static long static_slots[MAX_PES]; /* slot s written by PE s */
static long static_own;            /* each PE's own value, read by the others */

static long value(int writer, int owner, int seg)
{
    return (long)(pe_key((uint64_t)writer, (uint64_t)owner, (uint64_t)seg, 0, 9) >> 2);
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, npes = pe_npes;
    long      stack_var = 1;
    long     *private_mem = malloc(sizeof(long));
    long     *heap_slots = shmem_malloc(sizeof(long) * (size_t)npes);
    long     *heap_own = shmem_malloc(sizeof(long));
    long     *slots[2] = {heap_slots, static_slots};
    long     *own[2] = {heap_own, &static_own};
    int       mapped = 0;

    if (npes > MAX_PES) {
        if (me == 0)
            fprintf(stderr, "ptr: built for at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    CHECK(heap_slots != NULL);
    CHECK(heap_own != NULL);
    CHECK(private_mem != NULL);

    pe_section("accessible");
    for (int p = 0; p < npes; p++) {
        CHECK_EQ(shmem_pe_accessible(p), 1);
        CHECK_EQ(shmem_addr_accessible(heap_slots, p), 1);
        CHECK_EQ(shmem_addr_accessible(heap_slots + npes - 1, p), 1); /* interior address */
        CHECK_EQ(shmem_addr_accessible(heap_own, p), 1);
        CHECK_EQ(shmem_addr_accessible(static_slots, p), 1);
        CHECK_EQ(shmem_addr_accessible(&static_own, p), 1);
        CHECK_EQ(shmem_addr_accessible(&stack_var, p), 0);
        CHECK_EQ(shmem_addr_accessible(private_mem, p), 0);
    }

    pe_section("shmem_ptr to self");
    for (int seg = 0; seg < 2; seg++) {
        long *self = shmem_ptr(own[seg], me);
        CHECK(self != NULL);
        /* The same object: possibly through a second mapping, so compare
         * contents, not addresses. */
        *own[seg] = 11;
        CHECK_EQ(PE_READ(*self), 11);
        *self = 12;
        CHECK_EQ(PE_READ(*own[seg]), 12);
    }

    pe_section("shmem_ptr stores to peers");
    for (int seg = 0; seg < 2; seg++) {
        memset(slots[seg], 0, sizeof(long) * (size_t)npes);
        *own[seg] = value(me, me, seg);
    }
    shmem_barrier_all();
    for (int seg = 0; seg < 2; seg++) {
        for (int k = 0; k < npes; k++) {
            const int p = (me + k) % npes;
            long     *remote = shmem_ptr(slots[seg], p);
            if (remote != NULL) {
                remote[me] = value(me, p, seg);
                mapped++;
            } else {
                shmem_long_p(&slots[seg][me], value(me, p, seg), p);
            }
        }
    }
    shmem_barrier_all();
    for (int seg = 0; seg < 2; seg++)
        for (int s = 0; s < npes; s++)
            CHECK_EQ(slots[seg][s], value(s, me, seg));

    pe_section("shmem_ptr loads from peers");
    for (int seg = 0; seg < 2; seg++) {
        for (int p = 0; p < npes; p++) {
            long *remote = shmem_ptr(own[seg], p);
            if (remote != NULL)
                CHECK_EQ(PE_READ(*remote), value(p, p, seg));
            CHECK_EQ(shmem_long_g(own[seg], p), value(p, p, seg));
        }
    }
#if PE_SPEC_AT_LEAST(1, 6)
    for (int p = 0; p < npes; p++) {
        long *remote = shmem_team_ptr(SHMEM_TEAM_WORLD, heap_own, p);
        if (remote != NULL)
            CHECK_EQ(PE_READ(*remote), value(p, p, 0));
    }
#endif
    if (me == 0) {
        printf("[PE 0] %d of %d shmem_ptr stores were direct\n", mapped, 2 * npes);
        fflush(stdout);
    }

    free(private_mem);
    shmem_free(heap_own);
    shmem_free(heap_slots);
    return pe_test_finish();
}
