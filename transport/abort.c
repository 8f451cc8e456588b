/*
 * Ending the job from a PE: PMIx_Abort, made sure of.
 */
#include "ush_tp_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <pmix.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* PMIx_Abort asks the launcher to end the job, and it answers once it has
 * taken the request (2-10 ms under srun), but the ending itself is not
 * certain: Slurm 22.05 now and then takes the request (the step shows
 * CANCELLED, srun has the status) yet signals no task, and the step only
 * ends when the stepd notices this PE's lost connection and kills it again,
 * about 2.1 s after the fault. So after PMIx_Abort the PE also ends its
 * node-local peers itself (SIGKILL, what the launchers send them anyway).
 * Their pids come from their wire-up data, read then; each is held by a
 * pidfd while its start time is compared with the one its PE published,
 * so a reused pid is never hit. The
 * launcher then finds every task on this node gone and ends the job at
 * once; PEs on other nodes are still the launcher's to end.
 *
 * In a fatal-signal handler PMIx_Abort is not safe (it takes locks and
 * waits for the PMIx progress thread), so a helper thread made at
 * shmem_init calls it: the handler hands it the request through a pipe
 * and waits for its answer at most USH_TP_ABORT_WAIT_MS.
 *
 * The same thread watches the PE's parent when that is a launcher's daemon
 * (mpirun's or orted's, slurmstepd): when it dies the PE ends at once.
 * The PMIx event for the lost server connection comes too, but PMIx 4.2
 * raises it a second after it sees the connection close. Only known
 * daemons count: a PE under a wrapper that exits (a script that starts
 * the program in the background) is not orphaned by that.
 *
 * Memory ordering: the handler writes status and msg with plain stores,
 * then writes a byte to the pipe; the helper reads msg and status only
 * after its read(2) returned that byte. The kernel's pipe lock orders
 * the two system calls, so the stores are visible (TSan models pipes the
 * same way). Everything else the helper reads is written before
 * pthread_create; the handler reads prepared and pid, written before
 * sigaction installed it (ush_fault_init), which the kernel orders for
 * whichever thread the signal is delivered to. */

#define USH_TP_ABORT_WAIT_MS 500

static struct {
    int       prepared;
    pid_t     pid;           /* the process that prepared (not a forked child) */
    int       req[2], ans[2]; /* handler -> helper, helper -> handler */
    pthread_t helper;
    int       status;        /* of the request, written before req */
    char      msg[256];
    int       parent_fd;     /* pidfd of the launcher's daemon, or -1 */
    char      parent[32];    /* its name */
} ush_tp_ab = { .req = { -1, -1 }, .ans = { -1, -1 }, .parent_fd = -1 };

/* The daemons that start PEs and whose death ends the job. */
static const char *const ush_tp_launcher_daemons[] = {
    "mpirun", "mpiexec", "orterun", "orted", "prterun", "prted", "slurmstepd",
};

/* A pidfd of this process's parent if it is a launcher's daemon. */
static int ush_tp_abort_parent_open(char *name, size_t len)
{
    char  path[64], comm[32] = "";
    pid_t ppid = getppid();
    FILE *f;
    int   fd;

    snprintf(path, sizeof(path), "/proc/%ld/comm", (long)ppid);
    if ((f = fopen(path, "r")) == NULL) return -1;
    if (fgets(comm, sizeof(comm), f) == NULL) comm[0] = '\0';
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    for (size_t i = 0; i < sizeof(ush_tp_launcher_daemons) / sizeof(char *); i++) {
        if (strcmp(comm, ush_tp_launcher_daemons[i]) != 0) continue;
        fd = (int)syscall(SYS_pidfd_open, ppid, 0);
        /* the parent must still be ours once the pidfd holds it */
        if (fd >= 0 && getppid() != ppid) {
            close(fd);
            fd = -1;
        }
        snprintf(name, len, "%s, pid %ld", comm, (long)ppid);
        return fd;
    }
    return -1;
}

/* SIGKILL to every node-local peer in our PID namespace. Reads their
 * wire-up data (a local read after start-up): not for a signal handler. */
static void ush_tp_abort_end_peers(void)
{
    uint64_t pidns = ush_tp_pidns();

    if (!ush_tp.peers || !pidns) return;
    for (int pe = 0; pe < ush_tp_job.size; pe++) {
        ush_tp_blob_head_t head;
        if (pe == ush_tp_job.rank || !ush_tp.local[pe] || ush_tp_peer_head(pe, &head) ||
            head.pidns != pidns || head.pid <= 0 || head.start == 0) {
            continue;
        }
        int fd = (int)syscall(SYS_pidfd_open, (pid_t)head.pid, 0);
        if (fd < 0) continue; /* gone already */
        if (ush_tp_proc_start(head.pid) == head.start) {
            syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
        }
        close(fd);
    }
}

static void *ush_tp_abort_helper(void *arg)
{
    sigset_t all;
    char     c = 0;

    struct pollfd pfd[2] = { { .fd = ush_tp_ab.req[0], .events = POLLIN },
                             { .fd = ush_tp_ab.parent_fd, .events = POLLIN } };

    (void)arg;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* faults are the program's threads' */
    for (;;) {
        /* a negative fd is ignored by poll: no daemon to watch */
        if (poll(pfd, 2, -1) < 0) continue;
        if (pfd[1].revents) {
            char why[64];
            snprintf(why, sizeof(why), "%s, exited", ush_tp_ab.parent);
            ush_tp_abort_launcher_lost(why);
        }
        if (pfd[0].revents) {
            ssize_t got = read(ush_tp_ab.req[0], &c, 1);
            if (got == 1) break;
            if (got == 0) return NULL; /* EOF: ush_tp_abort_release */
        }
    }
    if (c == 'a') {
        PMIx_Abort(ush_tp_ab.status, ush_tp_ab.msg, NULL, 0);
        ush_tp_abort_end_peers(); /* what the signal handler may not do */
        if (write(ush_tp_ab.ans[1], "d", 1) < 0) {
            /* the handler's wait runs out instead */
        }
    }
    return NULL; /* EOF: ush_tp_abort_release */
}

void ush_tp_abort_prepare(void)
{
    if (ush_tp_ab.prepared || !ush_tp_pmix_up) return;
    ush_tp_ab.parent_fd = ush_tp_abort_parent_open(ush_tp_ab.parent, sizeof(ush_tp_ab.parent));
    if (pipe2(ush_tp_ab.req, O_CLOEXEC) != 0) goto fail;
    if (pipe2(ush_tp_ab.ans, O_CLOEXEC) != 0) goto fail;
    if (pthread_create(&ush_tp_ab.helper, NULL, ush_tp_abort_helper, NULL) != 0) goto fail;
    ush_tp_ab.pid      = getpid();
    ush_tp_ab.prepared = 1;
    return;
fail:
    /* without the helper a fault still ends the job, only more slowly */
    ush_tp_abort_release();
}

void ush_tp_abort_release(void)
{
    if (ush_tp_ab.prepared) {
        close(ush_tp_ab.req[1]); /* EOF: the helper returns */
        ush_tp_ab.req[1] = -1;
        pthread_join(ush_tp_ab.helper, NULL);
        ush_tp_ab.prepared = 0;
    }
    for (int i = 0; i < 2; i++) {
        if (ush_tp_ab.req[i] >= 0) close(ush_tp_ab.req[i]);
        if (ush_tp_ab.ans[i] >= 0) close(ush_tp_ab.ans[i]);
        ush_tp_ab.req[i] = ush_tp_ab.ans[i] = -1;
    }
    if (ush_tp_ab.parent_fd >= 0) close(ush_tp_ab.parent_fd);
    ush_tp_ab.parent_fd = -1;
}

void ush_tp_abort(int status, const char *msg)
{
    fflush(stdout);
    fflush(stderr);
    if (ush_tp_pmix_up) {
        PMIx_Abort(status, msg ? msg : "", NULL, 0);
        if (ush_tp_ab.prepared) {
            ush_tp_abort_end_peers();
        } else {
            /* oshrun ends us at once; otherwise leave after a moment */
            sleep(2);
        }
    }
    _exit(status);
}

void ush_tp_abort_from_signal(int status, const char *msg)
{
    struct pollfd pfd = { .fd = ush_tp_ab.ans[0], .events = POLLIN };
    size_t        n   = 0;

    if (!ush_tp_ab.prepared || getpid() != ush_tp_ab.pid) return;
    while (msg[n] && n < sizeof(ush_tp_ab.msg) - 1) {
        ush_tp_ab.msg[n] = msg[n];
        n++;
    }
    ush_tp_ab.msg[n] = '\0';
    ush_tp_ab.status = status;
    if (write(ush_tp_ab.req[1], "a", 1) == 1) {
        while (poll(&pfd, 1, USH_TP_ABORT_WAIT_MS) < 0 && errno == EINTR) {
            /* a signal to this thread: wait again (bounded per attempt) */
        }
    }
}

void ush_tp_abort_launcher_lost(const char *why)
{
    char     line[256];
    sigset_t pipe;
    int      n;

    /* our stderr is often a pipe the dead launcher read: a write must not
     * kill this thread with SIGPIPE before the exit */
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, NULL);
    n = snprintf(line, sizeof(line),
                 "ushmem: PE %d: lost its launcher (%s); exiting\n",
                 ush_tp_job.rank, why);
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n :
                                                        sizeof(line) - 1) < 0) {
        /* nobody to tell */
    }
    /* no atexit handlers: they would talk to the dead server and wait for
     * peers; this process's memory, UCX's and ours, goes with it */
    _exit(USH_TP_EXIT_LAUNCHER_LOST);
}
