/*
 * A successful job prints nothing it did not print itself, however far
 * apart its PEs reach shmem_finalize (the cluster test quiet.sh):
 *
 *   quiet late SECONDS   100 atomics to the next PE, each followed by a
 *                        barrier; then the last PE sleeps SECONDS before
 *                        shmem_finalize; PE 0 prints "late: done" after it
 *   quiet spew LINES     every PE prints LINES lines "PE r line i <filler>" between
 *                        shmem_init and shmem_finalize
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long counter;
/* Long lines keep the PEs blocked in write() while the launcher drains
 * them, with endpoints of peers waiting to be served. */
static const char filler[] = "of output that keeps the launcher's forwarding busy";

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: quiet late SECONDS | quiet spew LINES\n");
        return 2;
    }
    long n = atol(argv[2]);

    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (strcmp(argv[1], "late") == 0) {
        for (int i = 0; i < 100; i++) {
            shmem_long_atomic_inc(&counter, (me + 1) % npes);
            shmem_barrier_all();
        }
        if (counter != 100) {
            printf("PE %d: counter %ld, expected 100\n", me, counter);
            return 1;
        }
        if (me == npes - 1) sleep((unsigned)n);
    } else {
        for (long i = 0; i < n; i++) printf("PE %d line %ld %s\n", me, i, filler);
        fflush(stdout); /* all of it before finalize, so PEs reach it far apart */
    }
    shmem_finalize();
    if (strcmp(argv[1], "late") == 0 && me == 0) printf("late: done\n");
    return 0;
}
