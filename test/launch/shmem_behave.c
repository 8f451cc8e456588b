/*
 * OpenSHMEM programs for the launcher tests, through libushmem:
 *
 *   shmem_behave hello                    "hello from PE r of n" on every PE
 *   shmem_behave hello-all                the same, after a put into every
 *                                         PE's heap and a barrier
 *   shmem_behave maps0                    "PE r maps PE 0: yes|no" (shmem_ptr
 *                                         of a heap object on PE 0)
 *   shmem_behave global-exit RANK STATUS barrier|spin
 *          PE RANK calls shmem_global_exit(STATUS); the others are blocked
 *          in shmem_barrier_all, or spin in shmem_wait_until on a variable
 *          nobody changes
 *   shmem_behave skip-barrier RANK        after one barrier, PE RANK calls
 *          shmem_finalize while the others call shmem_barrier_all twice:
 *          the finalize passes as their first, and then waits for ever
 *   shmem_behave crash RANK               PE RANK dies of SIGSEGV while the
 *                                         others are blocked in a barrier
 *   shmem_behave exit-after-finalize RANK CODE
 *          all finalize, then PE RANK returns CODE
 *   shmem_behave fault KIND RANK STATUS barrier|compute
 *          PE RANK faults while the others wait in shmem_barrier_all or
 *          compute without calling the library; KIND is segv, abort,
 *          exit-early (exit(STATUS) without shmem_finalize), global-exit
 *          (shmem_global_exit(STATUS)) or hang (sleeps for ever: only the
 *          launcher's time limit ends the job). Just before the fault it
 *          writes CLOCK_MONOTONIC in ns to LAUNCH_TEST_PIDDIR/fault.time.
 *   shmem_behave exit-chain MS            no PE calls shmem_finalize: PE 0
 *          returns at once after handing a token to PE 1; PE r waits for
 *          it, computes MS ms, hands it on and returns. Not an early exit:
 *          while the token travels, all but one of the PEs left are
 *          waiting, and the job must still end with status 0.
 *   shmem_behave stuck                    never ends by itself: the last PE
 *          spins in shmem_wait_until on a variable nobody sets, the others
 *          in a shmem_barrier_all it never joins (only the launcher, or its
 *          loss, ends the job)
 *   shmem_behave put-loop                 every PE puts 8 KiB to both its
 *          neighbours and quiets, for ever (a peer's death ends the job)
 *   shmem_behave clock                    print CLOCK_MONOTONIC in ns (no
 *                                         shmem_init): the scripts' clock
 *   shmem_behave hog RANK MIB             PE RANK writes MIB MiB of malloc()
 *          memory while the others wait in a barrier (the OOM killer's
 *          prey under a memory cgroup)
 *   shmem_behave malloc-fail N            every PE asks shmem_malloc, then
 *          shmem_calloc and shmem_align, for more than the heap N times
 *          each, and prints "PE r: 3N NULLs" when each returned NULL
 *   shmem_behave malloc-negative          every PE asks shmem_malloc for
 *          (size_t)-100 and prints "PE r: NULL" when it got NULL
 *   shmem_behave contexts N               every PE creates N private
 *          contexts, puts its rank through each into the next PE's heap
 *          and static data, and prints "PE r: N contexts ok" when what
 *          the previous PE put arrived
 *   shmem_behave sleep                    every PE sleeps up to 60 s in
 *          the program, not the library, then finalizes
 *   shmem_behave die-in-init RANK US      PE RANK (its PMIX_RANK) dies of
 *          SIGABRT US microseconds after it starts, before shmem_init,
 *          while the others are on their way through shmem_init
 *
 * LAUNCH_TEST_PIDDIR=dir: each PE writes dir/pe.RANK.pid, and dir/ready.RANK.pid
 * just before it blocks.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int me = -1;

static void write_pid(const char *kind)
{
    const char *dir = getenv("LAUNCH_TEST_PIDDIR");
    char        path[4096];
    FILE       *f;

    if (dir == NULL) {
        return;
    }
    snprintf(path, sizeof(path), "%s/%s.%d.pid", dir, kind, me);
    if ((f = fopen(path, "w")) != NULL) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
}

static void nap_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static long long mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The moment of the fault, for the scripts' "job ended within" bound. */
static void write_fault_time(void)
{
    const char *dir = getenv("LAUNCH_TEST_PIDDIR");
    char        path[4096];
    FILE       *f;

    if (dir == NULL) {
        return;
    }
    snprintf(path, sizeof(path), "%s/fault.time", dir);
    if ((f = fopen(path, "w")) != NULL) {
        fprintf(f, "%lld\n", mono_ns());
        fclose(f);
    }
}

static volatile unsigned long sink;

static int fault(int argc, char **argv)
{
    const char *kind = argv[2], *wait = argv[5];
    int         rank = atoi(argv[3]), status = atoi(argv[4]);

    if (argc <= 5 || (strcmp(wait, "barrier") && strcmp(wait, "compute"))) {
        fprintf(stderr, "shmem_behave: fault KIND RANK STATUS barrier|compute\n");
        return 99;
    }
    if (me == rank) {
        nap_ms(300);   /* let the others start waiting first */
        write_fault_time();
        if (!strcmp(kind, "segv")) {
            volatile int *p = NULL;
            *p = 1;
        } else if (!strcmp(kind, "abort")) {
            abort();
        } else if (!strcmp(kind, "exit-early")) {
            exit(status);
        } else if (!strcmp(kind, "global-exit")) {
            shmem_global_exit(status);
        } else if (!strcmp(kind, "hang")) {
            for (;;) pause();
        }
        fprintf(stderr, "shmem_behave: unknown fault '%s'\n", kind);
        return 99;
    }
    write_pid("ready");
    if (!strcmp(wait, "barrier")) {
        shmem_barrier_all();   /* never completes: one PE is absent */
    } else {
        for (unsigned long i = 0;; i++) sink += i;   /* no library call */
    }
    fprintf(stderr, "PE %d: returned from a wait that cannot end\n", me);
    return 90;
}

static long never_set;   /* symmetric (static data); nobody writes it */
static long token;       /* symmetric: exit-chain's */

static int exit_chain(int npes, long ms)
{
    if (me > 0) {
        shmem_long_wait_until(&token, SHMEM_CMP_NE, 0);
        nap_ms(ms);
    }
    if (me + 1 < npes) shmem_long_p(&token, 1, me + 1);
    printf("PE %d: passed the token on\n", me);
    return 0;   /* finalized implicitly at exit */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (strcmp(mode, "clock") == 0) {
        printf("%lld\n", mono_ns());
        return 0;
    }
    if (strcmp(mode, "die-in-init") == 0 && argc > 3) {
        const char *rank = getenv("PMIX_RANK");
        if (rank != NULL && atoi(rank) == atoi(argv[2])) {
            usleep((useconds_t)atol(argv[3]));
            abort();
        }
    }
    shmem_init();
    me = shmem_my_pe();
    int npes = shmem_n_pes();
    write_pid("pe");

    if (strcmp(mode, "die-in-init") == 0) {
        shmem_barrier_all();   /* never completes: one PE died */
        fprintf(stderr, "PE %d: returned from a wait that cannot end\n", me);
        return 90;
    }
    if (strcmp(mode, "contexts") == 0 && argc > 2) {
        enum { MAXCTX = 64 };
        static long  got_static[MAXCTX];
        int          n = atoi(argv[2]), next = (me + 1) % npes, prev = (me + npes - 1) % npes;
        shmem_ctx_t  ctx[MAXCTX];
        long        *got = shmem_calloc(MAXCTX, sizeof(long));
        if (n < 0 || n > MAXCTX || got == NULL) return 91;
        for (int i = 0; i < n; i++) {
            if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx[i]) != 0) return 92;
            shmem_ctx_long_p(ctx[i], &got[i], me + 1000L * i, next);
            shmem_ctx_long_p(ctx[i], &got_static[i], me + 1000L * i, next);
            shmem_ctx_quiet(ctx[i]);
        }
        shmem_barrier_all();
        for (int i = 0; i < n; i++) {
            if (got[i] != prev + 1000L * i || got_static[i] != prev + 1000L * i) {
                printf("PE %d: context %d brought %ld and %ld, not %ld\n", me, i, got[i],
                       got_static[i], prev + 1000L * i);
                return 93;
            }
            shmem_ctx_destroy(ctx[i]);
        }
        printf("PE %d: %d contexts ok\n", me, n);
        shmem_free(got);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "hello") == 0) {
        printf("hello from PE %d of %d\n", me, npes);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "maps0") == 0) {
        long *cell = shmem_malloc(sizeof(long));
        printf("PE %d maps PE 0: %s\n", me, shmem_ptr(cell, 0) ? "yes" : "no");
        shmem_free(cell);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "hello-all") == 0) {
        long *cell = shmem_malloc(sizeof(long));
        for (int pe = 0; pe < npes; pe++) shmem_long_p(cell, me, pe);
        shmem_barrier_all();
        printf("hello from PE %d of %d\n", me, npes);
        shmem_free(cell);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "global-exit") == 0 && argc > 4) {
        if (me == atoi(argv[2])) {
            nap_ms(300);   /* let the others block first */
            shmem_global_exit(atoi(argv[3]));
        }
        write_pid("ready");
        if (strcmp(argv[4], "spin") == 0) {
            shmem_long_wait_until(&never_set, SHMEM_CMP_NE, 0);
        } else {
            shmem_barrier_all();   /* never completes: one PE is absent */
        }
        fprintf(stderr, "PE %d: returned from a wait that cannot end\n", me);
        return 90;
    }
    if (strcmp(mode, "put-loop") == 0) {
        static long box[1024];
        long        src[1024] = { 0 };
        write_pid("ready");
        for (long i = 0;; i++) { /* only a peer's death (or the launcher) ends it */
            src[0] = i;
            shmem_long_put(box, src, 1024, (me + 1) % npes);
            shmem_long_put(box, src, 1024, (me + npes - 1) % npes);
            shmem_quiet();
        }
    }
    if (strcmp(mode, "stuck") == 0) {
        write_pid("ready");
        if (me == npes - 1) {
            shmem_long_wait_until(&never_set, SHMEM_CMP_NE, 0);
        } else {
            shmem_barrier_all();
        }
        fprintf(stderr, "PE %d: returned from a wait that cannot end\n", me);
        return 90;
    }
    if (strcmp(mode, "skip-barrier") == 0 && argc > 2) {
        write_pid("ready");
        shmem_barrier_all();
        if (me == atoi(argv[2])) {
            shmem_finalize(); /* one barrier short: waits there for ever */
            return 0;
        }
        shmem_barrier_all();
        shmem_barrier_all();
        fprintf(stderr, "PE %d: returned from a barrier that cannot end\n", me);
        return 90;
    }
    if (strcmp(mode, "crash") == 0 && argc > 2) {
        if (me == atoi(argv[2])) {
            nap_ms(300);
            volatile int *p = NULL;
            *p = 1;   /* SIGSEGV */
        }
        write_pid("ready");
        shmem_barrier_all();
        fprintf(stderr, "PE %d: returned from a barrier that cannot end\n", me);
        return 90;
    }
    if (strcmp(mode, "fault") == 0 && argc > 5) {
        return fault(argc, argv);
    }
    if (strcmp(mode, "exit-chain") == 0 && argc > 2) {
        return exit_chain(npes, atol(argv[2]));
    }
    if (strcmp(mode, "hog") == 0 && argc > 3) {
        write_pid("ready");
        if (me == atoi(argv[2])) {
            size_t mib = (size_t)atol(argv[3]);
            char  *p   = malloc(mib << 20);
            for (size_t i = 0; p != NULL && i < mib << 20; i += 4096) p[i] = 1;
            fprintf(stderr, "PE %d: wrote %zu MiB and lives\n", me, mib);
        }
        shmem_barrier_all();
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "malloc-fail") == 0 && argc > 2) {
        long n = atol(argv[2]), nulls = 0;
        for (long i = 0; i < n; i++) {
            nulls += shmem_malloc((size_t)1 << 40) == NULL;
            nulls += shmem_calloc((size_t)1 << 30, 1024) == NULL;
            nulls += shmem_align(4096, (size_t)1 << 40) == NULL;
        }
        printf("PE %d: %ld NULLs\n", me, nulls);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "malloc-negative") == 0) {
        int n = -100; /* a count gone negative, passed on as a size */
        void *p = shmem_malloc((size_t)n);
        printf("PE %d: %s\n", me, p ? "not NULL" : "NULL");
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "sleep") == 0) {
        write_pid("ready");
        for (int i = 0; i < 600; i++) nap_ms(100);
        fprintf(stderr, "PE %d: slept 60 s\n", me);
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "exit-after-finalize") == 0 && argc > 3) {
        shmem_finalize();
        return me == atoi(argv[2]) ? atoi(argv[3]) : 0;
    }
    fprintf(stderr, "shmem_behave: bad arguments (mode '%s')\n", mode);
    shmem_finalize();
    return 99;
}
