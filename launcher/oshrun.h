/*
 * oshrun: the one-node launcher. It is its own PMIx server, so a job needs
 * nothing but this program and libpmix. On a cluster it hands the job to
 * srun or mpirun instead (handoff.c) and becomes that program.
 *
 * Shared by the launcher's files: options.c (command line), path.c (finding
 * a program like the shell), handoff.c (srun / mpirun), quote.c (shell
 * quoting for --verbose), pmix_server.c
 * (PMIx server and the upcalls it hands to the main thread), spawn.c
 * (fork/exec of PEs), binding.c (hwloc binding plan and report), relay.c (stdout and
 * stderr of PEs), job.c (the event loop: reaping, signals, exit status),
 * tmpdir.c (the private directory PMIx puts its rendezvous files in),
 * reaper.c (the clean-up that outlives a killed oshrun) and env.c (child
 * environment arrays).
 */
#ifndef USH_OSHRUN_H
#define USH_OSHRUN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* cpu_set_t */
#endif
#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/* Exit statuses of oshrun itself (those of PEs pass through unchanged). */
#define USH_RUN_EXIT_FAILURE   1   /* launcher failure, PE left without finalize */
#define USH_RUN_EXIT_USAGE     2   /* bad command line */
#define USH_RUN_EXIT_TIMEOUT   124 /* --timeout expired (as timeout(1)) */
#define USH_RUN_EXIT_NOEXEC    126 /* program found but not executable */
#define USH_RUN_EXIT_NOTFOUND  127 /* program not found (as the shell) */

/* How long PEs get between SIGTERM and SIGKILL when the job is ended. */
#define USH_RUN_KILL_GRACE_S   0.5

/* What --profile exports: the one entry of exports that is neither a word
 * of argv nor malloc'd. */
extern const char ush_run_profile_export[];

typedef enum {
    USH_RUN_OK = 0,
    USH_RUN_ERR_USAGE,      /* bad option or value; message printed */
    USH_RUN_ERR_NOPROG,     /* program missing or not executable */
    USH_RUN_ERR_SYS,        /* a system call failed */
    USH_RUN_ERR_PMIX,       /* the PMIx server library failed */
    USH_RUN_ERR_NOMEM,
    USH_RUN_EXIT_EARLY      /* --help / --version done: exit 0 */
} ush_run_status_t;

/* --bind-to; DEFAULT lets the launcher decide (see binding.c). */
typedef enum {
    USH_RUN_BIND_DEFAULT = 0,
    USH_RUN_BIND_NONE,
    USH_RUN_BIND_CORE,
    USH_RUN_BIND_SOCKET
} ush_run_bind_t;

/* --launcher; AUTO applies the hand-off rules of handoff.c. */
typedef enum {
    USH_RUN_LAUNCHER_AUTO = 0,
    USH_RUN_LAUNCHER_EMBEDDED,
    USH_RUN_LAUNCHER_SRUN,
    USH_RUN_LAUNCHER_MPIRUN
} ush_run_launcher_t;

typedef struct {
    int     npes;
    int     npes_given;     /* -n / -np / -c was given */
    int     ppn;            /* -N / --npernode / -ppn; 0 = not given */
    const char *map_by;     /* --map-by (points into argv), or NULL */
    const char *wdir;       /* --wdir (points into argv), or NULL */
    const char *output_dir; /* --output-filename (points into argv), or NULL */
    int     oversubscribe;  /* --oversubscribe */
    int     allow_root;     /* --allow-run-as-root */
    int     tag_output;     /* prefix each line with "[PE n] " */
    ush_run_bind_t bind;    /* --bind-to */
    int     report_bindings;/* --report-bindings */
    int     verbose;        /* --verbose */
    ush_run_launcher_t launcher; /* --launcher */
    const char *hostfile;   /* --hostfile (points into argv), or NULL */
    const char *hosts;      /* --host / -H, or NULL */
    char  **mcas;           /* --mca KEY VALUE pairs, flat (points into argv) */
    int     nmcas;          /* number of pairs */
    double  timeout_s;      /* --timeout; 0 = none */
    char  **exports;        /* -x VAR[=VAL] as given (into argv), -genv's malloc'd,
                               --profile's ush_run_profile_export */
    int     nexports;
    char  **owned;          /* what exports holds that was malloc'd (-genv) */
    int     nowned;
    char   *prog_path;      /* the program, resolved through PATH (malloc'd) */
    char  **prog_argv;      /* the program's argv (points into main's argv) */
    int     prog_status;    /* exit status to use when prog_path is unusable */
} ush_run_opts_t;

/* One output stream of one PE, relayed a whole line at a time. A line is
 * held until its newline arrives, however long that takes; only a line
 * longer than USH_RUN_RELAY_LINE_MAX bytes is cut, into pieces of that size,
 * each ended with a newline (and tagged under --tag-output), so output of
 * different PEs never shares a line. The buffer grows to the bound as
 * needed: most PEs never hold more than a few short lines. */
#define USH_RUN_RELAY_LINE_MAX (64 * 1024)
typedef struct {
    int     fd;             /* read end of the PE's pipe; -1 once closed */
    int     out_fd;         /* where it goes: 1 or 2 */
    int     file_fd;        /* --output-filename copy, or -1 */
    int     rank;
    int     tag;
    size_t  len;            /* bytes held: an unterminated line */
    size_t  cap;
    char   *buf;
} ush_run_relay_t;

typedef struct {
    pid_t           pid;
    int             alive;
    int             connected;  /* called PMIx_Init */
    int             finalized;  /* called PMIx_Finalize */
    double          unfinalized_at; /* exited 0 before its finalize was seen: when; else 0 */
    ush_run_relay_t out;
    ush_run_relay_t err;
} ush_run_pe_t;

typedef struct {
    ush_run_opts_t  opts;
    ush_run_pe_t   *pes;        /* indexed by rank */
    int             nspawned;
    int             nalive;
    pid_t           pgid;       /* process group of all PEs: the reaper's */
    pid_t           reaper_pid; /* reaper.c's child, or 0 */
    int             reaper_fd;  /* oshrun's end of the reaper's pipe, or -1 */
    int             sigfd;      /* signalfd for SIGCHLD and forwarded signals */
    char            nspace[256];
    char            hostname[256];
    char           *tmpdir;     /* private; removed at exit */
    char           *shmdir;     /* UCX_POSIX_DIR of the PEs, or NULL; removed at exit */
    int             exit_code;  /* -1 until the first decisive event */
    int             ending;     /* PEs have been told to stop */
    double          kill_at;    /* when stragglers get SIGKILL; 0 = not set */
    double          last_finalize; /* when the server last reported a PMIx_Finalize */
    double          unfinalized_grace; /* ush_run_job_unfinalized's quiet time, s */
    double          deadline;   /* --timeout, absolute; 0 = none */
    cpu_set_t      *cpusets;    /* per PE when binding, else NULL */
    char           *state_path; /* hang.c's state file (in tmpdir), or NULL */
    const volatile struct ush_hang_rec *state; /* it, mapped: one record per rank */
} ush_run_job_t;

/* oshrun.c */
void ush_run_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double ush_run_now(void);

/* options.c: parse only; the program is resolved by ush_run_resolve_program
 * once the embedded launcher is chosen (srun and mpirun find it themselves,
 * possibly on another node). */
ush_run_status_t ush_run_parse_options(int argc, char **argv, ush_run_opts_t *opts);
ush_run_status_t ush_run_resolve_program(ush_run_opts_t *opts);
/* The embedded launcher's reading of options meant for several nodes
 * (notes on stderr for those it ignores), --wdir checked. */
ush_run_status_t ush_run_options_embedded(ush_run_opts_t *opts);
void             ush_run_options_free(ush_run_opts_t *opts);

/* path.c: NAME as the shell finds it (a name with a slash is a path, others
 * are searched in PATH). 0 and a malloc'd path, or an errno: ENOENT (not
 * there), EACCES (there but not executable), EISDIR, ENOMEM. */
int ush_run_path_find(const char *name, char **path_out);

/* quote.c: WORD in a form the shell reads back as exactly WORD (single
 * quotes where needed). malloc'd, NULL when out of memory. */
char *ush_run_shell_quote(const char *word);

/* handoff.c: which launcher runs the job, and the hand-off itself. */
ush_run_status_t ush_run_handoff_choose(ush_run_opts_t *opts);
int              ush_run_handoff_exec(const ush_run_opts_t *opts); /* exit status on failure */

/* env.c: NULL-terminated arrays of malloc'd "NAME=value" strings, the shape
 * PMIx_server_setup_fork extends. */
char           **ush_run_env_from_environ(void);
char           **ush_run_env_dup(char *const *env);
ush_run_status_t ush_run_env_set(char ***env, const char *name, const char *value);
void             ush_run_env_free(char **env);

/* tmpdir.c: the PMIx directory, and the UCX one (NULL when not made) */
ush_run_status_t ush_run_tmpdir_create(char **path_out);
void             ush_run_shmdir_create(char **path_out);
void             ush_run_tmpdir_remove(const char *path);

/* hang.c: the state file the PEs write where they wait (created before
 * any PE starts; without it the job runs, unreported), and the report of
 * what it says, to stderr. */
ush_run_status_t ush_run_hang_create(ush_run_job_t *job);
void             ush_run_hang_report(const ush_run_job_t *job, const char *why);
void             ush_run_hang_free(ush_run_job_t *job);

/* reaper.c: a child that removes the directories and ends the PEs when oshrun
 * dies without doing so (SIGKILL); it leads the PEs' process group (sets
 * job->pgid). Start it after the directories, before the PMIx server's
 * threads; call _done once they are removed, on every way out. */
ush_run_status_t ush_run_reaper_start(ush_run_job_t *job);
void             ush_run_reaper_done(ush_run_job_t *job);

/* pmix_server.c */
/* What a PE told the PMIx server, for the job loop. */
typedef enum {
    USH_RUN_EV_CONNECTED,
    USH_RUN_EV_FINALIZED,
    USH_RUN_EV_ABORT
} ush_run_ev_kind_t;

typedef struct ush_run_ev ush_run_ev_t;
struct ush_run_ev {
    ush_run_ev_kind_t kind;
    int               rank;     /* who called */
    int               status;   /* abort status */
    char             *msg;      /* abort message, or NULL */
    ush_run_ev_t     *next;
};

ush_run_status_t ush_run_server_init(ush_run_job_t *job);
ush_run_status_t ush_run_server_register_job(ush_run_job_t *job);
ush_run_status_t ush_run_server_setup_fork(ush_run_job_t *job, int rank, char ***env);
int              ush_run_server_wake_fd(void);
ush_run_ev_t    *ush_run_server_take_events(void);
void             ush_run_server_ev_free(ush_run_ev_t *ev);
int              ush_run_server_can_finalize(const ush_run_job_t *job);
void             ush_run_server_finalize(ush_run_job_t *job);

/* binding.c: the cpu set of each PE (NULL when not binding), decided with
 * hwloc in the parent; prints --verbose and --report-bindings lines. */
ush_run_status_t ush_run_binding_plan(const ush_run_opts_t *opts, cpu_set_t **sets_out);

/* spawn.c */
ush_run_status_t ush_run_spawn_all(ush_run_job_t *job);

/* relay.c */
void   ush_run_relay_init(ush_run_relay_t *r, int fd, int out_fd, int file_fd, int rank,
                          int tag);
void   ush_run_relay_read(ush_run_relay_t *r);
void   ush_run_relay_close(ush_run_relay_t *r);

/* fold.c: a shmem_init failure line ("ushmem: PE n: shmem_init: ...")
 * that another PE printed already, word for word but for its number, is
 * counted instead of shown (1: drop it); the report at the job's end says
 * how many PEs printed each. */
int  ush_run_fold_line(int rank, const char *line, size_t n);
void ush_run_fold_report(void);

/* job.c */
ush_run_status_t ush_run_job_signals_block(ush_run_job_t *job);
int              ush_run_job_loop(ush_run_job_t *job);
void             ush_run_job_end(ush_run_job_t *job, int code, int sig);

#endif
