/*
 * A whole job at large PE counts (64 and more on one node):
 * every PE talks to every other one once, so a wire-up that skips, mixes up
 * or half-builds a peer shows as a wrong value here, not as a slow start.
 *
 *   - a put ring: each PE puts its number into its right neighbour;
 *   - an all-to-all of single puts: PE i puts i * npes + j into slot i of
 *     PE j's array, every pair once;
 *   - a get from the PE npes/2 ranks away (the farthest in rank);
 *   - sum and max reductions over the world team.
 *
 * Run with the argument "corrupt" it plants one wrong value (the last PE's
 * put to PE 0) and must fail: the test that shows the checks can.
 */
#include "pe_test.h"

/* What PE from stores in slot from of PE to's array; never 0 (the slots
 * start at 0, so a put that never arrived is caught too). */
static long a2a_value(int from, int to, int npes)
{
    return (long)from * npes + to + 1;
}

int main(int argc, char **argv)
{
    static long ring_in, sum_src, sum_dst, max_dst;
    int         corrupt = argc > 1 && strcmp(argv[1], "corrupt") == 0;
    long       *a2a, far_cell, expect;
    int         me, npes, i, pe;

    pe_test_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();

    pe_section("malloc");
    a2a = shmem_calloc((size_t)npes, sizeof(*a2a));
    CHECK_MSG(a2a != NULL, "shmem_calloc of %d longs", npes);

    pe_section("ring");
    shmem_long_p(&ring_in, (long)me + 1, (me + 1) % npes);

    pe_section("all-to-all");
    /* Start with a different peer on each PE, so the PEs do not all hit
     * PE 0 first. */
    for (i = 0; i < npes; i++) {
        pe = (me + i) % npes;
        shmem_long_p(&a2a[me], a2a_value(me, pe, npes), pe);
    }
    if (corrupt && me == npes - 1)
        shmem_long_p(&a2a[me], -1, 0);
    shmem_barrier_all(); /* completes every put above */

    CHECK_EQ(ring_in, (long)((me + npes - 1) % npes) + 1);
    for (i = 0; i < npes; i++)
        CHECK_MSG(a2a[i] == a2a_value(i, me, npes), "slot %d on PE %d: expected %ld, got %ld", i,
                  me, a2a_value(i, me, npes), a2a[i]);

    pe_section("far get");
    pe = (me + npes / 2) % npes;
    far_cell = shmem_long_g(&a2a[pe], pe);
    CHECK_EQ(far_cell, a2a_value(pe, pe, npes));

    pe_section("reductions");
    sum_src = me + 1;
    CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum_dst, &sum_src, 1), 0);
    expect = (long)npes * (npes + 1) / 2;
    CHECK_EQ(sum_dst, expect);
    CHECK_EQ(shmem_long_max_reduce(SHMEM_TEAM_WORLD, &max_dst, &sum_src, 1), 0);
    CHECK_EQ(max_dst, (long)npes);

    pe_section("free");
    shmem_free(a2a);
    return pe_test_finish();
}
