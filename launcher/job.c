/*
 * The job loop: one poll() over the relays, the signalfd and the PMIx
 * event pipe, until every PE is reaped and its output drained.
 *
 * The first decisive event sets oshrun's exit status and ends the job:
 * a PE dying of a signal or exiting non-zero, an abort (shmem_global_exit),
 * a PE leaving without finalize, a signal to oshrun, or --timeout. Ending
 * means SIGTERM to the PEs' process group, then SIGKILL after a grace.
 */
#include "oshrun.h"
#include "core/ush_cgroup.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

/* After the last PE is gone, how long its output may take to arrive
 * (a descendant that left the process group can hold the pipe open). */
#define USH_RUN_DRAIN_S 1.0

/* How long after a PE exited with status 0 its finalize may still reach
 * the PMIx server (ush_run_job_unfinalized): this, once per
 * USH_RUN_UNFINALIZED_PES_PER_CPU PEs per hardware thread. */
#define USH_RUN_UNFINALIZED_GRACE_S     1.0
#define USH_RUN_UNFINALIZED_PES_PER_CPU 64

/* Signals that end the job, and signals only passed on. */
static const int ush_run_ending_signals[]  = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int ush_run_forward_signals[] = { SIGUSR1, SIGUSR2 };
/* Asks for the hang report; the job goes on. Ignored by default, so a
 * SIGURG to a program that is not oshrun does no harm. */
#define USH_RUN_REPORT_SIGNAL SIGURG

#define USH_RUN_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The memory cgroup the PEs start in (oshrun's own) and the OOM killer's
 * count there when the job began: a PE dead of SIGKILL while the count
 * went up was, most likely, its victim. */
static ush_cgroup_mem_t ush_run_cgroup;
static int64_t          ush_run_oom_kills = -1;

ush_run_status_t ush_run_job_signals_block(ush_run_job_t *job)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (size_t i = 0; i < USH_RUN_NELEM(ush_run_ending_signals); i++) {
        sigaddset(&set, ush_run_ending_signals[i]);
    }
    for (size_t i = 0; i < USH_RUN_NELEM(ush_run_forward_signals); i++) {
        sigaddset(&set, ush_run_forward_signals[i]);
    }
    sigaddset(&set, USH_RUN_REPORT_SIGNAL);
    if (ush_cgroup_mem_read("", &ush_run_cgroup) == 0) {
        ush_run_oom_kills = ush_cgroup_oom_kills(&ush_run_cgroup);
    }
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) {
        ush_run_msg("sigprocmask: %s", strerror(errno));
        return USH_RUN_ERR_SYS;
    }
    job->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    if (job->sigfd < 0) {
        ush_run_msg("signalfd: %s", strerror(errno));
        return USH_RUN_ERR_SYS;
    }
    return USH_RUN_OK;
}

/* Signal every PE: the group reaches their descendants too, the pids reach
 * a PE that left the group. Only while a PE is unreaped: until then its pid
 * (and so the group id) cannot be reused by an unrelated process. */
static void ush_run_job_signal_all(ush_run_job_t *job, int sig)
{
    if (job->nalive == 0) {
        return;
    }
    kill(-job->pgid, sig);
    for (int r = 0; r < job->nspawned; r++) {
        if (job->pes[r].alive) {
            kill(job->pes[r].pid, sig);
        }
    }
}

/* First caller sets the exit status; PEs get sig (SIGTERM unless a
 * signal to oshrun is being passed on) and SIGKILL after the grace. */
void ush_run_job_end(ush_run_job_t *job, int code, int sig)
{
    if (job->exit_code < 0) {
        job->exit_code = code;
    }
    if (job->ending) {
        return;
    }
    job->ending  = 1;
    job->kill_at = ush_run_now() + USH_RUN_KILL_GRACE_S;
    ush_run_job_signal_all(job, sig);
}

static ush_run_pe_t *ush_run_job_find(ush_run_job_t *job, pid_t pid, int *rank)
{
    for (int r = 0; r < job->nspawned; r++) {
        if (job->pes[r].pid == pid && job->pes[r].alive) {
            *rank = r;
            return &job->pes[r];
        }
    }
    return NULL;
}

/* Nothing but the OOM killer and kill -9 sends SIGKILL unasked, and
 * "signal 9" alone sends users looking for a bug. The cgroup's count says
 * whether its OOM killer acted; a node-wide one leaves no trace we can
 * read, so without the count going up the line names it as a likely
 * cause only. */
static void ush_run_job_report_signal(const ush_run_pe_t *pe, int rank, int sig)
{
    if (sig != SIGKILL) {
        ush_run_msg("PE %d (pid %ld) died of signal %d (%s)", rank, (long)pe->pid, sig,
                    strsignal(sig));
        return;
    }
    int64_t kills = ush_run_oom_kills >= 0 ? ush_cgroup_oom_kills(&ush_run_cgroup) : -1;
    if (kills > ush_run_oom_kills) {
        ush_run_oom_kills = kills; /* one count, one PE */
        if (ush_run_cgroup.mem != USH_CGROUP_UNLIMITED) {
            ush_run_msg("PE %d (pid %ld) was killed by the kernel's out-of-memory killer: "
                        "the job's memory cgroup allows %llu bytes (%s); use less memory per "
                        "PE (SHMEM_SYMMETRIC_SIZE is part of it), fewer PEs per node, or ask "
                        "for more memory (Slurm: --mem)",
                        rank, (long)pe->pid, (unsigned long long)ush_run_cgroup.mem,
                        ush_run_cgroup.limit_file);
        } else {
            ush_run_msg("PE %d (pid %ld) was killed by the kernel's out-of-memory killer: "
                        "the node ran out of memory; use less memory per PE "
                        "(SHMEM_SYMMETRIC_SIZE is part of it) or fewer PEs per node",
                        rank, (long)pe->pid);
        }
        return;
    }
    ush_run_msg("PE %d (pid %ld) was killed by signal 9 (SIGKILL; the kernel's out-of-memory "
                "killer does this when memory runs out)", rank, (long)pe->pid);
}

static double ush_run_min_due(double a, double b)
{
    return (a == 0 || (b != 0 && b < a)) ? b : a;
}

static void ush_run_job_pe_exited(ush_run_job_t *job, ush_run_pe_t *pe, int rank, int wstatus)
{
    pe->alive = 0;
    job->nalive--;

    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        if (!job->ending) {
            ush_run_job_report_signal(pe, rank, sig);
        }
        ush_run_job_end(job, 128 + sig, SIGTERM);
        return;
    }
    int code = WEXITSTATUS(wstatus);
    if (code != 0) {
        if (!job->ending && job->nalive > 0) {
            ush_run_msg("PE %d exited with status %d; ending the job", rank, code);
        }
        ush_run_job_end(job, code, SIGTERM);
    } else if (pe->connected && !pe->finalized && !job->ending) {
        /* Judged a moment later (ush_run_job_unfinalized): libpmix's client
         * gives up waiting for the server's answer to PMIx_Finalize after
         * 2 s, and with hundreds of PEs per core the server may take in
         * the finalize only after the PE is gone. */
        pe->unfinalized_at = ush_run_now();
    }
}

/* A PE that exited with status 0 and whose finalize the server has still
 * not taken in did exit without it (the others would wait for it in the
 * next collective forever) once the server has been quiet for a grace
 * time: no finalize of any PE came in since the PE exited, or since the
 * last one did (a server busy with the finalizes of hundreds of PEs is
 * still working through them). The grace grows with the PEs per hardware
 * thread, which share the cores with the server: 1 s up to 64 of them,
 * 8 s for 1024 PEs on 2 cores (where 1 s still misjudged 1 job in 3).
 * Returns when the next such verdict is due (0: none pending). */
static double ush_run_job_unfinalized(ush_run_job_t *job, double now)
{
    double due = 0;
    for (int r = 0; r < job->nspawned; r++) {
        ush_run_pe_t *pe = &job->pes[r];
        if (pe->unfinalized_at == 0) continue;
        double at = (pe->unfinalized_at > job->last_finalize ? pe->unfinalized_at
                                                              : job->last_finalize) +
                    job->unfinalized_grace;
        if (pe->finalized || job->ending) {
            pe->unfinalized_at = 0;
        } else if (now >= at) {
            pe->unfinalized_at = 0;
            ush_run_msg("PE %d exited without finalizing (no shmem_finalize / PMIx_Finalize); "
                        "ending the job", r);
            ush_run_job_end(job, USH_RUN_EXIT_FAILURE, SIGTERM);
        } else {
            due = ush_run_min_due(due, at);
        }
    }
    return due;
}

static void ush_run_job_pmix_events(ush_run_job_t *job);

static void ush_run_job_reap(ush_run_job_t *job)
{
    for (;;) {
        siginfo_t si;
        int       wstatus, rank = -1;

        /* look first, reap second: the last PE's pid keeps the group id
         * ours while we sweep its leftovers */
        memset(&si, 0, sizeof(si));
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0) {
            return;
        }
        ush_run_pe_t *pe = ush_run_job_find(job, si.si_pid, &rank);
        if (pe && job->nalive == 1) {
            kill(-job->pgid, SIGKILL);
        }
        if (waitpid(si.si_pid, &wstatus, 0) < 0) {
            return;
        }
        if (pe) {
            /* whatever this PE told the PMIx server (finalize, abort) was
             * queued before it could exit: take it in before judging */
            ush_run_job_pmix_events(job);
            ush_run_job_pe_exited(job, pe, rank, wstatus);
        }
    }
}

static void ush_run_job_signals(ush_run_job_t *job)
{
    struct signalfd_siginfo si;

    while (read(job->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD) {
            ush_run_job_reap(job);
            continue;
        }
        if (sig == USH_RUN_REPORT_SIGNAL) {
            ush_run_hang_report(job, "asked for by SIGURG; the job goes on");
            continue;
        }
        int ending = 0;
        for (size_t i = 0; i < USH_RUN_NELEM(ush_run_ending_signals); i++) {
            ending |= (sig == ush_run_ending_signals[i]);
        }
        if (!ending) {
            ush_run_job_signal_all(job, sig);
        } else if (job->ending) {
            /* asked twice: no more grace */
            ush_run_job_signal_all(job, SIGKILL);
        } else {
            ush_run_job_end(job, 128 + sig, sig);
        }
    }
    /* a SIGCHLD may have been merged with one read before: reap anyway */
    ush_run_job_reap(job);
}

static void ush_run_job_pmix_events(ush_run_job_t *job)
{
    ush_run_ev_t *ev, *next;

    for (ev = ush_run_server_take_events(); ev; ev = next) {
        ush_run_pe_t *pe = (ev->rank >= 0 && ev->rank < job->nspawned) ?
                           &job->pes[ev->rank] : NULL;
        next = ev->next;
        switch (ev->kind) {
        case USH_RUN_EV_CONNECTED:
            if (pe) pe->connected = 1;
            break;
        case USH_RUN_EV_FINALIZED:
            if (pe) pe->finalized = 1;
            job->last_finalize = ush_run_now();
            break;
        case USH_RUN_EV_ABORT:
            /* PMIx leaves printing the message to the launcher */
            if (ev->msg && !job->ending) {
                size_t len = strlen(ev->msg);
                ush_run_msg("PE %d aborted the job with status %d: %.*s", ev->rank,
                            ev->status, (int)(len && ev->msg[len - 1] == '\n' ? len - 1 : len),
                            ev->msg);
            }
            /* an exit status is 8 bits; do not let 256 turn into success */
            ush_run_job_end(job, (ev->status & 0xff) || ev->status == 0 ?
                                 (ev->status & 0xff) : USH_RUN_EXIT_FAILURE, SIGTERM);
            break;
        }
        ush_run_server_ev_free(ev);
    }
}

static int ush_run_job_relays_open(const ush_run_job_t *job)
{
    for (int r = 0; r < job->nspawned; r++) {
        if (job->pes[r].out.fd >= 0 || job->pes[r].err.fd >= 0) {
            return 1;
        }
    }
    return 0;
}

int ush_run_job_loop(ush_run_job_t *job)
{
    size_t         cap   = 2 + 2 * (size_t)job->nspawned;
    struct pollfd *pfds  = calloc(cap, sizeof(*pfds));
    ush_run_relay_t **who = calloc(cap, sizeof(*who));
    double         drain_until = 0;

    if (pfds == NULL || who == NULL) {
        ush_run_msg("out of memory in the job loop");
        ush_run_job_end(job, USH_RUN_EXIT_FAILURE, SIGKILL);
        /* still reap, blocking, so nothing is left behind */
        while (job->nalive > 0) {
            int st;
            pid_t pid = wait(&st);
            int   rank;
            ush_run_pe_t *pe = pid > 0 ? ush_run_job_find(job, pid, &rank) : NULL;
            if (pid < 0) break;
            if (pe) ush_run_job_pe_exited(job, pe, rank, st);
        }
        goto out;
    }

    /* See ush_run_job_unfinalized. */
    long   cpus    = sysconf(_SC_NPROCESSORS_ONLN);
    double per_cpu = (double)job->nspawned / (double)(cpus > 0 ? cpus : 1);
    job->unfinalized_grace = USH_RUN_UNFINALIZED_GRACE_S *
                             (per_cpu > USH_RUN_UNFINALIZED_PES_PER_CPU
                                  ? per_cpu / USH_RUN_UNFINALIZED_PES_PER_CPU : 1);

    for (;;) {
        double now     = ush_run_now();
        double verdict = ush_run_job_unfinalized(job, now);

        if (job->nalive == 0 && verdict == 0) {
            if (drain_until == 0) {
                drain_until = now + USH_RUN_DRAIN_S;
            }
            if (!ush_run_job_relays_open(job) || now >= drain_until) {
                break;
            }
        }

        /* deadlines: --timeout, SIGKILL after grace */
        if (job->deadline > 0 && now >= job->deadline && !job->ending) {
            ush_run_msg("the job ran longer than --timeout %g s; ending it",
                        job->opts.timeout_s);
            char why[96];
            snprintf(why, sizeof(why), "the job ran longer than --timeout %g s",
                     job->opts.timeout_s);
            ush_run_hang_report(job, why);
            ush_run_job_end(job, USH_RUN_EXIT_TIMEOUT, SIGTERM);
        }
        if (job->kill_at > 0 && now >= job->kill_at) {
            ush_run_job_signal_all(job, SIGKILL);
            job->kill_at = 0;
        }
        double due = job->ending ? job->kill_at : job->deadline;
        due = ush_run_min_due(due, drain_until);
        due = ush_run_min_due(due, verdict);

        size_t n = 0;
        pfds[n++] = (struct pollfd){ .fd = job->sigfd, .events = POLLIN };
        pfds[n++] = (struct pollfd){ .fd = ush_run_server_wake_fd(), .events = POLLIN };
        for (int r = 0; r < job->nspawned; r++) {
            ush_run_relay_t *rl[2] = { &job->pes[r].out, &job->pes[r].err };
            for (int k = 0; k < 2; k++) {
                if (rl[k]->fd >= 0) {
                    who[n]    = rl[k];
                    pfds[n++] = (struct pollfd){ .fd = rl[k]->fd, .events = POLLIN };
                }
            }
        }

        int timeout_ms = -1;
        if (due > 0) {
            double left = due - now;
            timeout_ms  = left <= 0 ? 0 : (int)(left * 1000.0) + 1;
        }
        int rc = poll(pfds, (nfds_t)n, timeout_ms);
        if (rc < 0 && errno != EINTR) {
            ush_run_msg("poll: %s", strerror(errno));
            ush_run_job_end(job, USH_RUN_EXIT_FAILURE, SIGKILL);
            continue;
        }
        if (pfds[1].revents) {
            ush_run_job_pmix_events(job);
        }
        for (size_t i = 2; i < n; i++) {
            if (pfds[i].revents) {
                ush_run_relay_read(who[i]);
            }
        }
        if (pfds[0].revents) {
            ush_run_job_signals(job);
        }
    }

out:
    for (int r = 0; r < job->nspawned; r++) {
        ush_run_relay_close(&job->pes[r].out);
        ush_run_relay_close(&job->pes[r].err);
    }
    free(who);
    free(pfds);
    return job->exit_code < 0 ? 0 : job->exit_code;
}
