/*
 * Hand-off to a cluster launcher. The embedded launcher knows one node;
 * inside a Slurm allocation srun knows the allocation, and with --host or
 * --hostfile Open MPI's mpirun knows how to reach other nodes. Both are
 * PMIx servers our PEs can talk to, so oshrun only translates its options
 * and becomes that program with exec: its signals, output handling and exit
 * status are then the job's, with nothing of ours in between.
 *
 * The command is an argv built word by word, never a shell string, so the
 * program's arguments arrive exactly as given.
 */
#include "oshrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

typedef struct {
    const char *name;   /* "srun" */
    const char *env;    /* the variable that overrides it: "USHMEM_SRUN" */
} ush_run_tool_t;

static const ush_run_tool_t ush_run_srun   = { "srun", "USHMEM_SRUN" };
static const ush_run_tool_t ush_run_mpirun = { "mpirun", "USHMEM_MPIRUN" };

static const char *ush_run_slurm_job(void)
{
    const char *id = getenv("SLURM_JOB_ID");
    if (id == NULL || *id == '\0') {
        id = getenv("SLURM_JOBID");     /* older Slurm */
    }
    return (id != NULL && *id != '\0') ? id : NULL;
}

/* The tool's path, or an errno (see ush_run_path_find). */
static int ush_run_tool_find(const ush_run_tool_t *tool, char **path_out)
{
    const char *name = getenv(tool->env);
    return ush_run_path_find((name != NULL && *name != '\0') ? name : tool->name, path_out);
}

/* One line that says why the tool cannot be used and how to fix that. */
static void ush_run_tool_missing(const ush_run_tool_t *tool, int err, const char *why)
{
    const char *name = getenv(tool->env);

    if (name != NULL && *name != '\0') {
        ush_run_msg("%s: %s=%s: %s", why, tool->env, name, strerror(err));
    } else if (err == ENOENT) {
        ush_run_msg("%s: '%s' not found on PATH; install it, put it on PATH or set %s "
                    "to its path", why, tool->name, tool->env);
    } else {
        ush_run_msg("%s: '%s' on PATH: %s (set %s to a usable one)", why, tool->name,
                    strerror(err), tool->env);
    }
}

static const char *ush_run_launcher_name(ush_run_launcher_t l)
{
    switch (l) {
    case USH_RUN_LAUNCHER_SRUN:   return "srun";
    case USH_RUN_LAUNCHER_MPIRUN: return "mpirun";
    default:                      return "embedded";
    }
}

ush_run_status_t ush_run_handoff_choose(ush_run_opts_t *opts)
{
    const char *job   = ush_run_slurm_job();
    int         hosts = opts->hosts != NULL || opts->hostfile != NULL;
    char        why[256];

    switch (opts->launcher) {
    case USH_RUN_LAUNCHER_AUTO:
        if (hosts) {
            opts->launcher = USH_RUN_LAUNCHER_MPIRUN;
            snprintf(why, sizeof(why), "%s given", opts->hostfile ? "--hostfile" : "--host");
        } else if (job != NULL) {
            char *path = NULL;
            int   err  = ush_run_tool_find(&ush_run_srun, &path);
            free(path);
            if (err == 0) {
                opts->launcher = USH_RUN_LAUNCHER_SRUN;
                snprintf(why, sizeof(why), "inside Slurm job %s", job);
            } else if (getenv(ush_run_srun.env) != NULL) {
                /* asked for a particular srun: do not quietly run elsewhere */
                ush_run_tool_missing(&ush_run_srun, err, "inside a Slurm allocation");
                opts->prog_status = USH_RUN_EXIT_NOTFOUND;
                return USH_RUN_ERR_NOPROG;
            } else {
                opts->launcher = USH_RUN_LAUNCHER_EMBEDDED;
                snprintf(why, sizeof(why), "inside Slurm job %s, but no srun on PATH: "
                         "PEs run on this node only", job);
            }
        } else {
            opts->launcher = USH_RUN_LAUNCHER_EMBEDDED;
            snprintf(why, sizeof(why), "no Slurm allocation, no --host or --hostfile");
        }
        break;
    default:
        snprintf(why, sizeof(why), "--launcher %s", ush_run_launcher_name(opts->launcher));
        break;
    }

    if (hosts && opts->launcher != USH_RUN_LAUNCHER_MPIRUN) {
        ush_run_msg("--host and --hostfile need mpirun, not the %s launcher "
                    "(drop --launcher or give --launcher mpirun)",
                    ush_run_launcher_name(opts->launcher));
        return USH_RUN_ERR_USAGE;
    }
    if (opts->launcher != USH_RUN_LAUNCHER_EMBEDDED && opts->timeout_s > 0) {
        ush_run_msg("--timeout works with the embedded launcher only; with %s use "
                    "timeout(1) around oshrun%s", ush_run_launcher_name(opts->launcher),
                    opts->launcher == USH_RUN_LAUNCHER_SRUN ? " or srun's --time" : "");
        return USH_RUN_ERR_USAGE;
    }
    if (opts->nmcas > 0 && opts->launcher != USH_RUN_LAUNCHER_MPIRUN) {
        ush_run_msg("warning: --mca is for mpirun; ignored by the %s launcher",
                    ush_run_launcher_name(opts->launcher));
    }
    if (opts->launcher == USH_RUN_LAUNCHER_SRUN && opts->map_by != NULL) {
        ush_run_msg("note: --map-by %s ignored by srun (use srun's --distribution)",
                    opts->map_by);
    }
    if (opts->launcher == USH_RUN_LAUNCHER_SRUN && opts->output_dir != NULL) {
        ush_run_msg("note: --output-filename ignored by srun (use srun's --output and "
                    "--error with %%t)");
    }
    if (opts->verbose) {
        ush_run_msg("launcher: %s (%s)", ush_run_launcher_name(opts->launcher), why);
    }
    return USH_RUN_OK;
}

/* A growing NULL-terminated argv; on allocation failure it remembers and
 * drops further words, checked once at the end. */
typedef struct {
    char **v;
    int    n, cap, failed;
} ush_run_argv_t;

static void ush_run_argv_add(ush_run_argv_t *a, const char *word)
{
    if (a->failed) {
        return;
    }
    if (a->n + 2 > a->cap) {
        int    cap = a->cap ? 2 * a->cap : 32;
        char **v   = realloc(a->v, (size_t)cap * sizeof(char *));
        if (v == NULL) {
            a->failed = 1;
            return;
        }
        a->v   = v;
        a->cap = cap;
    }
    a->v[a->n++] = (char *)word;
    a->v[a->n]   = NULL;
}

static int ush_run_has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* -x NAME given on oshrun's command line already carries NAME. */
static int ush_run_exported(const ush_run_opts_t *opts, const char *name, size_t len)
{
    for (int i = 0; i < opts->nexports; i++) {
        if (strncmp(opts->exports[i], name, len) == 0 &&
            (opts->exports[i][len] == '\0' || opts->exports[i][len] == '=')) {
            return 1;
        }
    }
    return 0;
}

/* srun --mpi=pmix [-n N] [--ntasks-per-node=P] [--overcommit] [--chdir D]
 * [--cpu-bind=...] [--label] program args...
 * srun passes the whole environment on by default, so -x VAR=VALUE is set
 * here; the assignments go to *assign for --verbose. */
static void ush_run_build_srun(const ush_run_opts_t *opts, const char *path, char *npes,
                               ush_run_argv_t *a, ush_run_argv_t *assign, char *bind,
                               size_t bind_len, char *ppn, size_t ppn_len)
{
    static const char *const kinds[] = {
        [USH_RUN_BIND_DEFAULT] = NULL,   [USH_RUN_BIND_NONE] = "none",
        [USH_RUN_BIND_CORE]    = "cores", [USH_RUN_BIND_SOCKET] = "sockets"
    };

    ush_run_argv_add(a, path);
    ush_run_argv_add(a, "--mpi=pmix");
    if (opts->npes_given || opts->ppn == 0) {
        ush_run_argv_add(a, "-n");
        ush_run_argv_add(a, npes);
    }
    if (opts->ppn > 0) {
        snprintf(ppn, ppn_len, "--ntasks-per-node=%d", opts->ppn);
        ush_run_argv_add(a, ppn);
    }
    if (opts->oversubscribe) {
        ush_run_argv_add(a, "--overcommit");
    }
    if (opts->wdir) {
        ush_run_argv_add(a, "--chdir");
        ush_run_argv_add(a, opts->wdir);
    }
    if (kinds[opts->bind] != NULL || opts->report_bindings) {
        snprintf(bind, bind_len, "--cpu-bind=%s%s%s", opts->report_bindings ? "verbose" : "",
                 opts->report_bindings && kinds[opts->bind] ? "," : "",
                 kinds[opts->bind] ? kinds[opts->bind] : "");
        ush_run_argv_add(a, bind);
    }
    if (opts->tag_output) {
        ush_run_argv_add(a, "--label");
    }
    for (int i = 0; i < opts->nexports; i++) {
        const char *eq = strchr(opts->exports[i], '=');
        if (eq != NULL) {
            ush_run_argv_add(assign, opts->exports[i]);
        }
    }
}

/* Whether the user set MCA parameter name, with --mca or in the environment. */
static int ush_run_mca_given(const ush_run_opts_t *opts, const char *name)
{
    char env[128];
    for (int i = 0; i < opts->nmcas; i++) {
        if (!strcmp(opts->mcas[2 * i], name)) return 1;
    }
    snprintf(env, sizeof(env), "OMPI_MCA_%s", name);
    return getenv(env) != NULL;
}

/* mpirun [--allow-run-as-root] --oversubscribe [--mca odls_base_sigkill_timeout 0]
 * [-np N] [--npernode P] [--hostfile F] [--host H] [--map-by M] [--bind-to B]
 * [--report-bindings] [--wdir D] [--output-filename D] [--tag-output]
 * [--mca K V]... [-x VAR]...
 * program args... mpirun does not carry the environment to other nodes, so
 * every -x and every SHMEM_*, UCX_* and OMPI_MCA_* variable set here is
 * named (PEs may outnumber the slots mpirun sees: --oversubscribe). */
static void ush_run_build_mpirun(const ush_run_opts_t *opts, const char *path, char *npes,
                                 char *ppn, ush_run_argv_t *a, char **names)
{
    static const char *const kinds[] = {
        [USH_RUN_BIND_DEFAULT] = NULL,  [USH_RUN_BIND_NONE] = "none",
        [USH_RUN_BIND_CORE]    = "core", [USH_RUN_BIND_SOCKET] = "socket"
    };
    int nnames = 0;

    ush_run_argv_add(a, path);
    if (geteuid() == 0 || opts->allow_root) {
        ush_run_argv_add(a, "--allow-run-as-root");
    }
    ush_run_argv_add(a, "--oversubscribe");
    if (!ush_run_mca_given(opts, "odls_base_sigkill_timeout")) {
        /* Open MPI waits this long (1 s) after its SIGTERM before ending a
         * failed job, even when every PE is already gone: 0 ends it at once,
         * so a dying PE ends the job within a second. */
        ush_run_argv_add(a, "--mca");
        ush_run_argv_add(a, "odls_base_sigkill_timeout");
        ush_run_argv_add(a, "0");
    }
    if (opts->npes_given || opts->ppn == 0) {
        ush_run_argv_add(a, "-np");
        ush_run_argv_add(a, npes);
    }
    if (opts->ppn > 0) {
        ush_run_argv_add(a, "--npernode");
        ush_run_argv_add(a, ppn);
    }
    if (opts->hostfile) {
        ush_run_argv_add(a, "--hostfile");
        ush_run_argv_add(a, opts->hostfile);
    }
    if (opts->hosts) {
        ush_run_argv_add(a, "--host");
        ush_run_argv_add(a, opts->hosts);
    }
    if (opts->map_by) {
        ush_run_argv_add(a, "--map-by");
        ush_run_argv_add(a, opts->map_by);
    }
    if (kinds[opts->bind] != NULL) {
        ush_run_argv_add(a, "--bind-to");
        ush_run_argv_add(a, kinds[opts->bind]);
    }
    if (opts->report_bindings) {
        ush_run_argv_add(a, "--report-bindings");
    }
    if (opts->wdir) {
        ush_run_argv_add(a, "--wdir");
        ush_run_argv_add(a, opts->wdir);
    }
    if (opts->output_dir) {
        ush_run_argv_add(a, "--output-filename");
        ush_run_argv_add(a, opts->output_dir);
    }
    if (opts->tag_output) {
        ush_run_argv_add(a, "--tag-output");
    }
    for (int i = 0; i < opts->nmcas; i++) {
        ush_run_argv_add(a, "--mca");
        ush_run_argv_add(a, opts->mcas[2 * i]);
        ush_run_argv_add(a, opts->mcas[2 * i + 1]);
    }
    for (int i = 0; i < opts->nexports; i++) {
        ush_run_argv_add(a, "-x");
        ush_run_argv_add(a, opts->exports[i]);
    }
    for (char **e = environ; *e != NULL; e++) {
        size_t len = strcspn(*e, "=");
        if (!(ush_run_has_prefix(*e, "SHMEM_") || ush_run_has_prefix(*e, "UCX_") ||
              ush_run_has_prefix(*e, "OMPI_MCA_")) || ush_run_exported(opts, *e, len)) {
            continue;
        }
        if ((names[nnames] = strndup(*e, len)) == NULL) {
            a->failed = 1;
            return;
        }
        ush_run_argv_add(a, "-x");
        ush_run_argv_add(a, names[nnames++]);
    }
}

/* --verbose: "oshrun: running: [VAR=VALUE...] COMMAND...", every word
 * quoted for the shell, in one write so it does not tear. */
static void ush_run_print_command(const ush_run_argv_t *assign, const ush_run_argv_t *a)
{
    char  *line = NULL;
    size_t len  = 0;
    FILE  *f    = open_memstream(&line, &len);

    if (f == NULL) {
        return;
    }
    fputs("oshrun: running:", f);
    for (int i = 0; i < assign->n; i++) {
        const char *eq = strchr(assign->v[i], '=');
        char       *q  = ush_run_shell_quote(eq + 1);
        fprintf(f, " %.*s=%s", (int)(eq - assign->v[i]), assign->v[i], q ? q : "?");
        free(q);
    }
    for (int i = 0; i < a->n; i++) {
        char *q = ush_run_shell_quote(a->v[i]);
        fprintf(f, " %s", q ? q : "?");
        free(q);
    }
    fputc('\n', f);
    if (fclose(f) == 0) {
        for (size_t off = 0; off < len; ) {
            ssize_t rc = write(STDERR_FILENO, line + off, len - off);
            if (rc < 0 && errno == EINTR) {
                continue;
            }
            if (rc <= 0) {
                break;
            }
            off += (size_t)rc;
        }
    }
    free(line);
}

int ush_run_handoff_exec(const ush_run_opts_t *opts)
{
    int                   srun = opts->launcher == USH_RUN_LAUNCHER_SRUN;
    const ush_run_tool_t *tool = srun ? &ush_run_srun : &ush_run_mpirun;
    ush_run_argv_t        a = { 0 }, assign = { 0 };
    char                 *path = NULL, **names = NULL;
    char                  npes[16], ppn[32], bind[64], why[64];
    int                   code = USH_RUN_EXIT_NOTFOUND, err;

    snprintf(why, sizeof(why), "cannot hand the job to %s", tool->name);
    if ((err = ush_run_tool_find(tool, &path)) != 0) {
        ush_run_tool_missing(tool, err, why);
        return USH_RUN_EXIT_NOTFOUND;
    }
    snprintf(npes, sizeof(npes), "%d", opts->npes);
    if (srun) {
        ush_run_build_srun(opts, path, npes, &a, &assign, bind, sizeof(bind), ppn, sizeof(ppn));
    } else {
        size_t nenv = 0;
        while (environ[nenv] != NULL) {
            nenv++;
        }
        names = calloc(nenv + 1, sizeof(char *));
        if (names == NULL) {
            a.failed = 1;
        } else {
            snprintf(ppn, sizeof(ppn), "%d", opts->ppn);
            ush_run_build_mpirun(opts, path, npes, ppn, &a, names);
        }
    }
    for (char **p = opts->prog_argv; *p != NULL; p++) {
        ush_run_argv_add(&a, *p);
    }
    if (a.failed || assign.failed) {
        ush_run_msg("%s: out of memory building the %s command", why, tool->name);
        code = USH_RUN_EXIT_FAILURE;
        goto out;
    }
    for (int i = 0; i < assign.n; i++) {
        if (putenv(assign.v[i]) != 0) {   /* points into argv: stays valid */
            ush_run_msg("%s: setting %s: %s", why, assign.v[i], strerror(errno));
            code = USH_RUN_EXIT_FAILURE;
            goto out;
        }
    }
    if (opts->verbose) {
        ush_run_print_command(&assign, &a);
    }
    execv(path, a.v);
    err = errno;
    ush_run_msg("%s: %s: %s", why, path, strerror(err));
    code = USH_RUN_EXIT_NOTFOUND;

out:
    if (names != NULL) {
        for (int i = 0; names[i] != NULL; i++) {
            free(names[i]);
        }
        free(names);
    }
    free(a.v);
    free(assign.v);
    free(path);
    return code;
}
