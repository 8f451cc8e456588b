/*
 * oshrun's command line: options, usage text, and finding the program.
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
"Start an OpenSHMEM program as N processing elements (PEs) on this node.\n"
"oshrun is its own PMIx server: nothing else needs to be running.\n"
"\n"
"Options:\n"
"  -n, -np, --np N       number of PEs to start (default 1)\n"
"  --tag-output          prefix every output line with \"[PE n] \"\n"
"  -x VAR[=VALUE]        set VAR to VALUE in the PEs' environment (the PEs\n"
"                        inherit oshrun's environment anyway; -x VAR alone\n"
"                        is accepted for compatibility and changes nothing)\n"
"  --bind-to core|none   bind PE i to core i (round robin when PEs outnumber\n"
"                        cores), or do not bind (the default)\n"
"  --timeout SECONDS     end the job if it runs longer (exit status 124)\n"
"  -h, --help            print this help\n"
"  -V, --version         print the version\n"
"\n"
"Behaviour:\n"
"  Standard output and error of the PEs pass through line by line. Standard\n"
"  input goes to PE 0 when it is not a terminal; other PEs read /dev/null.\n"
"  SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to all PEs (a second one\n"
"  kills them); SIGUSR1 and SIGUSR2 are forwarded.\n"
"  When a PE dies of a signal, exits non-zero, calls shmem_global_exit or\n"
"  aborts, or exits without shmem_finalize, the other PEs are ended (SIGTERM,\n"
"  then SIGKILL %.1f s later).\n"
"\n"
"Exit status:\n"
"  0 if every PE exited 0; otherwise the first decisive event gives it: a PE's\n"
"  non-zero exit status, 128+S for a PE killed by signal S (or for oshrun\n"
"  receiving S), the status given to shmem_global_exit / PMIx_Abort, 1 for a\n"
"  PE that exited without finalizing, 124 for --timeout, 2 for a bad command\n"
"  line, 126 or 127 for a program that cannot be run or found.\n"
"\n"
"Environment given to each PE: PMIx contact variables (PMIX_*), and\n"
"SHMEM_LAUNCHER=oshrun.\n",
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

/* Like the shell: a name with a slash is a path, otherwise search PATH.
 * The check happens here, before any PE starts, so a typo gives one line
 * instead of N failed PEs. */
static ush_run_status_t ush_run_resolve_program(ush_run_opts_t *opts)
{
    const char *name = opts->prog_argv[0];
    struct stat sb;

    if (strchr(name, '/') != NULL) {
        if (stat(name, &sb) != 0) {
            ush_run_msg("%s: %s", name, strerror(errno));
            opts->prog_status = (errno == ENOENT || errno == ENOTDIR) ?
                                USH_RUN_EXIT_NOTFOUND : USH_RUN_EXIT_NOEXEC;
            return USH_RUN_ERR_NOPROG;
        }
        if (S_ISDIR(sb.st_mode)) {
            ush_run_msg("%s: %s", name, strerror(EISDIR));
            opts->prog_status = USH_RUN_EXIT_NOEXEC;
            return USH_RUN_ERR_NOPROG;
        }
        if (access(name, X_OK) != 0) {
            ush_run_msg("%s: %s", name, strerror(errno));
            opts->prog_status = USH_RUN_EXIT_NOEXEC;
            return USH_RUN_ERR_NOPROG;
        }
        opts->prog_path = strdup(name);
        return opts->prog_path ? USH_RUN_OK : USH_RUN_ERR_NOMEM;
    }

    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0') {
        path = "/usr/local/bin:/usr/bin:/bin";
    }
    int found_not_exec = 0;
    for (const char *p = path;; ) {
        const char *colon = strchr(p, ':');
        size_t      dlen  = colon ? (size_t)(colon - p) : strlen(p);
        char        cand[PATH_MAX];
        int         n;

        /* an empty PATH element means the current directory */
        n = dlen ? snprintf(cand, sizeof(cand), "%.*s/%s", (int)dlen, p, name) :
                   snprintf(cand, sizeof(cand), "./%s", name);
        if (n > 0 && n < (int)sizeof(cand) && stat(cand, &sb) == 0 &&
            !S_ISDIR(sb.st_mode)) {
            if (access(cand, X_OK) == 0) {
                opts->prog_path = strdup(cand);
                return opts->prog_path ? USH_RUN_OK : USH_RUN_ERR_NOMEM;
            }
            found_not_exec = 1;
        }
        if (colon == NULL) {
            break;
        }
        p = colon + 1;
    }
    if (found_not_exec) {
        ush_run_msg("%s: %s", name, strerror(EACCES));
        opts->prog_status = USH_RUN_EXIT_NOEXEC;
    } else {
        ush_run_msg("%s: command not found", name);
        opts->prog_status = USH_RUN_EXIT_NOTFOUND;
    }
    return USH_RUN_ERR_NOPROG;
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

ush_run_status_t ush_run_parse_options(int argc, char **argv, ush_run_opts_t *opts)
{
    int i;

    memset(opts, 0, sizeof(*opts));
    opts->npes        = 1;
    opts->prog_status = USH_RUN_EXIT_FAILURE;
    opts->exports     = calloc((size_t)argc + 1, sizeof(char *));
    if (opts->exports == NULL) {
        return USH_RUN_ERR_NOMEM;
    }

    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;
        long        v;

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
            if (ush_run_parse_int(val, USH_RUN_MAX_PES, &v) != 0 || v < 1) {
                ush_run_msg("bad number of PEs '%s' for %s: give an integer from 1 to %d",
                            val, opt, USH_RUN_MAX_PES);
                return USH_RUN_ERR_USAGE;
            }
            opts->npes = (int)v;
        } else if (strncmp(arg, "-n", 2) == 0 && arg[2] >= '0' && arg[2] <= '9') {
            /* -n4 */
            if (ush_run_parse_int(arg + 2, USH_RUN_MAX_PES, &v) != 0 || v < 1) {
                ush_run_msg("bad number of PEs '%s' for -n: give an integer from 1 to %d",
                            arg + 2, USH_RUN_MAX_PES);
                return USH_RUN_ERR_USAGE;
            }
            opts->npes = (int)v;
        } else if (strcmp(arg, "--tag-output") == 0) {
            opts->tag_output = 1;
        } else if (ush_run_opt_is(arg, "-x")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "-x")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (val[0] == '\0' || val[0] == '=') {
                ush_run_msg("bad -x '%s': give VAR or VAR=VALUE", val);
                return USH_RUN_ERR_USAGE;
            }
            opts->exports[opts->nexports++] = (char *)val;
        } else if (ush_run_opt_is(arg, "--bind-to")) {
            if ((val = ush_run_opt_value(argc, argv, &i, "--bind-to")) == NULL) {
                return USH_RUN_ERR_USAGE;
            }
            if (strcmp(val, "core") == 0) {
                opts->bind_cores = 1;
            } else if (strcmp(val, "none") == 0) {
                opts->bind_cores = 0;
            } else {
                ush_run_msg("bad --bind-to '%s': give core or none", val);
                return USH_RUN_ERR_USAGE;
            }
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
    return ush_run_resolve_program(opts);
}
