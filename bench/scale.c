/*
 * The start-up program of startup-scale.sh: start up, allocate from the
 * symmetric heap, meet every PE, read one word from the PE farthest away in rank
 * (me + npes/2), shut down. startup-scale.sh times it from 4 to 256 PEs and
 * across emulated nodes, built unchanged against ushmem and Open MPI.
 *
 * Each PE prints one line the script collects:
 *     scale PE <me> of <npes> init_ms <t> hwm_kib <k> get ok|bad
 * init_ms is shmem_init as this PE saw it (wall clock, in-process);
 * hwm_kib is the PE's peak resident set (VmHWM) just before
 * shmem_finalize, which is where a job's memory per PE has peaked for a
 * program this small. The far get matters: a library that connects to a
 * peer only on first use pays that connection here, inside the timed job.
 *
 * OpenSHMEM 1.4 API only, so Open MPI 4.1 builds it. It exits non-zero when
 * the get returns another PE's value, so a broken start-up is not timed as
 * a fast one.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Peak resident set in KiB: VmHWM, or ru_maxrss where /proc is missing
 * (both count the shared-memory pages this process touched). */
static long peak_rss_kib(void)
{
    struct rusage ru;
    char          line[256];
    long          kib = -1;
    FILE         *f   = fopen("/proc/self/status", "r");

    if (f != NULL) {
        while (fgets(line, sizeof(line), f) != NULL) {
            if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
                break;
        }
        fclose(f);
    }
    if (kib < 0 && getrusage(RUSAGE_SELF, &ru) == 0)
        kib = ru.ru_maxrss;
    return kib;
}

/* What PE pe stores in its cell: never 0, distinct per PE. */
static long cell_value(int pe)
{
    return 0x5ca1e000L + pe;
}

int main(void)
{
    double t0, init_ms;
    long  *cell, got;
    int    me, npes, far, ok;

    t0 = now_ms();
    shmem_init();
    init_ms = now_ms() - t0;
    me      = shmem_my_pe();
    npes    = shmem_n_pes();

    cell = shmem_malloc(sizeof(*cell));
    if (cell == NULL) {
        fprintf(stderr, "scale: PE %d: shmem_malloc(%zu) returned NULL\n", me, sizeof(*cell));
        shmem_global_exit(1);
    }
    *cell = cell_value(me);
    shmem_barrier_all();

    far = (me + npes / 2) % npes;
    got = shmem_long_g(cell, far);
    ok  = got == cell_value(far);

    printf("scale PE %d of %d init_ms %.2f hwm_kib %ld get %s\n", me, npes, init_ms,
           peak_rss_kib(), ok ? "ok" : "bad");
    /* Out before the tear-down starts, as hello.c does. */
    fflush(stdout);
    /* shmem_free is collective: no PE frees a cell another still reads. */
    shmem_free(cell);
    shmem_finalize();

    return (ok && npes > 0 && me >= 0 && me < npes) ? 0 : 1;
}
