/*
 * The reaper: a small child of oshrun that cleans up when oshrun cannot,
 * because it was killed with SIGKILL (or crashed). It is forked before the
 * PMIx server starts its threads, holds nothing but the read end of a pipe
 * whose only writer is oshrun, and waits on it:
 *
 *  - 'd' means oshrun has ended the job and removed its directory itself:
 *    nothing to do;
 *  - end of file without 'd' means oshrun died: the reaper removes the
 *    private PMIx directory and kills its process group.
 *
 * The reaper leads the PEs' process group (they join it, see spawn.c). So
 * the group id stays ours as long as the reaper lives, and its last act,
 * kill(0, SIGKILL), reaches the PEs and whatever they started, never an
 * unrelated process that happens to reuse a pid. It ignores every signal it
 * can, so the SIGTERM, SIGUSR1 ... oshrun sends the group are the PEs'
 * alone; oshrun's final SIGKILL of the group ends it with them.
 *
 * The PEs do not rely on the reaper alone: each also has PR_SET_PDEATHSIG
 * (spawn.c), so a PE that left the group ends with oshrun too.
 */
#include "oshrun.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define USH_RUN_REAPER_DONE 'd'

/* In the child: single-threaded (forked before PMIx), so ordinary calls
 * are safe; it never returns. */
static void __attribute__((noreturn)) ush_run_reaper_main(int fd, const char *tmpdir,
                                                          const char *shmdir)
{
    struct sigaction ign = { .sa_handler = SIG_IGN };
    sigset_t         none;
    char             c = 0;
    ssize_t          got;
    int              null;

    for (int sig = 1; sig < NSIG; sig++) {
        sigaction(sig, &ign, NULL);   /* fails harmlessly for KILL and STOP */
    }
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* hold none of oshrun's descriptors: a reader of oshrun's stdout must
     * see end of file when oshrun exits, not when the reaper does */
    null = open("/dev/null", O_RDWR);
    for (int i = 0; i <= 2 && null >= 0; i++) {
        dup2(null, i);
    }
    if (fd != 3 && dup2(fd, 3) < 0) {
        _exit(USH_RUN_EXIT_FAILURE);
    }
    if (close_range(4, ~0U, 0) != 0) {
        for (int i = 4; i < 65536; i++) {
            close(i);
        }
    }
    do {
        got = read(3, &c, 1);
    } while (got < 0 && errno == EINTR);
    if (got == 1 && c == USH_RUN_REAPER_DONE) {
        _exit(0);
    }
    ush_run_tmpdir_remove(tmpdir);
    ush_run_tmpdir_remove(shmdir);
    kill(0, SIGKILL);   /* the PEs' group, this process included */
    _exit(USH_RUN_EXIT_FAILURE);
}

ush_run_status_t ush_run_reaper_start(ush_run_job_t *job)
{
    int   p[2];
    pid_t pid;

    if (pipe2(p, O_CLOEXEC) != 0) {
        ush_run_msg("pipe for the reaper: %s", strerror(errno));
        return USH_RUN_ERR_SYS;
    }
    pid = fork();
    if (pid < 0) {
        ush_run_msg("fork of the reaper: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return USH_RUN_ERR_SYS;
    }
    if (pid == 0) {
        /* its own group, which the PEs join; same session, so they can */
        setpgid(0, 0);
        close(p[1]);
        ush_run_reaper_main(p[0], job->tmpdir, job->shmdir);
    }
    setpgid(pid, pid);   /* from this side too: the group exists before PE 0 joins */
    close(p[0]);
    job->reaper_pid = pid;
    job->reaper_fd  = p[1];
    job->pgid       = pid;
    return USH_RUN_OK;
}

void ush_run_reaper_done(ush_run_job_t *job)
{
    char    c = USH_RUN_REAPER_DONE;
    ssize_t rc;

    if (job->reaper_fd < 0) {
        return;
    }
    /* EPIPE when the group's final SIGKILL has ended it already (SIGPIPE
     * is ignored by then) */
    do {
        rc = write(job->reaper_fd, &c, 1);
    } while (rc < 0 && errno == EINTR);
    close(job->reaper_fd);
    job->reaper_fd = -1;
    /* the job loop may have reaped it already (ECHILD) */
    while (waitpid(job->reaper_pid, NULL, 0) < 0 && errno == EINTR) {
    }
}
