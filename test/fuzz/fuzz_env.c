/*
 * libFuzzer target: the environment parsers of core/env.c.
 *
 * Input: NUL- or newline-separated values. The first goes to each of
 * ush_env_parse_size/bool/int; then value k becomes SHMEM_<NAME of row k>
 * (the last row's slot after the table is SMA_SYMMETRIC_SIZE), an empty
 * value leaving that variable unset, and ush_env_load, ush_env_row and
 * ush_env_print read them. Beyond "no crash, no out-of-bounds read, no
 * UB", it checks what the parsers promise: a parsed number round-trips
 * through its decimal form, a boolean is 0 or 1, and a rejected load
 * says which variable, in a NUL-terminated message.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ush_env.h"

/* Longest value tried; longer ones are cut (the parsers read to the NUL). */
#define FUZZ_VALUE_MAX 512
/* Table rows plus SMA_SYMMETRIC_SIZE. */
#define FUZZ_VARS_MAX  64

/* One putenv buffer per variable, written in place: setenv would keep
 * every value ever set (glibc never frees them), growing without bound
 * over a long run. */
static char  fuzz_envbuf[FUZZ_VARS_MAX][FUZZ_VALUE_MAX + 64];
static char  fuzz_names[FUZZ_VARS_MAX][64];
static size_t fuzz_nvars;
static FILE *fuzz_null;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    ush_env_row_t row;

    for (size_t i = 0; i < ush_env_count() && fuzz_nvars < FUZZ_VARS_MAX - 1; i++) {
        ush_env_row(i, &row, NULL);
        snprintf(fuzz_names[fuzz_nvars++], sizeof(fuzz_names[0]), "SHMEM_%s", row.name);
    }
    snprintf(fuzz_names[fuzz_nvars++], sizeof(fuzz_names[0]), "SMA_SYMMETRIC_SIZE");
    fuzz_null = fopen("/dev/null", "w");
    return 0;
}

/* The next value of the input, copied to a heap block of its exact size so
 * AddressSanitizer sees any read past its NUL. */
static char *fuzz_next(const uint8_t **p, const uint8_t *end)
{
    const uint8_t *s = *p;
    size_t         n = 0;

    while (s + n < end && s[n] != '\0' && s[n] != '\n') {
        n++;
    }
    *p = s + n + (s + n < end);
    if (n > FUZZ_VALUE_MAX) {
        n = FUZZ_VALUE_MAX;
    }
    char *v = malloc(n + 1);
    if (v == NULL) {
        abort();
    }
    memcpy(v, s, n);
    v[n] = '\0';
    return v;
}

static void fuzz_parsers(const char *s)
{
    char   buf[32];
    size_t z, z2;
    long   l, l2;
    int    b;

    if (ush_env_parse_size(s, &z) == 0) {
        snprintf(buf, sizeof(buf), "%zu", z);
        if (ush_env_parse_size(buf, &z2) != 0 || z2 != z) {
            fprintf(stderr, "size '%s' -> %zu does not round-trip\n", s, z);
            abort();
        }
    }
    if (ush_env_parse_int(s, &l) == 0) {
        snprintf(buf, sizeof(buf), "%ld", l);
        if (ush_env_parse_int(buf, &l2) != 0 || l2 != l) {
            fprintf(stderr, "int '%s' -> %ld does not round-trip\n", s, l);
            abort();
        }
    }
    if (ush_env_parse_bool(s, &b) == 0 && b != 0 && b != 1) {
        fprintf(stderr, "bool '%s' -> %d\n", s, b);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p   = data;
    const uint8_t *end = data + size;

    char *first = fuzz_next(&p, end);
    fuzz_parsers(first);
    free(first);

    for (size_t k = 0; k < fuzz_nvars; k++) {
        char *v = p < end ? fuzz_next(&p, end) : NULL;
        if (v == NULL || v[0] == '\0') {
            unsetenv(fuzz_names[k]);
        } else {
            snprintf(fuzz_envbuf[k], sizeof(fuzz_envbuf[k]), "%s=%s", fuzz_names[k], v);
            putenv(fuzz_envbuf[k]);
        }
        free(v);
    }

    ush_env_t env;
    char      err[256];
    memset(err, 'x', sizeof(err));
    if (ush_env_load(&env, err, sizeof(err)) == 0) {
        ush_env_print(&env, fuzz_null);
    } else if (memchr(err, '\0', sizeof(err)) == NULL ||
               (strncmp(err, "SHMEM_", 6) != 0 && strncmp(err, "SMA_", 4) != 0)) {
        fprintf(stderr, "ush_env_load failed without naming the variable: '%.256s'\n", err);
        abort();
    }
    for (size_t i = 0; i < ush_env_count(); i++) {
        ush_env_row_t row;
        const char   *expected = NULL;
        if (ush_env_row(i, &row, &expected) != 0 && (expected == NULL || row.why[0] == '\0')) {
            fprintf(stderr, "ush_env_row(%zu) failed without a reason\n", i);
            abort();
        }
    }
    return 0;
}
