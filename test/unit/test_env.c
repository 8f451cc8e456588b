/*
 * The environment table: the three parsers, every table default, loading
 * with SHMEM_ and SMA_ variables, the error text and the printout.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ush_env.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)
#define TIB ((size_t)1 << 40)

/* Every test starts from an environment with none of our variables set. */
static void clear_env(void)
{
#define USH_T_UNSET(field, NAME, type, def, help) unsetenv("SHMEM_" #NAME);
    USH_ENV_TABLE(USH_T_UNSET)
#undef USH_T_UNSET
    unsetenv("SMA_SYMMETRIC_SIZE");
}

TestSuite(env, .init = clear_env);

/* --- sizes ---------------------------------------------------------------- */

static void size_ok(const char *s, size_t want)
{
    size_t v = 12345;
    cr_assert_eq(ush_env_parse_size(s, &v), 0, "\"%s\" must parse", s);
    cr_assert_eq(v, want, "\"%s\" gave %zu, expected %zu", s, v, want);
}

static void size_bad(const char *s)
{
    size_t v = 12345;
    cr_assert_eq(ush_env_parse_size(s, &v), -1, "\"%s\" must be rejected", s);
    cr_assert_eq(v, 12345, "\"%s\": a rejected value must not be stored", s);
}

Test(env, size_plain_and_suffixes)
{
    size_ok("0", 0);
    size_ok("1", 1);
    size_ok("512", 512);
    size_ok("007", 7);
    size_ok("1k", KIB);
    size_ok("1K", KIB);
    size_ok("3m", 3 * MIB);
    size_ok("256M", 256 * MIB);
    size_ok("2g", 2 * GIB);
    size_ok("2G", 2 * GIB);
    size_ok("1t", TIB);
    size_ok("5T", 5 * TIB);
    size_ok("4kb", 4 * KIB);
    size_ok("4KB", 4 * KIB);
    size_ok("4kB", 4 * KIB);
    size_ok("4Mb", 4 * MIB);
    size_ok("10b", 10);
    size_ok("10B", 10);
}

Test(env, size_whitespace_around_is_fine)
{
    size_ok("  64M", 64 * MIB);
    size_ok("64M  ", 64 * MIB);
    size_ok("\t1G\n", GIB);
    size_ok(" 100 ", 100);
}

Test(env, size_rejects_garbage)
{
    const char *bad[] = {
        "", "   ", "-1", "+1", "-0", "1 M", "1M B", "12q", "0x10", "0X10",
        "1.5G", "1,5G", "1e6", "k", "M1", "1kk", "1bk", "1kbb", "1bb", "1MiB",
        "1 024", "abc", "1k!", "1g2", "\"1G\"",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_bad(bad[i]);
    }
    size_t v;
    cr_assert_eq(ush_env_parse_size(NULL, &v), -1, "NULL must be rejected");
}

Test(env, size_overflow)
{
    cr_assert_eq(sizeof(size_t), 8, "these limits assume a 64-bit size_t");
    size_ok("18446744073709551615", SIZE_MAX);
    size_bad("18446744073709551616");
    size_bad("99999999999999999999999");
    size_ok("16777215t", (size_t)16777215 << 40);
    size_bad("16777216t");
    size_bad("99999999999t");
    size_ok("17179869183G", (size_t)17179869183 << 30);
    size_bad("17179869184G");
}

/* --- booleans and integers ---------------------------------------------- */

Test(env, bool_forms)
{
    const char *yes[] = { "1", "y", "Y", "yes", "YES", "Yes", "on", "ON", "true", "True", " yes " };
    const char *no[]  = { "0", "n", "N", "no", "NO", "off", "Off", "false", "FALSE", "\t0\n" };
    const char *bad[] = { "", " ", "2", "-1", "yess", "ye", "o", "tru", "enable", "1 1", "0x1" };
    int v;

    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        v = -7;
        cr_assert_eq(ush_env_parse_bool(yes[i], &v), 0, "\"%s\" must parse", yes[i]);
        cr_assert_eq(v, 1, "\"%s\" is true", yes[i]);
    }
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        v = -7;
        cr_assert_eq(ush_env_parse_bool(no[i], &v), 0, "\"%s\" must parse", no[i]);
        cr_assert_eq(v, 0, "\"%s\" is false", no[i]);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        v = -7;
        cr_assert_eq(ush_env_parse_bool(bad[i], &v), -1, "\"%s\" must be rejected", bad[i]);
        cr_assert_eq(v, -7);
    }
    cr_assert_eq(ush_env_parse_bool(NULL, &v), -1);
}

Test(env, int_forms)
{
    const struct { const char *s; long v; } ok[] = {
        { "0", 0 }, { "100", 100 }, { "-5", -5 }, { "+7", 7 }, { " 42 ", 42 },
        { "9223372036854775807", LONG_MAX }, { "-9223372036854775808", LONG_MIN },
    };
    const char *bad[] = {
        "", "  ", "-", "+", "abc", "0x10", "1.5", "12abc", "1 2", "--1", "1k",
        "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
    };
    long v;

    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        v = 12345;
        cr_assert_eq(ush_env_parse_int(ok[i].s, &v), 0, "\"%s\" must parse", ok[i].s);
        cr_assert_eq(v, ok[i].v, "\"%s\" gave %ld", ok[i].s, v);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        v = 12345;
        cr_assert_eq(ush_env_parse_int(bad[i], &v), -1, "\"%s\" must be rejected", bad[i]);
        cr_assert_eq(v, 12345);
    }
    cr_assert_eq(ush_env_parse_int(NULL, &v), -1);
}

/* --- the table ------------------------------------------------------------ */

/* Each default, parsed with the parser of its type: a default that does not
 * parse would make every init fail. */
__attribute__((unused)) static int parse_default_BOOL(const char *s)   { int v; return ush_env_parse_bool(s, &v); }
__attribute__((unused)) static int parse_default_INT(const char *s)    { long v; return ush_env_parse_int(s, &v); }
__attribute__((unused)) static int parse_default_SIZE(const char *s)   { size_t v; return ush_env_parse_size(s, &v); }
__attribute__((unused)) static int parse_default_STRING(const char *s) { return s != NULL && *s != '\0' ? 0 : -1; }
#define parse_default_PATH parse_default_STRING

Test(env, every_table_default_parses)
{
    int n = 0;
#define USH_T_DEFAULT(field, NAME, type, def, help)                                   \
    cr_expect_eq(parse_default_##type(def), 0, "default of SHMEM_" #NAME " (\"%s\") "  \
                 "does not parse as " #type, def);                                    \
    cr_expect(strlen(help) > 10, "SHMEM_" #NAME " needs a help line");                \
    n++;
    USH_ENV_TABLE(USH_T_DEFAULT)
#undef USH_T_DEFAULT
    cr_assert_gt(n, 0);
}

/* The table changes as the library grows, so loading is checked for every
 * entry through the table itself: helpers per type, picked by ##type. */

static void load_ok(ush_env_t *env, const char *what)
{
    char err[256] = "";
    cr_assert_eq(ush_env_load(env, err, sizeof(err)), 0, "%s: load failed: %s", what, err);
}

/* Two distinct values per type, so a default equal to one of them cannot
 * hide a variable that is never read. */
__attribute__((unused)) static void read_BOOL(const char *var, ush_env_t *env, const int *field)
{
    setenv(var, "On", 1);
    load_ok(env, var);
    cr_assert_eq(*field, 1, "%s=On not read", var);
    setenv(var, "false", 1);
    load_ok(env, var);
    cr_assert_eq(*field, 0, "%s=false not read", var);
}

__attribute__((unused)) static void read_INT(const char *var, ush_env_t *env, const long *field)
{
    setenv(var, "-17", 1);
    load_ok(env, var);
    cr_assert_eq(*field, -17, "%s=-17 not read", var);
    setenv(var, " 42", 1);
    load_ok(env, var);
    cr_assert_eq(*field, 42, "%s=42 not read", var);
}

__attribute__((unused)) static void read_SIZE(const char *var, ush_env_t *env, const size_t *field)
{
    setenv(var, "3k", 1);
    load_ok(env, var);
    cr_assert_eq(*field, 3 * KIB, "%s=3k not read", var);
    setenv(var, "5MB", 1);
    load_ok(env, var);
    cr_assert_eq(*field, 5 * MIB, "%s=5MB not read", var);
}

__attribute__((unused)) static void read_STRING(const char *var, ush_env_t *env,
                                                const char *const *field)
{
    setenv(var, "some-value", 1);
    load_ok(env, var);
    cr_assert_str_eq(*field, "some-value", "%s not read", var);
}
#define read_PATH read_STRING

/* Equality of a loaded field with its default, parsed independently. */
__attribute__((unused)) static void default_BOOL(const char *def, const int *field)
{
    int v;
    cr_assert_eq(ush_env_parse_bool(def, &v), 0);
    cr_assert_eq(*field, v, "default \"%s\" loaded as %d", def, *field);
}

__attribute__((unused)) static void default_INT(const char *def, const long *field)
{
    long v;
    cr_assert_eq(ush_env_parse_int(def, &v), 0);
    cr_assert_eq(*field, v, "default \"%s\" loaded as %ld", def, *field);
}

__attribute__((unused)) static void default_SIZE(const char *def, const size_t *field)
{
    size_t v;
    cr_assert_eq(ush_env_parse_size(def, &v), 0);
    cr_assert_eq(*field, v, "default \"%s\" loaded as %zu", def, *field);
}

__attribute__((unused)) static void default_STRING(const char *def, const char *const *field)
{
    cr_assert_not_null(*field);
    cr_assert_str_eq(*field, def);
}
#define default_PATH default_STRING

Test(env, load_without_variables_gives_defaults)
{
    ush_env_t env;
    memset(&env, 0x5a, sizeof(env));
    load_ok(&env, "no variables set");
#define USH_T_DEFAULT(field, NAME, type, def, help) default_##type(def, &env.field);
    USH_ENV_TABLE(USH_T_DEFAULT)
#undef USH_T_DEFAULT
    /* The two the design names. */
    cr_assert_eq(env.symmetric_size, 256 * MIB);
    cr_assert_eq(env.debug, 0);
}

Test(env, load_reads_every_shmem_variable)
{
    ush_env_t env = { 0 }; /* read_* only load into it; cross compilers warn otherwise */
#define USH_T_READ(field, NAME, type, def, help) \
    read_##type("SHMEM_" #NAME, &env, &env.field); \
    unsetenv("SHMEM_" #NAME);
    USH_ENV_TABLE(USH_T_READ)
#undef USH_T_READ
}

/* Every typed variable turns a bad value into -1 and a message that starts
 * with the variable and the value. */
Test(env, load_rejects_a_bad_value_for_every_typed_variable)
{
    ush_env_t env;
    char      err[256];
    int       checked = 0;
#define USH_T_BAD(field, NAME, type, def, help)                                      \
    if (USH_ENV_##type != USH_ENV_STRING && USH_ENV_##type != USH_ENV_PATH) {        \
        err[0] = '\0';                                                               \
        setenv("SHMEM_" #NAME, "bogus!", 1);                                         \
        cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1,                       \
                     "SHMEM_" #NAME "=bogus! accepted");                             \
        cr_assert(strncmp(err, "SHMEM_" #NAME "=bogus!: ",                           \
                          strlen("SHMEM_" #NAME "=bogus!: ")) == 0, "\"%s\"", err);   \
        cr_assert_not_null(strstr(err, "; expected "), "\"%s\"", err);              \
        unsetenv("SHMEM_" #NAME);                                                    \
        checked++;                                                                   \
    }
    USH_ENV_TABLE(USH_T_BAD)
#undef USH_T_BAD
    cr_assert_gt(checked, 0);
}

Test(env, sma_fallback_and_shmem_precedence)
{
    ush_env_t env;
    char      err[256] = "";

    setenv("SMA_SYMMETRIC_SIZE", "32M", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), 0, "load failed: %s", err);
    cr_assert_eq(env.symmetric_size, 32 * MIB, "SMA_SYMMETRIC_SIZE is the fallback");

    setenv("SHMEM_SYMMETRIC_SIZE", "64M", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), 0, "load failed: %s", err);
    cr_assert_eq(env.symmetric_size, 64 * MIB, "SHMEM_ must win over SMA_");

    /* When SHMEM_ is set, a broken SMA_ is never even read. */
    setenv("SMA_SYMMETRIC_SIZE", "junk", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), 0, "load failed: %s", err);
    cr_assert_eq(env.symmetric_size, 64 * MIB);

    unsetenv("SHMEM_SYMMETRIC_SIZE");
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1);
    cr_assert(strncmp(err, "SMA_SYMMETRIC_SIZE=junk: ", 25) == 0,
              "the message must name the variable actually read: \"%s\"", err);
}

Test(env, error_text_names_variable_value_and_form)
{
    ush_env_t env;
    char      err[256] = "";

    setenv("SHMEM_SYMMETRIC_SIZE", "12q", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1);
    cr_assert_str_eq(err, "SHMEM_SYMMETRIC_SIZE=12q: unknown suffix 'q'; "
                          "expected a byte count such as 512M or 2G");

    setenv("SHMEM_SYMMETRIC_SIZE", "99999999999t", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1);
    cr_assert_str_eq(err, "SHMEM_SYMMETRIC_SIZE=99999999999t: too large; "
                          "expected a byte count such as 512M or 2G");

    setenv("SHMEM_SYMMETRIC_SIZE", "", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1, "an empty value is an error");
    cr_assert(strncmp(err, "SHMEM_SYMMETRIC_SIZE=: empty value;", 35) == 0, "\"%s\"", err);
    unsetenv("SHMEM_SYMMETRIC_SIZE");

    setenv("SHMEM_DEBUG", "maybe", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), -1);
    cr_assert(strncmp(err, "SHMEM_DEBUG=maybe: ", 19) == 0, "\"%s\"", err);
    cr_assert_not_null(strstr(err, "; expected "), "\"%s\"", err);
    cr_assert_not_null(strstr(err, "yes/no"), "\"%s\"", err);
}

Test(env, error_text_is_truncated_safely)
{
    ush_env_t env;
    char      err[16];
    memset(err, 'X', sizeof(err));
    setenv("SHMEM_SYMMETRIC_SIZE", "12q", 1);
    cr_assert_eq(ush_env_load(&env, err, 8), -1);
    cr_assert_eq(strlen(err), 7, "\"%s\"", err);
    cr_assert_eq(err[8], 'X', "wrote past errlen");
}

/* --- printing ----------------------------------------------------------- */

Test(env, print_lists_every_variable)
{
    ush_env_t env;
    char      err[256] = "", *text = NULL;
    size_t    len = 0;

    setenv("SHMEM_SYMMETRIC_SIZE", "3m", 1);
    cr_assert_eq(ush_env_load(&env, err, sizeof(err)), 0, "%s", err);
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    ush_env_print(&env, f);
    fclose(f);

    int lines = 0;
    for (const char *p = text; *p; p++) {
        lines += *p == '\n';
    }
    int n = 0;
#define USH_T_PRINTED(field, NAME, type, def, help)                                   \
    cr_expect_not_null(strstr(text, "SHMEM_" #NAME " "), "SHMEM_" #NAME " not printed"); \
    cr_expect_not_null(strstr(text, help), "help of SHMEM_" #NAME " not printed");   \
    n++;
    USH_ENV_TABLE(USH_T_PRINTED)
#undef USH_T_PRINTED
    cr_assert_eq(lines, n, "one line per variable:\n%s", text);
    cr_assert_not_null(strstr(text, " 3M "), "size printed as the user writes it:\n%s", text);
    free(text);
}

/* --- misspelt names ---------------------------------------------------------- */

static void typo(const char *name, const char *want)
{
    const char *got = ush_env_typo_of(name, strlen(name));
    if (want == NULL) {
        cr_assert_null(got, "SHMEM_%s taken for a typo of SHMEM_%s", name, got ? got : "");
    } else {
        cr_assert_not_null(got, "SHMEM_%s: no suggestion, expected SHMEM_%s", name, want);
        cr_assert_str_eq(got, want, "SHMEM_%s", name);
    }
}

Test(env, typos_are_recognised)
{
    typo("DEUBG", "DEBUG");                   /* a swap is one edit */
    typo("DEBG", "DEBUG");
    typo("INF", "INFO");
    typo("INOF", "INFO");
    typo("YEILD", "YIELD");
    typo("VERSOIN", "VERSION");
    typo("SYMETRIC_SIZE", "SYMMETRIC_SIZE");
    typo("SYMMETRIC_SZIE", "SYMMETRIC_SIZE");
    typo("SYMMETRICSIZE", "SYMMETRIC_SIZE");
    typo("PROGRES_THRAED", "PROGRESS_THREAD");
}

Test(env, others_are_left_alone)
{
    typo("DEBUG", NULL);                      /* ours */
    typo("SYMMETRIC_SIZE", NULL);
    typo("OFI_PROVIDER", NULL);               /* another library's */
    typo("LAUNCHER", NULL);                   /* oshrun's */
    typo("DEBUG_FILE", NULL);
    typo("IN", NULL);                         /* 2 edits in 2 letters: anything */
    typo("FOO", NULL);
    typo("BOUNCE_SIZE", NULL);
}

Test(env, typo_uses_only_len_bytes)
{
    cr_assert_str_eq(ush_env_typo_of("DEUBG=1", 5), "DEBUG");
    cr_assert_null(ush_env_typo_of("DEBUG=1", 5));
}
