/*
 * A PE that misbehaves on request, for the launcher tests. It needs no
 * OpenSHMEM library: the rank comes from PMIX_RANK (set by oshrun for each
 * PE), and the PMIx modes talk to oshrun's PMIx server directly.
 *
 *   pe_behave exit CODE            every PE exits CODE
 *   pe_behave exit-one RANK CODE   PE RANK exits CODE, the others sleep
 *   pe_behave crash RANK segv|abort  PE RANK dies so, the others sleep
 *   pe_behave sleep                every PE sleeps (up to 60 s)
 *   pe_behave hello                one line on stdout, one on stderr
 *   pe_behave partial              output without a final newline
 *   pe_behave stdio-lines N LEN STALLS  N lines of LEN bytes ("r:i:" then
 *                                  the PE's letter, 'a' + r % 26) through
 *                                  fully buffered stdio, so writes end
 *                                  mid-line; STALLS times (evenly spread) it
 *                                  flushes half a line and pauses 300 ms
 *   pe_behave long-line LEN        one line of LEN bytes of the PE's letter
 *   pe_behave lines N              N numbered lines, in small unaligned writes
 *   pe_behave env VAR              print VAR's value
 *   pe_behave cwd                  print "PE n cwd DIR"
 *   pe_behave affinity             print how many (and which) CPUs this PE may use
 *   pe_behave cpus-allowed         print "PE n Cpus_allowed_list: LIST" as the
 *                                  kernel reports it in /proc/self/status
 *   pe_behave stdin                PE 0 copies stdin to stdout
 *   pe_behave pmix-abort RANK STATUS  PMIx_Init; PE RANK calls PMIx_Abort,
 *                                  the others wait in PMIx_Fence
 *   pe_behave pmix-nofinalize RANK PMIx_Init; PE RANK exits 0 without
 *                                  PMIx_Finalize, the others wait in a fence
 *
 * Environment: LAUNCH_TEST_PIDDIR=dir makes each PE write dir/pe.RANK.pid;
 * LAUNCH_TEST_FORK=1 makes sleeping PEs start a grandchild that sleeps too
 * (pid in dir/gc.RANK.pid); LAUNCH_TEST_IGNORE_TERM=1 makes sleeping PEs
 * ignore SIGTERM, so only SIGKILL ends them.
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int rank = -1, npes = -1;

static void write_pid(const char *kind, pid_t pid)
{
    const char *dir = getenv("LAUNCH_TEST_PIDDIR");
    char        path[4096];
    FILE       *f;

    if (dir == NULL) {
        return;
    }
    snprintf(path, sizeof(path), "%s/%s.%d.pid", dir, kind, rank);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", (long)pid);
        fclose(f);
    }
}

static void nap_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* What a survivor does: nothing, for a long time, so only the launcher
 * ending the job makes the test finish quickly. */
static void __attribute__((noreturn)) sleep_long(void)
{
    if (getenv("LAUNCH_TEST_FORK")) {
        pid_t gc = fork();
        if (gc == 0) {
            for (int i = 0; i < 600; i++) nap_ms(100);
            _exit(0);
        }
        if (gc > 0) {
            write_pid("gc", gc);
        }
    }
    if (getenv("LAUNCH_TEST_IGNORE_TERM")) {
        signal(SIGTERM, SIG_IGN);
    }
    /* ready: the test may now signal us */
    write_pid("ready", getpid());
    for (int i = 0; i < 600; i++) {
        nap_ms(100);
    }
    exit(0);
}

static pmix_proc_t me;

static int pmix_start(void)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pe_behave: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *r    = getenv("PMIX_RANK");
    char        line[256];

    rank = r ? atoi(r) : -1;
    if (rank < 0) {
        fprintf(stderr, "pe_behave: PMIX_RANK is not set: not started by oshrun?\n");
        return 99;
    }
    write_pid("pe", getpid());
    (void)npes;

    if (strcmp(mode, "exit") == 0 && argc > 2) {
        return atoi(argv[2]);
    }
    if (strcmp(mode, "exit-one") == 0 && argc > 3) {
        if (rank == atoi(argv[2])) {
            nap_ms(200);   /* let the others settle into their sleep */
            return atoi(argv[3]);
        }
        sleep_long();
    }
    if (strcmp(mode, "crash") == 0 && argc > 3) {
        if (rank == atoi(argv[2])) {
            nap_ms(300);
            if (strcmp(argv[3], "abort") == 0) {
                abort();
            }
            volatile int *p = NULL;
            *p = 1;   /* SIGSEGV */
            return 98;
        }
        sleep_long();
    }
    if (strcmp(mode, "sleep") == 0) {
        sleep_long();
    }
    if (strcmp(mode, "hello") == 0) {
        printf("hello from PE %d\n", rank);
        fprintf(stderr, "note from PE %d\n", rank);
        return 0;
    }
    if (strcmp(mode, "lines") == 0 && argc > 2) {
        /* unbuffered and in pieces, so lines reach the pipe split across
         * writes and the relay has to join them */
        long n = atol(argv[2]);
        setvbuf(stdout, NULL, _IONBF, 0);
        for (long i = 0; i < n; i++) {
            printf("line %d ", rank);
            printf("%ld of PE %d\n", i, rank);
        }
        return 0;
    }
    if (strcmp(mode, "stdio-lines") == 0 && argc > 4) {
        long  n = atol(argv[2]), len = atol(argv[3]), stalls = atol(argv[4]);
        long  every = stalls > 0 ? n / stalls : 0;
        char *buf = malloc((size_t)len + 2);
        if (buf == NULL || len < 16) return 1;
        setvbuf(stdout, NULL, _IOFBF, 4096);
        for (long i = 0; i < n; i++) {
            int k = snprintf(buf, (size_t)len + 1, "%d:%ld:", rank, i);
            memset(buf + k, 'a' + rank % 26, (size_t)(len - k));
            buf[len] = '\n';
            if (every > 0 && i % every == every / 2) {
                fwrite(buf, 1, (size_t)len / 2, stdout);
                fflush(stdout);   /* half a line in the pipe, and a pause */
                nap_ms(300);
                fwrite(buf + len / 2, 1, (size_t)(len + 1 - len / 2), stdout);
            } else {
                fwrite(buf, 1, (size_t)len + 1, stdout);
            }
        }
        return 0;
    }
    if (strcmp(mode, "long-line") == 0 && argc > 2) {
        long len = atol(argv[2]);
        for (long i = 0; i < len; i++) {
            putchar('a' + rank % 26);
        }
        putchar('\n');
        return 0;
    }
    if (strcmp(mode, "partial") == 0) {
        printf("partial from PE %d", rank);
        return 0;
    }
    if (strcmp(mode, "env") == 0 && argc > 2) {
        const char *v = getenv(argv[2]);
        printf("%s=%s\n", argv[2], v ? v : "(unset)");
        return 0;
    }
    if (strcmp(mode, "cwd") == 0) {
        char dir[4096];
        if (getcwd(dir, sizeof(dir)) == NULL) {
            perror("getcwd");
            return 1;
        }
        printf("PE %d cwd %s\n", rank, dir);
        return 0;
    }
    if (strcmp(mode, "affinity") == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof(set), &set) != 0) {
            perror("sched_getaffinity");
            return 1;
        }
        printf("PE %d cpus %d list", rank, CPU_COUNT(&set));
        for (int c = 0, first = 1; c < CPU_SETSIZE; c++) {
            if (CPU_ISSET(c, &set)) {
                printf("%s%d", first ? " " : ",", c);
                first = 0;
            }
        }
        printf("\n");
        return 0;
    }
    if (strcmp(mode, "cpus-allowed") == 0) {
        FILE *f = fopen("/proc/self/status", "r");
        if (f == NULL) {
            perror("/proc/self/status");
            return 1;
        }
        while (fgets(line, sizeof(line), f)) {
            if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
                printf("PE %d Cpus_allowed_list: %s", rank, line + 18 + strspn(line + 18, " \t"));
                fclose(f);
                return 0;
            }
        }
        fclose(f);
        fprintf(stderr, "pe_behave: no Cpus_allowed_list in /proc/self/status\n");
        return 1;
    }
    if (strcmp(mode, "stdin") == 0) {
        if (rank == 0) {
            while (fgets(line, sizeof(line), stdin)) {
                printf("got %s", line);
            }
        } else if (fgets(line, sizeof(line), stdin) != NULL) {
            printf("PE %d unexpectedly read stdin\n", rank);
            return 1;
        }
        return 0;
    }
    if (strcmp(mode, "pmix-abort") == 0 && argc > 3) {
        if (pmix_start() != 0) return 97;
        if (rank == atoi(argv[2])) {
            nap_ms(200);
            PMIx_Abort(atoi(argv[3]), "pe_behave: aborting on request", NULL, 0);
            nap_ms(5000);   /* the launcher ends us first */
            return 96;
        }
        write_pid("ready", getpid());
        /* never completes normally (the aborter is absent); when libpmix
         * gives up on it, wait on: only oshrun may end this PE */
        PMIx_Fence(NULL, 0, NULL, 0);
        sleep_long();
    }
    if (strcmp(mode, "pmix-nofinalize") == 0 && argc > 2) {
        if (pmix_start() != 0) return 97;
        if (rank == atoi(argv[2])) {
            nap_ms(200);
            _exit(0);
        }
        write_pid("ready", getpid());
        PMIx_Fence(NULL, 0, NULL, 0);   /* as above */
        sleep_long();
    }
    fprintf(stderr, "pe_behave: bad arguments (mode '%s')\n", mode);
    return 99;
}
