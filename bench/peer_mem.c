/*
 * What a PE's memory costs per peer: start up, talk to some peers, then
 * report this PE's proportional set size (Pss, shared pages divided among
 * the processes mapping them) and the bytes malloc holds.
 *
 *     peer_mem ring   puts to the next PE and gets from the previous one
 *     peer_mem all    puts one word to every PE (an alltoall's touches)
 *
 * Each PE prints one line:
 *     peer_mem PE <me> of <npes> <mode> pss_kib <p> heap_kib <h>
 * A library whose per-peer state grows with the peers a PE touches shows
 * the same figures for ring at any job size; all grows with the job by
 * what one touched peer costs.
 *
 * OpenSHMEM 1.4 API only, so Open MPI 4.1 builds it too.
 */
#include <malloc.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long smaps_kib(const char *field)
{
    char line[256];
    long kib = -1, v;
    int  n   = (int)strlen(field);
    FILE *f  = fopen("/proc/self/smaps_rollup", "r");

    if (f == NULL) return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, field, n) == 0 && line[n] == ':' && sscanf(line + n + 1, "%ld", &v) == 1) {
            kib = v;
            break;
        }
    }
    fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    static long cell[1];
    int         all = argc > 1 && strcmp(argv[1], "all") == 0;
    long        got = 0;

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *box = shmem_malloc((size_t)n * sizeof(long));

    cell[0] = me;
    shmem_barrier_all();
    if (all) {
        for (int i = 1; i <= n; i++) shmem_long_p(&box[me], me, (me + i) % n);
    } else {
        shmem_long_p(&box[me], me, (me + 1) % n);
        got = shmem_long_g(cell, (me + n - 1) % n);
    }
    shmem_barrier_all();

    int bad = all ? 0 : got != (me + n - 1) % n;
    for (int i = 0; all && i < n; i++) bad |= box[i] != i;
    struct mallinfo2 mi = mallinfo2();
    printf("peer_mem PE %d of %d %s pss_kib %ld heap_kib %zu %s\n", me, n, all ? "all" : "ring",
           smaps_kib("Pss"), (mi.uordblks + mi.hblkhd) / 1024, bad ? "bad" : "ok");
    shmem_free(box);
    shmem_finalize();
    return bad;
}
