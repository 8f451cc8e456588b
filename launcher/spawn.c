/*
 * Starting the PEs: one fork/exec each, all in one process group (the
 * reaper's, see reaper.c) so a single kill reaches them and anything they
 * started; each ends with oshrun (PR_SET_PDEATHSIG).
 *
 * The launcher has PMIx threads running, so between fork and exec a child
 * may only make async-signal-safe calls: everything it needs (argv, envp,
 * descriptors, cpu set) is prepared here in the parent first.
 */
#include "oshrun.h"

#include "core/ush_hang.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* What one child needs between fork and exec. */
typedef struct {
    const char *path;
    char      **argv;
    char      **envp;
    int         stdin_fd;   /* -1: inherit oshrun's */
    int         out_w, err_w;
    int         report_w;   /* write end of the exec-failure pipe */
    pid_t       pgid;       /* 0: lead a new group */
    pid_t       launcher;   /* oshrun's pid */
    cpu_set_t  *cpuset;     /* NULL: no binding */
    const char *wdir;       /* --wdir, or NULL */
} ush_run_child_t;

static void ush_run_child_report(int fd, int err)
{
    ssize_t rc;
    do {
        rc = write(fd, &err, sizeof(err));
    } while (rc < 0 && errno == EINTR);
    _exit(err == ENOENT ? USH_RUN_EXIT_NOTFOUND : USH_RUN_EXIT_NOEXEC);
}

/* In the child: async-signal-safe calls only. */
static void __attribute__((noreturn)) ush_run_child_exec(const ush_run_child_t *c)
{
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigset_t         none;

    /* End with oshrun, however it ends (SIGKILL included). SIGKILL, since
     * nothing could read the PE's output any more, and a PE that blocks or
     * ignores SIGTERM, or never talks PMIx, must go too. Armed here, so
     * check that oshrun did not die before it was. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != c->launcher) {
        _exit(USH_RUN_EXIT_FAILURE);
    }
    /* the launcher's own group would get terminal signals meant for it */
    if (setpgid(0, c->pgid) != 0) {
        ush_run_child_report(c->report_w, errno);
    }
    if ((c->stdin_fd >= 0 && dup2(c->stdin_fd, STDIN_FILENO) < 0) ||
        dup2(c->out_w, STDOUT_FILENO) < 0 || dup2(c->err_w, STDERR_FILENO) < 0) {
        ush_run_child_report(c->report_w, errno);
    }
    /* Keep only 0-2 and the report pipe (moved to 3, close-on-exec): no
     * descriptor of the launcher, PMIx or another PE leaks into the PE. */
    if (c->report_w != 3) {
        if (dup2(c->report_w, 3) < 0) {
            _exit(USH_RUN_EXIT_NOEXEC);
        }
    }
    fcntl(3, F_SETFD, FD_CLOEXEC);
    if (close_range(4, ~0U, 0) != 0) {
        for (int fd = 4; fd < 65536; fd++) {
            close(fd);
        }
    }
    /* undo the launcher's signal setup: ignored and blocked signals would
     * otherwise stay so across exec */
    sigaction(SIGPIPE, &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (c->cpuset && sched_setaffinity(0, sizeof(cpu_set_t), c->cpuset) != 0) {
        ush_run_child_report(3, errno);
    }
    if (c->wdir && chdir(c->wdir) != 0) {
        ush_run_child_report(3, errno);
    }
    execve(c->path, c->argv, c->envp);
    ush_run_child_report(3, errno);
    _exit(USH_RUN_EXIT_NOEXEC);   /* not reached */
}

/* The environment every PE shares, before PMIx adds its per-PE part. */
static char **ush_run_base_env(const ush_run_opts_t *opts, const char *shmdir,
                               const char *state_path)
{
    char **env = ush_run_env_from_environ();

    if (env == NULL) {
        return NULL;
    }
    for (int i = 0; i < opts->nexports; i++) {
        const char *eq = strchr(opts->exports[i], '=');
        if (eq == NULL) {
            continue;   /* -x VAR: already inherited (or unset: nothing to pass) */
        }
        char name[256];
        size_t nlen = (size_t)(eq - opts->exports[i]);
        if (nlen >= sizeof(name)) {
            ush_run_msg("-x %s: variable name too long", opts->exports[i]);
            ush_run_env_free(env);
            return NULL;
        }
        memcpy(name, opts->exports[i], nlen);
        name[nlen] = '\0';
        if (ush_run_env_set(&env, name, eq + 1) != USH_RUN_OK) {
            ush_run_env_free(env);
            return NULL;
        }
    }
    if (ush_run_env_set(&env, "SHMEM_LAUNCHER", "oshrun") != USH_RUN_OK ||
        (shmdir && ush_run_env_set(&env, "UCX_POSIX_DIR", shmdir) != USH_RUN_OK) ||
        (state_path &&
         ush_run_env_set(&env, USH_HANG_STATE_FILE_ENV, state_path) != USH_RUN_OK)) {
        ush_run_env_free(env);
        return NULL;
    }
    return env;
}

/* mkdir -p of path (modified in place and restored). */
static int ush_run_mkdirs(char *path)
{
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            int rc = mkdir(path, 0755);
            *p = c;
            if (rc != 0 && errno != EEXIST) {
                return -1;
            }
            if (c == '\0') {
                return 0;
            }
        }
    }
}

/* --output-filename DIR: DIR/1/rank.N/stdout and stderr, the names Open
 * MPI's mpirun gives them (N zero-padded to the digits of the PE count; 1
 * is the job, always the first here). */
static int ush_run_output_files(const ush_run_job_t *job, int rank, int fds[2])
{
    static const char *const names[2] = { "stdout", "stderr" };
    char dir[PATH_MAX], file[PATH_MAX + 16];
    int  width = snprintf(NULL, 0, "%d", job->opts.npes);

    fds[0] = fds[1] = -1;
    errno  = 0;
    if (snprintf(dir, sizeof(dir), "%s/1/rank.%0*d", job->opts.output_dir, width, rank) >=
            (int)sizeof(dir) || ush_run_mkdirs(dir) != 0) {
        ush_run_msg("--output-filename: cannot create %s: %s", dir,
                    strerror(errno ? errno : ENAMETOOLONG));
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        snprintf(file, sizeof(file), "%s/%s", dir, names[k]);
        fds[k] = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fds[k] < 0) {
            ush_run_msg("--output-filename: cannot create %s: %s", file, strerror(errno));
            if (k == 1) {
                close(fds[0]);
                fds[0] = -1;
            }
            return -1;
        }
    }
    return 0;
}

/* Start PE rank. On success the PE runs and its relays are set up; on
 * failure *exit_code says what oshrun should exit with. */
static ush_run_status_t ush_run_spawn_one(ush_run_job_t *job, char **base_env, int rank,
                                          int devnull, int *exit_code)
{
    ush_run_pe_t    *pe  = &job->pes[rank];
    ush_run_status_t st  = USH_RUN_ERR_SYS;
    char           **env = ush_run_env_dup(base_env);
    int              outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2] = { -1, -1 };
    int              files[2] = { -1, -1 };   /* --output-filename */
    int              err = 0;
    ssize_t          got;
    pid_t            pid;

    *exit_code = USH_RUN_EXIT_FAILURE;
    if (env == NULL) {
        ush_run_msg("out of memory building the environment of PE %d", rank);
        return USH_RUN_ERR_NOMEM;
    }
    if (ush_run_server_setup_fork(job, rank, &env) != USH_RUN_OK) {
        st = USH_RUN_ERR_PMIX;
        goto out_env;
    }
    if (job->opts.output_dir && ush_run_output_files(job, rank, files) != 0) {
        goto out_env;
    }
    if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
        pipe2(rep, O_CLOEXEC) != 0) {
        ush_run_msg("pipe for PE %d: %s", rank, strerror(errno));
        goto out_pipes;
    }

    /* PE 0 gets oshrun's stdin unless that is a terminal: a PE outside the
     * terminal's foreground group would be stopped reading it. */
    ush_run_child_t c = {
        .path     = job->opts.prog_path,
        .argv     = job->opts.prog_argv,
        .envp     = env,
        .stdin_fd = (rank == 0 && !isatty(STDIN_FILENO)) ? -1 : devnull,
        .out_w    = outp[1],
        .err_w    = errp[1],
        .report_w = rep[1],
        .pgid     = job->pgid,
        .launcher = getpid(),
        .cpuset   = job->cpusets ? &job->cpusets[rank] : NULL,
        .wdir     = job->opts.wdir,
    };
    pid = fork();
    if (pid < 0) {
        ush_run_msg("fork for PE %d: %s", rank, strerror(errno));
        goto out_pipes;
    }
    if (pid == 0) {
        ush_run_child_exec(&c);
    }

    /* also from this side, so the group exists before we signal it */
    setpgid(pid, job->pgid ? job->pgid : pid);
    if (job->pgid == 0) {
        job->pgid = pid;
    }
    pe->pid   = pid;
    pe->alive = 1;
    job->nalive++;
    job->nspawned++;
    close(outp[1]);
    close(errp[1]);
    close(rep[1]);
    outp[1] = errp[1] = rep[1] = -1;
    ush_run_relay_init(&pe->out, outp[0], STDOUT_FILENO, files[0], rank, job->opts.tag_output);
    ush_run_relay_init(&pe->err, errp[0], STDERR_FILENO, files[1], rank, job->opts.tag_output);
    outp[0] = errp[0] = files[0] = files[1] = -1;

    /* EOF: exec succeeded. An int: the child's errno from a failed step. */
    do {
        got = read(rep[0], &err, sizeof(err));
    } while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof(err)) {
        ush_run_msg("%s: %s", job->opts.prog_argv[0], strerror(err));
        *exit_code = (err == ENOENT) ? USH_RUN_EXIT_NOTFOUND : USH_RUN_EXIT_NOEXEC;
        st = USH_RUN_ERR_NOPROG;   /* the child exits by itself; the loop reaps it */
        goto out_pipes;
    }
    st = USH_RUN_OK;

out_pipes:
    for (int i = 0; i < 2; i++) {
        if (outp[i] >= 0) close(outp[i]);
        if (errp[i] >= 0) close(errp[i]);
        if (rep[i] >= 0) close(rep[i]);
        if (files[i] >= 0) close(files[i]);
    }
out_env:
    ush_run_env_free(env);
    return st;
}

ush_run_status_t ush_run_spawn_all(ush_run_job_t *job)
{
    ush_run_status_t st = USH_RUN_OK;
    char           **base_env;
    int              devnull, code = USH_RUN_EXIT_FAILURE;

    for (int r = 0; r < job->opts.npes; r++) {
        job->pes[r].out.fd = job->pes[r].err.fd = -1;
    }
    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        ush_run_msg("/dev/null: %s", strerror(errno));
        ush_run_job_end(job, USH_RUN_EXIT_FAILURE, SIGTERM);
        return USH_RUN_ERR_SYS;
    }
    base_env = ush_run_base_env(&job->opts, job->shmdir, job->state_path);
    if (base_env == NULL) {
        ush_run_msg("cannot build the PEs' environment");
        close(devnull);
        ush_run_job_end(job, USH_RUN_EXIT_FAILURE, SIGTERM);
        return USH_RUN_ERR_NOMEM;
    }
    for (int r = 0; r < job->opts.npes; r++) {
        st = ush_run_spawn_one(job, base_env, r, devnull, &code);
        if (st != USH_RUN_OK) {
            /* the PEs already running would wait for the missing one forever */
            ush_run_job_end(job, code, SIGTERM);
            break;
        }
    }
    ush_run_env_free(base_env);
    close(devnull);
    return st;
}
