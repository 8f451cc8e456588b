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
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
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

/* How long a PE that is not the first of its node to abort waits for the
 * launcher to end it before it asks for itself (ush_tp_abort). */
#define USH_TP_ABORT_SECOND_WAIT_S 5

/* How long after its PMIx_Init a PE lets its node's peers finish theirs
 * before it aborts (ush_tp_abort). */
#define USH_TP_ABORT_SETTLE_NS 500000000ull

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

    if (!ush_tp_pages.page || !pidns) return;
    for (int i = 0; i < ush_tp.nlocal; i++) {
        int                pe = ush_tp.local_pes[i];
        ush_tp_blob_head_t head;
        if (pe == ush_tp_job.rank || ush_tp_peer_head(pe, &head) ||
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

/* A PE that stops at start-up (a bad setting every PE reads alike) may
 * abort while its node's peers are still inside PMIx_Init; the launcher
 * then kills them mid-handshake, which libpmix's server does not survive
 * cleanly (Slurm's slurmstepd was left in PMIx_server_finalize). So an
 * abort within USH_TP_ABORT_SETTLE_NS of this PE's own PMIx_Init waits
 * out the rest of that time first: with it and one abort per node
 * (ush_tp_abort_first_on_node), 0 of 40 failed start-ups on 2 Slurm nodes
 * left a slurmstepd, against 5 of 20 before and 1 of 20 with one abort
 * per node alone. Only start-up waits (the abort helper does not exist
 * yet); faults and shmem_global_exit later in the job are not delayed. */
static void ush_tp_abort_settle(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    if (now - ush_tp_pmix_init_ns < USH_TP_ABORT_SETTLE_NS) {
        uint64_t left = USH_TP_ABORT_SETTLE_NS - (now - ush_tp_pmix_init_ns);
        struct timespec nap = { .tv_sec = (time_t)(left / 1000000000u),
                                .tv_nsec = (long)(left % 1000000000u) };
        while (nanosleep(&nap, &nap) != 0 && errno == EINTR) {
        }
    }
}

/* Whether this PE is the first of its node to abort this job: the first to
 * bind an abstract socket named after the job's namespace (abstract names
 * live in the network namespace: a node's). The socket stays open until
 * the process ends. Under Slurm, PMIx_Abort from several PEs of a node at
 * once, as when every PE stops on the same bad setting at start-up, left
 * slurmstepd deadlocked in PMIx_server_finalize (a libpmix lock, through
 * Slurm's PMIx plugin) after the job was gone: 5 of 20 failed start-ups
 * on 2 nodes, holding the node. One abort per node is all a launcher
 * needs to end the job. */
static int ush_tp_abort_first_on_node(void)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int len = snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "ushmem-abort.%s",
                       ush_tp_bootstrap_nspace());

    if (fd < 0) return 1; /* cannot tell: ask */
    if (len >= (int)sizeof(addr.sun_path) - 1) len = (int)sizeof(addr.sun_path) - 2;
    if (bind(fd, (struct sockaddr *)&addr,
             (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len)) == 0) {
        return 1; /* fd stays open: the name is ours until we exit */
    }
    int in_use = errno == EADDRINUSE;
    close(fd);
    return !in_use;
}

void ush_tp_abort(int status, const char *msg)
{
    fflush(stdout);
    fflush(stderr);
    if (ush_tp_pmix_up) {
        if (!ush_tp_ab.prepared) ush_tp_abort_settle(); /* still in start-up */
        if (!ush_tp_abort_first_on_node()) {
            /* Another PE of this node has asked the launcher to end the
             * job, which ends this PE too; should it not, ask after all. */
            sleep(USH_TP_ABORT_SECOND_WAIT_S);
        }
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
