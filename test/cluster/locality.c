/*
 * Node locality across real nodes: shmem_ptr gives an address
 * exactly for the PEs on this PE's node, SHMEM_TEAM_SHARED holds exactly
 * those PEs, and every PE stays accessible. The truth is each PE's host
 * name, gathered from all PEs.
 *
 * Run on several nodes, it demands that not every PE shares one host, so
 * a one-node run cannot pass for a multi-node one (argument "multi").
 */
#include "pe_test.h"

#include <unistd.h>

#define MAX_PES  64
#define HOST_LEN 64

static char hosts[MAX_PES][HOST_LEN]; /* on every PE: every PE's host name */
static long target;

int main(int argc, char **argv)
{
    pe_test_init();
    const int me = pe_me, n = pe_npes;
    CHECK(n <= MAX_PES);

    pe_section("gather host names");
    char mine[HOST_LEN] = {0};
    CHECK_EQ(gethostname(mine, sizeof(mine) - 1), 0);
    for (int pe = 0; pe < n; pe++) shmem_putmem(hosts[me], mine, HOST_LEN, pe);
    shmem_barrier_all();

    pe_section("shmem_ptr and shmem_addr_accessible");
    int local = 0, first_local = -1;
    for (int pe = 0; pe < n; pe++) {
        int same = strcmp(hosts[pe], mine) == 0;
        CHECK_EQ(shmem_pe_accessible(pe), 1);
        CHECK_EQ(shmem_addr_accessible(&target, pe), 1);
        CHECK_EQ(shmem_ptr(&target, pe) != NULL, same);
        if (same) {
            if (first_local < 0) first_local = pe;
            local++;
        }
    }

    pe_section("SHMEM_TEAM_SHARED");
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), local);
    for (int i = 0; i < local; i++) {
        int w = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
        CHECK(w >= 0 && w < n);
        CHECK_EQ(strcmp(hosts[w], mine), 0);
    }
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD), first_local);

    if (argc > 1 && !strcmp(argv[1], "multi")) {
        pe_section("more than one node");
        CHECK(local < n);
    }
    shmem_barrier_all();
    return pe_test_finish();
}
