/*
 * oshrun main: parse the command line, hand the job to srun or mpirun when
 * that is the launcher for it, otherwise set up the PMIx server and the
 * private temporary directory, start the PEs, run the job and clean up.
 * Each step lives in its own file; this one only orders them and makes sure
 * every path out undoes what was done.
 */
#include "oshrun.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* One line on stderr, written with a single write() so it does not tear
 * against the PE output the relay writes to the same descriptor. */
void ush_run_msg(const char *fmt, ...)
{
    char    line[2048];
    int     n = snprintf(line, sizeof(line), "oshrun: ");
    va_list ap;

    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof(line) - 2) {
        n = (int)sizeof(line) - 2;
    }
    line[n++] = '\n';
    ssize_t rc;
    do {
        rc = write(STDERR_FILENO, line, (size_t)n);
    } while (rc < 0 && errno == EINTR);
}

double ush_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Pipes created later must never land on 0, 1 or 2: a PE's dup2() onto its
 * standard descriptors would then clobber them. */
static void ush_run_ensure_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            /* lowest free descriptor is fd itself */
            if (open("/dev/null", O_RDWR) < 0) {
                _exit(USH_RUN_EXIT_FAILURE);
            }
        }
    }
}

/* Each PE costs three descriptors here (two relay pipes and its PMIx
 * socket) on top of about 16 of oshrun's own (PMIx's listeners and
 * threads, the signalfd, the reaper's pipe: 19 with one PE, 28 with 4, 64
 * with 16, counted in /proc); 8 more cover what a start-up holds for a
 * moment. Take what the hard limit allows and refuse a job that cannot
 * fit rather than fail halfway through starting it. */
#define USH_RUN_FDS_PER_PE 3
#define USH_RUN_FDS_BASE   24

static ush_run_status_t ush_run_check_fd_limit(int npes)
{
    struct rlimit rl;
    rlim_t        need = (rlim_t)npes * USH_RUN_FDS_PER_PE + USH_RUN_FDS_BASE;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        return USH_RUN_OK;   /* cannot tell; let it fail later if it must */
    }
    if (rl.rlim_cur < need && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need * 2) ?
                      need * 2 : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur < need) {
        ush_run_msg("-n %d needs about %llu file descriptors but the limit is %llu "
                    "(raise it with 'ulimit -n')", npes, (unsigned long long)need,
                    (unsigned long long)rl.rlim_cur);
        return USH_RUN_ERR_USAGE;
    }
    return USH_RUN_OK;
}

static int ush_run_exit_for(ush_run_status_t st, const ush_run_opts_t *opts)
{
    switch (st) {
    case USH_RUN_EXIT_EARLY: return 0;
    case USH_RUN_ERR_USAGE:  return USH_RUN_EXIT_USAGE;
    case USH_RUN_ERR_NOPROG: return opts->prog_status;
    default:                 return USH_RUN_EXIT_FAILURE;
    }
}

int main(int argc, char **argv)
{
    ush_run_job_t    job = { .exit_code = -1, .sigfd = -1, .reaper_fd = -1 };
    ush_run_status_t st;
    int              code;

    ush_run_ensure_std_fds();
    st = ush_run_parse_options(argc, argv, &job.opts);
    if (st == USH_RUN_OK) {
        st = ush_run_handoff_choose(&job.opts);
    }
    if (st != USH_RUN_OK) {
        code = ush_run_exit_for(st, &job.opts);
        goto out_opts;
    }
    if (job.opts.launcher != USH_RUN_LAUNCHER_EMBEDDED) {
        code = ush_run_handoff_exec(&job.opts);   /* returns only on failure */
        goto out_opts;
    }
    st = ush_run_resolve_program(&job.opts);
    if (st == USH_RUN_OK) {
        st = ush_run_options_embedded(&job.opts);
    }
    if (st != USH_RUN_OK) {
        code = ush_run_exit_for(st, &job.opts);
        goto out_opts;
    }
    st = ush_run_check_fd_limit(job.opts.npes);
    if (st != USH_RUN_OK) {
        code = ush_run_exit_for(st, &job.opts);
        goto out_opts;
    }
    /* A closed reader of our stdout must not kill the launcher (and with it
     * the bookkeeping of the PEs); the relay drops output instead. */
    signal(SIGPIPE, SIG_IGN);
    if (gethostname(job.hostname, sizeof(job.hostname) - 1) != 0) {
        strcpy(job.hostname, "localhost");
    }
    st = ush_run_binding_plan(&job.opts, &job.cpusets);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_opts;
    }
    job.pes = calloc((size_t)job.opts.npes, sizeof(*job.pes));
    if (job.pes == NULL) {
        ush_run_msg("out of memory for %d PEs", job.opts.npes);
        code = USH_RUN_EXIT_FAILURE;
        goto out_binding;
    }
    /* Before PMIx starts its threads, so they inherit the blocked mask and
     * every signal reaches us through the signalfd. */
    st = ush_run_job_signals_block(&job);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_pes;
    }
    st = ush_run_tmpdir_create(&job.tmpdir);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_signals;
    }
    ush_run_shmdir_create(&job.shmdir);
    ush_run_hang_create(&job);
    /* before the PMIx server's threads exist: the reaper is a plain fork */
    st = ush_run_reaper_start(&job);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_tmpdir;
    }
    st = ush_run_server_init(&job);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_tmpdir;
    }
    st = ush_run_server_register_job(&job);
    if (st != USH_RUN_OK) {
        code = USH_RUN_EXIT_FAILURE;
        goto out_server;
    }
    if (job.opts.timeout_s > 0) {
        job.deadline = ush_run_now() + job.opts.timeout_s;
    }
    /* A failure part way has already ended the PEs it started (and chosen
     * the exit status); the loop still reaps them and drains their output. */
    ush_run_spawn_all(&job);
    code = ush_run_job_loop(&job);
    ush_run_fold_report();
    if (!ush_run_server_can_finalize(&job)) {
        /* see ush_run_server_can_finalize; _exit, not exit: libpmix's
         * threads are still running and must not meet exit-time cleanup */
        ush_run_tmpdir_remove(job.tmpdir);
        ush_run_tmpdir_remove(job.shmdir);
        ush_run_reaper_done(&job);
        _exit(code);
    }

out_server:
    ush_run_server_finalize(&job);
out_tmpdir:
    ush_run_tmpdir_remove(job.tmpdir);
    ush_run_tmpdir_remove(job.shmdir);
    ush_run_reaper_done(&job);
    ush_run_hang_free(&job);
    free(job.tmpdir);
    free(job.shmdir);
out_signals:
    close(job.sigfd);
out_pes:
    free(job.pes);
out_binding:
    free(job.cpusets);
out_opts:
    ush_run_options_free(&job.opts);
    return code;
}
