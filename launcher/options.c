/*
 * oshrun's command line: options, usage text, and checking the program
 * (found through path.c) for the embedded launcher.
 * Options end at the first word that is not one (or at "--"); the rest is
 * the program and its arguments, untouched.
 */
#include "oshrun.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char ush_run_profile_export[] = "SHMEM_PROFILE=1";

#ifndef USH_VERSION_STRING
#define USH_VERSION_STRING "unknown"
#endif

/* A PE's local rank travels as a uint16 in PMIx. */
#define USH_RUN_MAX_PES 65535

static void ush_run_usage(FILE *out)
{
    fprintf(out,
"Usage: oshrun [options] [--] program [arguments...]\n"
"\n"

"Start an OpenSHMEM program as N processing elements (PEs). On one node\n"
"oshrun is its own PMIx server: nothing else needs to be running. Inside a\n"
"Slurm allocation it hands the job to 'srun --mpi=pmix'; given --host or\n"
"--hostfile it hands it to Open MPI's 'mpirun' (see --launcher). A program\n"
"name without a slash is looked up in PATH, then, as mpirun does, in the\n"
"current directory.\n"
"\n"
"Options:\n"
"  -n, -np, --np, -c N   number of PEs to start (default 1, or -N's)\n"
"  -N, --npernode, -ppn N\n"
"                        PEs per node: srun --ntasks-per-node, mpirun\n"
"                        --npernode; on one node, the number of PEs when\n"
"                        -n is not given (ignored, with a note, when it is)\n"
"  --tag-output          prefix every output line with \"[PE n] \"\n"
"                        (srun --label, mpirun --tag-output)\n"
"  --output-filename DIR also write PE r's output to DIR/1/rank.r/stdout\n"
"                        and stderr (r zero-padded, as Open MPI names them)\n"
"  --wdir DIR            start the PEs in DIR (-wdir, -wd; srun --chdir)\n"
"  -x VAR[=VALUE]        set VAR to VALUE in the PEs' environment, or pass\n"
"                        VAR on as it is here (needed for mpirun on other\n"
"                        nodes; SHMEM_*, UCX_* and OMPI_MCA_* go anyway)\n"
"  -genv VAR VALUE       the same as -x VAR=VALUE (MPICH, Intel MPI)\n"
"  --bind-to core|socket|none\n"
"                        bind PE i to core i, or to socket i mod sockets,\n"
"                        or do not bind; default: core when the PEs fit on\n"
"                        this machine's cores, none otherwise (srun and\n"
"                        mpirun keep their own default)\n"
"  --report-bindings     print each PE's binding on stderr before it starts\n"
"  --profile             profile the job (SHMEM_PROFILE=1): PE 0 writes\n"
"                        ushmem-profile.txt and its plots at the end\n"
"  --launcher auto|embedded|srun|mpirun\n"
"                        who starts the PEs (default auto: srun inside a\n"
"                        Slurm allocation, mpirun with --host/--hostfile,\n"
"                        embedded otherwise)\n"
"  --host, -H H[,H...]   nodes for mpirun (H or H:SLOTS)\n"
"  --hostfile FILE       hostfile for mpirun\n"
"  --mca KEY VALUE       Open MPI parameter, passed to mpirun\n"
"  --map-by MAPPING      passed to mpirun; ignored, with a note, elsewhere\n"
"  --oversubscribe       accepted: oshrun runs any number of PEs on a node\n"
"                        (mpirun always gets it, srun --overcommit)\n"
"  --allow-run-as-root   accepted: oshrun runs as root anyway (passed to\n"
"                        mpirun, which gets it anyway when run as root)\n"
"  --verbose, -v         say which launcher and binding were chosen, and\n"
"                        print the srun/mpirun command line (shell-quoted)\n"
"  --timeout SECONDS     end the job if it runs longer (exit status 124;\n"
"                        embedded launcher only), with a hang report: which\n"
"                        PEs wait in what, for which PE\n"
"  -h, --help            print this help\n"
"  -V, --version         print the version\n"
"\n"
"Behaviour (embedded launcher; srun and mpirun have their own):\n"
"  Standard output and error of the PEs pass through whole lines at a time,\n"
"  so lines of different PEs never mix: a line is held until its newline (a\n"
"  prompt without one shows when its line ends or the PE exits), a line\n"
"  longer than 64 KiB is cut into lines of 64 KiB, and an unterminated last\n"
"  line is ended with a newline. Standard input goes to PE 0 when it is not\n"
"  a terminal; other PEs read /dev/null.\n"
"  SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to all PEs (a second one\n"
"  kills them); SIGUSR1 and SIGUSR2 are forwarded. SIGURG prints the hang\n"
"  report and the job goes on.\n"
"  When a PE dies of a signal, exits non-zero, calls shmem_global_exit or\n"
"  aborts, or exits without shmem_finalize, the other PEs are ended (SIGTERM,\n"
"  then SIGKILL %.1f s later). A PE that exits 0 before the PMIx server has\n"
"  taken in its finalize is judged once no PE's finalize has come in for 1 s\n"
"  (1 s per 64 PEs per hardware thread, when there are more).\n"
"\n"
"Exit status:\n"
"  0 if every PE exited 0; otherwise the first decisive event gives it: a PE's\n"
"  non-zero exit status, 128+S for a PE killed by signal S (or for oshrun\n"
"  receiving S), the status given to shmem_global_exit / PMIx_Abort, 1 for a\n"
"  PE that exited without finalizing, 124 for --timeout, 2 for a bad command\n"
"  line, 126 or 127 for a program that cannot be run or found.\n"
"  After a hand-off, oshrun becomes srun or mpirun (exec): their exit status\n"
"  and signals are the job's; 127 if they cannot be found or run.\n"
"\n"
"Environment given to each PE (embedded launcher only): PMIx contact\n"
"variables (PMIX_*), SHMEM_LAUNCHER=oshrun, and UCX_POSIX_DIR=a private\n"
"directory in /dev/shm, removed with the job (unless UCX_POSIX_DIR is set).\n"
"Environment read: USHMEM_SRUN, USHMEM_MPIRUN (path or name of srun and\n"
"mpirun), SLURM_JOB_ID (inside an allocation).\n",
            USH_RUN_KILL_GRACE_S);
}

/* Strict non-negative integer, the whole string. */
static int ush_run_parse_int(const char *s, long max, long *out)
{
    char *end;
    long  v;

    if (s == NULL || *s == '\0' || *s == '-' || *s == '+') {
        return -1;
    }
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max) {
        return -1;
    }
    *out = v;
    return 0;
}

/* A name without a slash that is not on PATH but is an executable in the
 * current directory runs, as mpirun runs it (a shell would not). */
static int ush_run_resolve_cwd(ush_run_opts_t *opts, const char *name)
{
    char here[PATH_MAX];

    if (snprintf(here, sizeof(here), "./%s", name) >= (int)sizeof(here)) {
        return -1;
    }
    return ush_run_path_find(here, &opts->prog_path) == 0 ? 0 : -1;
}

/* The embedded launcher's program, checked here before any PE starts. */
ush_run_status_t ush_run_resolve_program(ush_run_opts_t *opts)
{
    const char *name = opts->prog_argv[0];
    int         err  = ush_run_path_find(name, &opts->prog_path);

    switch (err) {
    case 0:
        return USH_RUN_OK;
    case ENOMEM:
        return USH_RUN_ERR_NOMEM;
    case ENOENT:
        if (strchr(name, '/') == NULL && ush_run_resolve_cwd(opts, name) == 0) {
            return USH_RUN_OK;
        }
        if (strchr(name, '/') == NULL) {
            ush_run_msg("%s: command not found", name);
        } else {
            ush_run_msg("%s: %s", name, strerror(err));
        }
        opts->prog_status = USH_RUN_EXIT_NOTFOUND;
        return USH_RUN_ERR_NOPROG;
    default:
        ush_run_msg("%s: %s", name, strerror(err));
        opts->prog_status = USH_RUN_EXIT_NOEXEC;
        return USH_RUN_ERR_NOPROG;
    }
}

/* A name the shell accepts in VAR=VALUE, so --verbose can print -x
 * settings as assignments (and srun / mpirun accept them too). */
static int ush_run_env_name_ok(const char *s, size_t len)
{
    if (len == 0 || (s[0] >= '0' && s[0] <= '9')) {
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                    "0123456789_", s[i])) {
            return 0;
        }
    }
    return 1;
}

/* "--opt VALUE" or "--opt=VALUE": the value, advancing *i past it. */
static const char *ush_run_opt_value(int argc, char **argv, int *i, const char *opt)
{
    const char *arg = argv[*i];
    size_t      len = strlen(opt);

    if (arg[len] == '=') {
        return arg + len + 1;
    }
    if (*i + 1 >= argc) {
        ush_run_msg("option %s needs a value (see oshrun --help)", opt);
        return NULL;
    }
    return argv[++*i];
}

/* arg is opt, or opt followed by "=". */
static int ush_run_opt_is(const char *arg, const char *opt)
{
    size_t len = strlen(opt);
    return strncmp(arg, opt, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

/* The option's name without "=VALUE", for messages (points into a static). */
static const char *ush_run_opt_name(const char *arg)
{
    static char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
    return name;
}

/* A count of PEs (1 .. USH_RUN_MAX_PES) for option opt, or a message. */
static int ush_run_parse_count(const char *val, const char *opt, int *out)
{
    long v;

    if (ush_run_parse_int(val, USH_RUN_MAX_PES, &v) != 0 || v < 1) {
        ush_run_msg("bad number of PEs '%s' for %s: give an integer from 1 to %d",
                    val, opt, USH_RUN_MAX_PES);
        return -1;
    }
    *out = (int)v;
    return 0;
}

ush_run_status_t ush_run_parse_options(int argc, char **argv, ush_run_opts_t *opts)
{
    int i;

    memset(opts, 0, sizeof(*opts));
    opts->npes        = 1;
    opts->prog_status = USH_RUN_EXIT_FAILURE;
    opts->exports     = calloc((size_t)argc + 1, sizeof(char *));
    opts->owned       = calloc((size_t)argc + 1, sizeof(char *));
    opts->mcas        = calloc((size_t)argc + 1, sizeof(char *));
    if (opts->exports == NULL || opts->owned == NULL || opts->mcas == NULL) {
        return USH_RUN_ERR_NOMEM;
    }

    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;

        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0') {
            break;                              /* the program */
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            ush_run_usage(stdout);
            return USH_RUN_EXIT_EARLY;
        }
        if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
            printf("oshrun (ushmem) %s\n", USH_VERSION_STRING);
            return USH_RUN_EXIT_EARLY;
        }
        if (ush_run_opt_is(arg, "-np") || ush_run_opt_is(arg, "--np") ||
            ush_run_opt_is(arg, "-n") || ush_run_opt_is(arg, "--n")) {
            const char *opt = arg[1] == '-' ? (arg[3] == 'p' ? "--np" : "--n") :
                              (arg[2] == 'p' ? "-np" : "-n");
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (ush_run_parse_count(val, opt, &opts->npes) != 0) {
                return USH_RUN_ERR_USAGE;
            }
            opts->npes_given = 1;
        } else if (strncmp(arg, "-n", 2) == 0 && arg[2] >= '0' && arg[2] <= '9') {
            /* -n4 */
            if (ush_run_parse_count(arg + 2, "-n", &opts->npes) != 0) {
                return USH_RUN_ERR_USAGE;
            }
            opts->npes_given = 1;
        } else if (ush_run_opt_is(arg, "-c")) {
            /* Open MPI's other name for -np */
            if ((val = ush_run_opt_value(argc, argv, &i, "-c")) == NULL ||
                ush_run_parse_count(val, "-c", &opts->npes) != 0) {
                return USH_RUN_ERR_USAGE;
            }
            opts->npes_given = 1;
        } else if (ush_run_opt_is(arg, "-N") || ush_run_opt_is(arg, "--npernode") ||
                   ush_run_opt_is(arg, "-npernode") || ush_run_opt_is(arg, "-ppn")) {
            /* PEs per node: Open MPI's -N / --npernode, MPICH's -ppn */
            const char *opt = ush_run_opt_name(arg);
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL ||
                ush_run_parse_count(val, opt, &opts->ppn) != 0) {
                return USH_RUN_ERR_USAGE;
            }
        } else if (ush_run_opt_is(arg, "--map-by") || ush_run_opt_is(arg, "-map-by")) {
            const char *opt = ush_run_opt_name(arg);
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (*val == '\0') {
                ush_run_msg("%s needs a mapping (slot, core, socket, node, ppr:N:RESOURCE, ...)",
                            opt);
                return USH_RUN_ERR_USAGE;
            }
            opts->map_by = val;
        } else if (ush_run_opt_is(arg, "--wdir") || ush_run_opt_is(arg, "-wdir") ||
                   ush_run_opt_is(arg, "-wd")) {
            const char *opt = ush_run_opt_name(arg);
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (*val == '\0') {
                ush_run_msg("%s needs a directory", opt);
                return USH_RUN_ERR_USAGE;
            }
            opts->wdir = val;
        } else if (ush_run_opt_is(arg, "--output-filename") ||
                   ush_run_opt_is(arg, "-output-filename")) {
            const char *opt = ush_run_opt_name(arg);
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (*val == '\0') {
                ush_run_msg("%s needs a directory name", opt);
                return USH_RUN_ERR_USAGE;
            }
            opts->output_dir = val;
        } else if (strcmp(arg, "--oversubscribe") == 0 || strcmp(arg, "-oversubscribe") == 0) {
            opts->oversubscribe = 1;
        } else if (strcmp(arg, "--allow-run-as-root") == 0 ||
                   strcmp(arg, "-allow-run-as-root") == 0) {
            opts->allow_root = 1;
        } else if (strcmp(arg, "-genv") == 0) {
            /* MPICH / Intel MPI: -genv VAR VALUE, two words */
            char *kv;
            if (i + 2 >= argc) {
                ush_run_msg("-genv needs a name and a value: -genv VAR VALUE");
                return USH_RUN_ERR_USAGE;
            }
            if (!ush_run_env_name_ok(argv[i + 1], strlen(argv[i + 1]))) {
                ush_run_msg("bad -genv name '%s': letters, digits and '_'", argv[i + 1]);
                return USH_RUN_ERR_USAGE;
            }
            if (asprintf(&kv, "%s=%s", argv[i + 1], argv[i + 2]) < 0) {
                return USH_RUN_ERR_NOMEM;
            }
            opts->owned[opts->nowned++]       = kv;
            opts->exports[opts->nexports++] = kv;
            i += 2;
        } else if (strcmp(arg, "--tag-output") == 0) {
            opts->tag_output = 1;
        } else if (strcmp(arg, "--profile") == 0) {
            /* one word of argv: exports has room for it */
            opts->exports[opts->nexports++] = (char *)ush_run_profile_export;
        } else if (ush_run_opt_is(arg, "-x")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "-x")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (!ush_run_env_name_ok(val, strcspn(val, "="))) {
                ush_run_msg("bad -x '%s': give VAR or VAR=VALUE, VAR made of letters, "
                            "digits and '_'", val);
                return USH_RUN_ERR_USAGE;
            }
            opts->exports[opts->nexports++] = (char *)val;
        } else if (ush_run_opt_is(arg, "--bind-to")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "--bind-to")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (strcmp(val, "core") == 0) {
                opts->bind = USH_RUN_BIND_CORE;
            } else if (strcmp(val, "socket") == 0) {
                opts->bind = USH_RUN_BIND_SOCKET;
            } else if (strcmp(val, "none") == 0) {
                opts->bind = USH_RUN_BIND_NONE;
            } else {
                ush_run_msg("bad --bind-to '%s': give core, socket or none", val);
                return USH_RUN_ERR_USAGE;
            }
        } else if (strcmp(arg, "--report-bindings") == 0) {
            opts->report_bindings = 1;
        } else if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "-v") == 0) {
            opts->verbose = 1;
        } else if (ush_run_opt_is(arg, "--launcher")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "--launcher")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (strcmp(val, "auto") == 0) {
                opts->launcher = USH_RUN_LAUNCHER_AUTO;
            } else if (strcmp(val, "embedded") == 0) {
                opts->launcher = USH_RUN_LAUNCHER_EMBEDDED;
            } else if (strcmp(val, "srun") == 0) {
                opts->launcher = USH_RUN_LAUNCHER_SRUN;
            } else if (strcmp(val, "mpirun") == 0) {
                opts->launcher = USH_RUN_LAUNCHER_MPIRUN;
            } else {
                ush_run_msg("bad --launcher '%s': give auto, embedded, srun or mpirun", val);
                return USH_RUN_ERR_USAGE;
            }
        } else if (ush_run_opt_is(arg, "--hostfile")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "--hostfile")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (*val == '\0') {
                ush_run_msg("--hostfile needs a file name");
                return USH_RUN_ERR_USAGE;
            }
            opts->hostfile = val;
        } else if (ush_run_opt_is(arg, "--host") || ush_run_opt_is(arg, "-H")) {
            const char *opt = arg[1] == '-' ? "--host" : "-H";
            if ((val = ush_run_opt_value(argc, argv, &i, opt)) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (*val == '\0') {
                ush_run_msg("%s needs host names (H1,H2,... or H1:SLOTS,...)", opt);
                return USH_RUN_ERR_USAGE;
            }
            opts->hosts = val;
        } else if (strcmp(arg, "--mca") == 0) {
            /* --mca KEY VALUE, two words as mpirun takes them */
            if (i + 2 >= argc) {
                ush_run_msg("--mca needs a name and a value: --mca KEY VALUE");
                return USH_RUN_ERR_USAGE;
            }
            /* An MCA name never starts with '-': "--mca -np 2" lost its pair. */
            if (argv[i + 1][0] == '-') {
                ush_run_msg("--mca needs a name and a value (--mca KEY VALUE), not the option "
                            "'%s'", argv[i + 1]);
                return USH_RUN_ERR_USAGE;
            }
            opts->mcas[2 * opts->nmcas]     = argv[++i];
            opts->mcas[2 * opts->nmcas + 1] = argv[++i];
            opts->nmcas++;
        } else if (ush_run_opt_is(arg, "--timeout")) {
            char  *end;
            double t;

            if ((val = ush_run_opt_value(argc, argv, &i, "--timeout")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            errno = 0;
            t = strtod(val, &end);
            if (errno != 0 || end == val || *end != '\0' || !(t > 0) || t > 1e9) {
                ush_run_msg("bad --timeout '%s': give a positive number of seconds", val);
                return USH_RUN_ERR_USAGE;
            }
            opts->timeout_s = t;
        } else {
            ush_run_msg("unknown option '%s' (see oshrun --help)", arg);
            return USH_RUN_ERR_USAGE;
        }
    }

    if (i >= argc) {
        ush_run_msg("no program given (see oshrun --help)");
        return USH_RUN_ERR_USAGE;
    }
    opts->prog_argv = argv + i;
    return USH_RUN_OK;
}

ush_run_status_t ush_run_options_embedded(ush_run_opts_t *opts)
{
    struct stat sb;

    if (opts->ppn > 0 && !opts->npes_given) {
        opts->npes = opts->ppn;   /* one node: its PEs are the job */
    } else if (opts->ppn > 0 && opts->ppn != opts->npes) {
        ush_run_msg("note: -N %d (PEs per node) ignored: all -n %d PEs run on this node",
                    opts->ppn, opts->npes);
    }
    if (opts->map_by != NULL) {
        ush_run_msg("note: --map-by %s ignored: all PEs run on this node, PE i on core i "
                    "while they fit (see --bind-to)", opts->map_by);
    }
    if (opts->wdir == NULL) {
        return USH_RUN_OK;
    }
    int err = stat(opts->wdir, &sb) != 0      ? errno
            : !S_ISDIR(sb.st_mode)               ? ENOTDIR
            : access(opts->wdir, X_OK) != 0      ? errno
                                                 : 0;
    if (err != 0) {
        ush_run_msg("--wdir %s: %s (give a directory the PEs can start in)", opts->wdir,
                    strerror(err));
        return USH_RUN_ERR_USAGE;
    }
    /* the PEs start there: a program found from here needs its full path */
    if (opts->prog_path[0] != '/') {
        char  cwd[PATH_MAX];
        char *abs;
        if (getcwd(cwd, sizeof(cwd)) == NULL ||
            asprintf(&abs, "%s/%s", cwd, opts->prog_path) < 0) {
            ush_run_msg("--wdir: cannot make the program's path absolute: %s", strerror(errno));
            return USH_RUN_ERR_SYS;
        }
        free(opts->prog_path);
        opts->prog_path = abs;
    }
    return USH_RUN_OK;
}

void ush_run_options_free(ush_run_opts_t *opts)
{
    for (int i = 0; i < opts->nowned; i++) {
        free(opts->owned[i]);
    }
    free(opts->owned);
    free(opts->exports);
    free(opts->mcas);
    free(opts->prog_path);
}
