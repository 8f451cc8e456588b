/*
 * MPI and OpenSHMEM in one program (the specification's annex on
 * MPI interoperability):
 *
 *   mpi_interop mpi|shmem mpi|shmem
 *
 * The first argument says which library starts first, the second which
 * one ends last. Between them, on every PE:
 *   - MPI_COMM_WORLD and SHMEM_TEAM_WORLD have the same size, and the MPI
 *     ranks collected over SHMEM_TEAM_WORLD (the annex's mapping example)
 *     are 0..n-1 in PE order: under one launcher, rank r is PE r;
 *   - MPI_Comm_split(MPI_COMM_WORLD, 0, mype) (the annex's other example)
 *     numbers its ranks as the PEs;
 *   - MPI_COMM_TYPE_SHARED and SHMEM_TEAM_SHARED hold the same processes;
 *   - values put with OpenSHMEM and made visible by shmem_barrier_all sum
 *     right through MPI_Allreduce, and an MPI_Bcast feeds a shmem_put
 *     that a shmem_long_sum_reduce checks, so neither library's progress
 *     or ordering depends on the other's calls.
 * PE 0 prints "all checks passed on <n> PEs" (test/pe/run_pe_test.cmake's
 * verdict); a failed check ends the job through MPI_Abort.
 */
#include <mpi.h>
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "PE %d: mpi_interop.c:%d: ", shmem_my_pe(), __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            MPI_Abort(MPI_COMM_WORLD, 1);                                     \
        }                                                                     \
    } while (0)

static long from_left;  /* symmetric: the left neighbour's put */
static long bcast_copy; /* symmetric: PE 0's put of the MPI_Bcast value */
static long sum_in, sum_out;

int main(int argc, char **argv)
{
    int mpi_first, mpi_last, rank, size, me, npes;

    if (argc < 3) {
        fprintf(stderr, "usage: mpi_interop mpi|shmem mpi|shmem\n");
        return 2;
    }
    mpi_first = strcmp(argv[1], "mpi") == 0;
    mpi_last  = strcmp(argv[2], "mpi") == 0;
    if (mpi_first) {
        MPI_Init(&argc, &argv);
        shmem_init();
    } else {
        shmem_init();
        MPI_Init(&argc, &argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    me   = shmem_team_my_pe(SHMEM_TEAM_WORLD);
    npes = shmem_team_n_pes(SHMEM_TEAM_WORLD);
    CHECK(size == npes, "MPI_COMM_WORLD has %d ranks, SHMEM_TEAM_WORLD %d PEs", size, npes);

    /* rank-to-PE mapping, collected over SHMEM_TEAM_WORLD */
    static int myrank;
    myrank     = rank;
    int *ranks = shmem_calloc((size_t)npes, sizeof(int));
    CHECK(ranks != NULL, "shmem_calloc of %d ints", npes);
    shmem_int_collect(SHMEM_TEAM_WORLD, ranks, &myrank, 1);
    for (int pe = 0; pe < npes; pe++) {
        CHECK(ranks[pe] == pe, "PE %d has MPI rank %d", pe, ranks[pe]);
    }
    shmem_free(ranks);

    /* a communicator whose ranks are the PEs */
    MPI_Comm shmem_comm;
    int      crank;
    MPI_Comm_split(MPI_COMM_WORLD, 0, me, &shmem_comm);
    MPI_Comm_rank(shmem_comm, &crank);
    CHECK(crank == me, "rank %d in the communicator split by PE, PE %d", crank, me);
    MPI_Comm_free(&shmem_comm);

    /* the node's processes, as each library sees them */
    MPI_Comm node;
    int      nnode, shared_world;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nnode);
    CHECK(nnode == shmem_team_n_pes(SHMEM_TEAM_SHARED),
          "MPI_COMM_TYPE_SHARED has %d ranks, SHMEM_TEAM_SHARED %d PEs", nnode,
          shmem_team_n_pes(SHMEM_TEAM_SHARED));
    /* the same processes: each shared-team member's world PE is in node */
    int *members = malloc((size_t)nnode * sizeof(int));
    CHECK(members != NULL, "malloc");
    MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, node);
    for (int i = 0; i < nnode; i++) {
        shared_world = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
        int found = 0;
        for (int j = 0; j < nnode; j++) found |= members[j] == shared_world;
        CHECK(found, "PE %d of SHMEM_TEAM_SHARED (world PE %d) is not in MPI's node", i,
              shared_world);
    }
    free(members);
    MPI_Comm_free(&node);

    /* OpenSHMEM data, MPI reduction */
    shmem_long_p(&from_left, 1000L + me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(from_left == 1000L + (me + npes - 1) % npes, "from_left %ld", from_left);
    long total = 0;
    MPI_Allreduce(&from_left, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    long want = 1000L * npes + (long)npes * (npes - 1) / 2;
    CHECK(total == want, "MPI_Allreduce of the put values: %ld, expected %ld", total, want);

    /* MPI data, OpenSHMEM movement and reduction */
    long b = me == 0 ? 4242 : -1;
    MPI_Bcast(&b, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    CHECK(b == 4242, "MPI_Bcast gave %ld", b);
    if (me == 0) {
        for (int pe = 0; pe < npes; pe++) shmem_long_p(&bcast_copy, b + pe, pe);
    }
    shmem_barrier_all();
    CHECK(bcast_copy == 4242 + me, "bcast_copy %ld", bcast_copy);
    sum_in = bcast_copy;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum_out, &sum_in, 1);
    want = 4242L * npes + (long)npes * (npes - 1) / 2;
    CHECK(sum_out == want, "shmem_long_sum_reduce: %ld, expected %ld", sum_out, want);

    MPI_Barrier(MPI_COMM_WORLD);
    shmem_barrier_all();
    if (me == 0) {
        printf("all checks passed on %d PEs\n", npes);
        fflush(stdout);
    }
    if (mpi_last) {
        shmem_finalize();
        MPI_Finalize();
    } else {
        MPI_Finalize();
        shmem_finalize();
    }
    return 0;
}
