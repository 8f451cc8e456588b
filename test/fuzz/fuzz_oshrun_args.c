/*
 * libFuzzer target: oshrun's command line (ush_run_parse_options in
 * launcher/options.c).
 *
 * Input: words separated by NUL bytes, each a separate heap block of its
 * exact size (so AddressSanitizer catches a read past a word's end), after
 * argv[0] = "oshrun". Whatever the parser returns, it must not crash, hang
 * or read out of bounds, and what it fills in must hold: a program inside
 * argv, 1..65535 PEs, exports and --mca pairs that are words of argv
 * (or an export the parser made: -genv's, --profile's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oshrun.h"

/* More words add nothing: every option takes at most two values. */
#define FUZZ_ARGS_MAX 64

/* oshrun.c (not linked: it is main) prints these; format them to check
 * the arguments match the format, and drop the text. */
void ush_run_msg(const char *fmt, ...)
{
    char    line[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* --help and --version print on stdout; libFuzzer reports on stderr. */
    if (freopen("/dev/null", "w", stdout) == NULL) {
        abort();
    }
    return 0;
}

static int fuzz_in_argv(char **argv, int argc, const char *s)
{
    for (int i = 0; i < argc; i++) {
        /* a word itself, or the value after "--opt=" inside it */
        if (s >= argv[i] && s <= argv[i] + strlen(argv[i])) {
            return 1;
        }
    }
    return 0;
}

static void fuzz_fail(const char *what)
{
    fprintf(stderr, "ush_run_parse_options: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char          *argv[FUZZ_ARGS_MAX + 2];
    int            argc = 0;
    const uint8_t *p    = data;
    const uint8_t *end  = data + size;

    argv[argc++] = strdup("oshrun");
    while (p < end && argc <= FUZZ_ARGS_MAX) {
        const uint8_t *z = memchr(p, '\0', (size_t)(end - p));
        size_t         n = z != NULL ? (size_t)(z - p) : (size_t)(end - p);
        char          *w = malloc(n + 1);
        if (w == NULL) {
            abort();
        }
        memcpy(w, p, n);
        w[n] = '\0';
        argv[argc++] = w;
        p += n + 1;
    }
    argv[argc] = NULL;

    ush_run_opts_t   opts;
    ush_run_status_t st = ush_run_parse_options(argc, argv, &opts);
    if (st == USH_RUN_OK) {
        if (opts.prog_argv <= argv || opts.prog_argv >= argv + argc) {
            fuzz_fail("program outside argv");
        }
        if (opts.npes < 1 || opts.npes > 65535) {
            fuzz_fail("number of PEs out of range");
        }
        if (opts.nexports < 0 || opts.nexports >= argc || opts.nmcas < 0 ||
            2 * opts.nmcas >= argc) {
            fuzz_fail("more -x or --mca than words");
        }
        for (int i = 0; i < opts.nexports; i++) {
            int owned = 0;   /* -genv's VAR=VALUE, made by the parser */
            for (int k = 0; k < opts.nowned; k++) {
                owned |= opts.exports[i] == opts.owned[k];
            }
            if (!owned && opts.exports[i] != ush_run_profile_export &&
                !fuzz_in_argv(argv, argc, opts.exports[i])) {
                fuzz_fail("-x value not in argv");
            }
            if (strchr(opts.exports[i], '=') == NULL && owned) {
                fuzz_fail("-genv value without '='");
            }
        }
        if (opts.ppn < 0 || opts.ppn > 65535) {
            fuzz_fail("PEs per node out of range");
        }
        if ((opts.wdir && !fuzz_in_argv(argv, argc, opts.wdir)) ||
            (opts.map_by && !fuzz_in_argv(argv, argc, opts.map_by)) ||
            (opts.output_dir && !fuzz_in_argv(argv, argc, opts.output_dir))) {
            fuzz_fail("--wdir, --map-by or --output-filename not in argv");
        }
        for (int i = 0; i < 2 * opts.nmcas; i++) {
            if (!fuzz_in_argv(argv, argc, opts.mcas[i])) {
                fuzz_fail("--mca word not in argv");
            }
        }
        if (opts.timeout_s < 0) {
            fuzz_fail("negative timeout");
        }
    } else if (st != USH_RUN_ERR_USAGE && st != USH_RUN_EXIT_EARLY) {
        fuzz_fail("unexpected status");
    }
    /* The parser allocates these whatever it returns; oshrun frees them
     * (or exits). */
    ush_run_options_free(&opts);
    for (int i = 0; i < argc; i++) {
        free(argv[i]);
    }
    return 0;
}
