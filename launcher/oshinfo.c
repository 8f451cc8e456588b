/*
 * oshinfo: what this ushmem is (version, how it was built, against which
 * UCX, PMIx and hwloc), every environment variable it reads with the value
 * it would use here, and on request the UCX transports a job would get.
 *
 * The variables come from the library's own table (core/ush_env.h), so this
 * list cannot fall behind the library. The transports section starts UCX
 * (oshinfo_ucx.c), which can take a while and open network devices, so the
 * default report leaves it out: plain `oshinfo` stays a quick description
 * of the configuration that works anywhere, even where UCX cannot start.
 */
#include "oshinfo.h"
#include "oshinfo_build.h"

#include "shmem.h"
#include "core/ush_env.h"

#include <getopt.h>
#include <hwloc.h>
#include <limits.h>
#include <pmix.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    USH_INFO_VERSION_SEC    = 1 << 0,
    USH_INFO_BUILD_SEC      = 1 << 1,
    USH_INFO_ENV_SEC        = 1 << 2,
    USH_INFO_TRANSPORTS_SEC = 1 << 3,
    USH_INFO_DEFAULT        = USH_INFO_VERSION_SEC | USH_INFO_BUILD_SEC | USH_INFO_ENV_SEC,
    USH_INFO_ALL            = USH_INFO_DEFAULT | USH_INFO_TRANSPORTS_SEC,
};

#define USH_INFO_DEFAULT_NPES 2

static void ush_info_usage(FILE *out)
{
    fprintf(out,
            "Usage: oshinfo [--version] [--build] [--env] [--transports [-n N]] [--all]\n"
            "Describe this ushmem: with no option, the version, build and environment\n"
            "sections.\n"
            "  -V, --version      ushmem version, OpenSHMEM version and vendor string\n"
            "  -b, --build        compiler, build type, flags, install prefix, and the\n"
            "                     UCX, PMIx and hwloc versions built against and loaded\n"
            "  -e, --env          every SHMEM_* variable: value in force here, default,\n"
            "                     type, help; '*' marks those set in the environment\n"
            "  -t, --transports   start UCX as a PE would and show the transports it picks\n"
            "                     on-node and off-node, and whether PEs need a progress\n"
            "                     thread (SHMEM_PROGRESS_THREAD)\n"
            "  -n, --npes N       job size for --transports (default %d; implies it)\n"
            "  -a, --all          every section, transports included\n"
            "  -h, --help         this text\n"
            "Exit status: 0; 1 when a variable is malformed or UCX could not be probed;\n"
            "2 for a usage error.\n",
            USH_INFO_DEFAULT_NPES);
}

static void ush_info_version(FILE *out)
{
    fprintf(out, "Version\n");
    fprintf(out, "  %-22s %s\n", "ushmem:", USH_INFO_VERSION);
    fprintf(out, "  %-22s %d.%d\n", "OpenSHMEM:", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
    fprintf(out, "  %-22s %s\n", "vendor string:", SHMEM_VENDOR_STRING);
}

/* The prefix this oshinfo runs from: the parent of its bin/ directory.
 * Installs are relocatable, so it can differ from the configured one. */
static void ush_info_running_prefix(char *buf, size_t len)
{
    char  exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    snprintf(buf, len, "unknown");
    if (n <= 0) {
        return;
    }
    exe[n]      = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        return;
    }
    *slash = '\0'; /* the directory holding oshinfo */
    slash  = strrchr(exe, '/');
    if (slash != NULL && strcmp(slash + 1, USH_INFO_BINDIR) == 0) {
        *slash = '\0';
        snprintf(buf, len, "%s", slash == exe ? "/" : exe);
    } else {
        snprintf(buf, len, "none (%s is not an installed bin/: a build tree)", exe);
    }
}

static void ush_info_build(FILE *out)
{
    char     prefix[PATH_MAX + 64];
    unsigned hwloc_api = hwloc_get_api_version();

    ush_info_running_prefix(prefix, sizeof(prefix));
    fprintf(out, "Build\n");
    fprintf(out, "  %-22s %s\n", "compiler:", USH_INFO_COMPILER);
    fprintf(out, "  %-22s %s\n", "build type:", USH_INFO_BUILD_TYPE);
    fprintf(out, "  %-22s %s\n", "C flags:", USH_INFO_CFLAGS);
    fprintf(out, "  %-22s %s\n", "configured prefix:", USH_INFO_PREFIX);
    fprintf(out, "  %-22s %s\n", "running from prefix:", prefix);
    fprintf(out, "  %-22s built against %s, loaded %s\n", "UCX:", USH_INFO_UCX_VERSION,
            ush_info_ucx_version());
    /* PMIx_Get_version: "OpenPMIx 4.2.2rc2 (PMIx Standard: 4.2, ...": the name. */
    const char *pmix = PMIx_Get_version();
    int         plen = (int)strcspn(pmix, ",(");
    while (plen > 0 && pmix[plen - 1] == ' ') {
        plen--;
    }
    fprintf(out, "  %-22s built against %s, loaded %.*s\n", "PMIx:", USH_INFO_PMIX_VERSION,
            plen, pmix);
    fprintf(out, "  %-22s built against %s (API %#x), loaded API %#x%s\n", "hwloc:",
            USH_INFO_HWLOC_VERSION, (unsigned)HWLOC_API_VERSION, hwloc_api,
            (hwloc_api >> 16) != (HWLOC_API_VERSION >> 16) ? " (major differs!)" : "");
}

/* Returns the number of malformed variables. */
static int ush_info_env(FILE *out)
{
    int bad = 0;

    fprintf(out, "Environment (read by shmem_init; '*' marks a variable set here)\n");
    for (size_t i = 0; i < ush_env_count(); i++) {
        ush_env_row_t row;
        const char   *expected = NULL;
        int           ok       = ush_env_row(i, &row, &expected) == 0;

        fprintf(out, "%c SHMEM_%s = %s   (", row.raw != NULL ? '*' : ' ', row.name, row.value);
        if (row.raw != NULL) {
            fprintf(out, "set by %s; ", row.source);
        }
        if (!ok) {
            fprintf(out, "INVALID: %s, expected %s; ", row.why, expected);
            fprintf(stderr, "oshinfo: %s=%s: %s; expected %s. shmem_init stops with this "
                            "message.\n", row.source, row.raw, row.why, expected);
            bad++;
        }
        fprintf(out, "default %s, %s)\n      %s\n", row.def, row.type, row.help);
    }
    return bad;
}

/* What the table says about the progress thread, next to what the
 * transports need. The decision itself is the library's, at shmem_init. */
static void ush_info_progress(FILE *out, int off_node_emulated)
{
    fprintf(out, "  progress thread:\n");
    for (size_t i = 0; i < ush_env_count(); i++) {
        ush_env_row_t row;
        ush_env_row(i, &row, NULL);
        if (strcmp(row.name, "PROGRESS_THREAD") == 0) {
            fprintf(out, "    SHMEM_PROGRESS_THREAD=%s%s\n      %s\n", row.value,
                    row.raw != NULL ? " (set)" : " (default)", row.help);
            break;
        }
        if (i + 1 == ush_env_count()) {
            fprintf(out, "    this build has no SHMEM_PROGRESS_THREAD: none is started\n");
        }
    }
    fprintf(out, "%s", off_node_emulated
                ? "    off-node lanes emulate remote memory access or atomics in software:\n"
                  "    in a multi-node job a PE that computes without calling ushmem stalls\n"
                  "    its peers unless a progress thread serves them\n"
                : "    off-node lanes do remote memory access and atomics without the\n"
                  "    target's help\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "version", no_argument, NULL, 'V' },    { "build", no_argument, NULL, 'b' },
        { "env", no_argument, NULL, 'e' },        { "transports", no_argument, NULL, 't' },
        { "npes", required_argument, NULL, 'n' }, { "all", no_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },       { NULL, 0, NULL, 0 },
    };
    unsigned sections = 0;
    int      npes     = USH_INFO_DEFAULT_NPES;
    int      c, status = 0;

    opterr = 0; /* our messages, which name oshinfo and not its path */
    while ((c = getopt_long(argc, argv, ":Vbetn:ah", opts, NULL)) != -1) {
        switch (c) {
        case 'V': sections |= USH_INFO_VERSION_SEC; break;
        case 'b': sections |= USH_INFO_BUILD_SEC; break;
        case 'e': sections |= USH_INFO_ENV_SEC; break;
        case 't': sections |= USH_INFO_TRANSPORTS_SEC; break;
        case 'a': sections |= USH_INFO_ALL; break;
        case 'h': ush_info_usage(stdout); return 0;
        case 'n': {
            char *end;
            long  v = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || v < 1 || v > INT_MAX) {
                fprintf(stderr, "oshinfo: -n %s: expected a PE count of 1 or more\n", optarg);
                return 2;
            }
            npes = (int)v;
            sections |= USH_INFO_TRANSPORTS_SEC;
            break;
        }
        case ':':
            fprintf(stderr, "oshinfo: %s needs a value; see 'oshinfo --help'\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "oshinfo: unknown option '%s'; see 'oshinfo --help'\n",
                    argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "oshinfo: unexpected argument '%s'; see 'oshinfo --help'\n",
                argv[optind]);
        return 2;
    }
    if (sections == 0) {
        sections = USH_INFO_DEFAULT;
    }

    if (sections & USH_INFO_VERSION_SEC) {
        ush_info_version(stdout);
    }
    if (sections & USH_INFO_BUILD_SEC) {
        ush_info_build(stdout);
    }
    if ((sections & USH_INFO_ENV_SEC) && ush_info_env(stdout) != 0) {
        status = 1;
    }
    if (sections & USH_INFO_TRANSPORTS_SEC) {
        int emulated = 0;
        if (ush_info_transports(npes, stdout, &emulated) != 0) {
            status = 1;
        }
        ush_info_progress(stdout, emulated);
    }
    if (sections == USH_INFO_DEFAULT) {
        printf("(oshinfo --transports -n N shows the UCX transports a job of N PEs gets)\n");
    }
    return fflush(stdout) == 0 ? status : 1;
}
