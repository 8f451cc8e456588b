/*
 * Harness for the multi-PE tests in test/pe/.
 *
 * Every program includes this header, calls pe_test_init() (or its own
 * initialisation followed by pe_test_started()), checks exact values with
 * CHECK/CHECK_EQ and ends with `return pe_test_finish();`.
 *
 * A failed check prints
 *     PE <me>: <file>:<line>: <expr>: expected <x>, got <y>
 * and ends the whole job with shmem_global_exit(1), so no PE is left
 * waiting for the one that failed.  Success is a single line from PE 0,
 * "all checks passed on <n> PEs", printed after a barrier; the ctest runner
 * (run_pe_test.cmake) demands both that line, with the PE count it asked
 * the launcher for, and exit status 0.  The PE count in the line catches a
 * launcher that starts n unrelated one-PE jobs instead of one n-PE job.
 *
 * Only OpenSHMEM spec names are used, so every program also builds against
 * another implementation (e.g. Open MPI's oshcc) to validate the test itself;
 * routines newer than the implementation's header are guarded with
 * PE_SPEC_AT_LEAST().
 */
#ifndef PE_TEST_H
#define PE_TEST_H

/* A program may include <mpp/shmem.h> first (legacy.c); then that header
 * alone must provide everything used here. */
#ifndef SHMEM_MAJOR_VERSION
#include <shmem.h>
#endif

#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if !defined(SHMEM_MAJOR_VERSION) || !defined(SHMEM_MINOR_VERSION)
#error "shmem.h must define SHMEM_MAJOR_VERSION and SHMEM_MINOR_VERSION"
#endif

/* Spec version the header declares, as 100 * major + minor (1.6 -> 106). */
#define PE_SPEC_VERSION (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION)
#define PE_SPEC_AT_LEAST(major, minor) (PE_SPEC_VERSION >= (major) * 100 + (minor))

/* The build states which spec it expects (CMake passes 106 for ushmem), so a
 * header that claims an older version cannot silently skip the 1.5/1.6
 * parts of the tests. */
#if defined(PE_TEST_REQUIRE_SPEC) && PE_SPEC_VERSION < PE_TEST_REQUIRE_SPEC
#error "shmem.h declares an older OpenSHMEM version than PE_TEST_REQUIRE_SPEC"
#endif

#define PE_UNUSED __attribute__((unused))

static int         pe_me PE_UNUSED    = -1;
static int         pe_npes PE_UNUSED  = 0;
static const char *pe_section_name PE_UNUSED = "start-up";
static time_t      pe_section_since PE_UNUSED; /* CLOCK_MONOTONIC seconds */
static time_t      pe_started PE_UNUSED;

static inline time_t pe_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t); /* async-signal-safe */
    return t.tv_sec;
}

/* Enters a section without printing it (pe_section prints). */
static inline void pe_section_set(const char *name)
{
    pe_section_name  = name;
    pe_section_since = pe_now();
}

/* ---- reporting ---------------------------------------------------------- */

static inline void pe_fail(const char *file, int line, const char *expr, const char *expected,
                           const char *got) __attribute__((noreturn));
static inline void pe_fail(const char *file, int line, const char *expr, const char *expected,
                           const char *got)
{
    fflush(stdout);
    fprintf(stderr, "PE %d: %s:%d: %s: expected %s, got %s\nPE %d: (in section '%s')\n", pe_me,
            file, line, expr, expected, got, pe_me, pe_section_name);
    fflush(stderr);
    shmem_global_exit(1);
    _exit(1); /* shmem_global_exit does not return; a broken one must not pass */
}

/* Values are printed through a small by-value buffer so CHECK_EQ works on
 * any arithmetic type or pointer without the caller naming a format. */
typedef struct {
    char s[64];
} pe_fmt_t;

static inline pe_fmt_t pe_fmt_signed(intmax_t v)
{
    pe_fmt_t f;
    snprintf(f.s, sizeof(f.s), "%jd", v);
    return f;
}

static inline pe_fmt_t pe_fmt_unsigned(uintmax_t v)
{
    pe_fmt_t f;
    snprintf(f.s, sizeof(f.s), "%ju (0x%jx)", v, v);
    return f;
}

static inline pe_fmt_t pe_fmt_float(long double v)
{
    pe_fmt_t f;
    snprintf(f.s, sizeof(f.s), "%.21Lg", v);
    return f;
}

static inline pe_fmt_t pe_fmt_ptr(const volatile void *p)
{
    pe_fmt_t f;
    snprintf(f.s, sizeof(f.s), "%p", (const void *)p);
    return f;
}

#define PE_FMT(v)                                                                                 \
    _Generic((v),                                                                                 \
        _Bool: pe_fmt_unsigned,                                                                   \
        char: pe_fmt_signed,                                                                      \
        signed char: pe_fmt_signed,                                                               \
        short: pe_fmt_signed,                                                                     \
        int: pe_fmt_signed,                                                                       \
        long: pe_fmt_signed,                                                                      \
        long long: pe_fmt_signed,                                                                 \
        unsigned char: pe_fmt_unsigned,                                                           \
        unsigned short: pe_fmt_unsigned,                                                          \
        unsigned int: pe_fmt_unsigned,                                                            \
        unsigned long: pe_fmt_unsigned,                                                           \
        unsigned long long: pe_fmt_unsigned,                                                      \
        float: pe_fmt_float,                                                                      \
        double: pe_fmt_float,                                                                     \
        long double: pe_fmt_float,                                                                \
        default: pe_fmt_ptr)(v)

/* CHECK(cond): cond must hold. */
#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond))                                                                              \
            pe_fail(__FILE__, __LINE__, #cond, "true", "false");                                  \
    } while (0)

/* CHECK_EQ(got, expected): exact equality, compared in got's type (so a
 * long double is compared by value, never by its padding bytes).  Each
 * argument is evaluated once. */
#define CHECK_EQ(got, expected)                                                                   \
    do {                                                                                          \
        __typeof__(got) pe_got_ = (got);                                                          \
        __typeof__(got) pe_exp_ = (__typeof__(got))(expected);                                    \
        if (!(pe_got_ == pe_exp_))                                                                \
            pe_fail(__FILE__, __LINE__, #got " == " #expected, PE_FMT(pe_exp_).s,                  \
                    PE_FMT(pe_got_).s);                                                           \
    } while (0)

/* CHECK_MSG(cond, fmt, ...): like CHECK, with the context in the message. */
#define CHECK_MSG(cond, ...)                                                                      \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            char pe_msg_[256];                                                                    \
            snprintf(pe_msg_, sizeof(pe_msg_), __VA_ARGS__);                                      \
            pe_fail(__FILE__, __LINE__, pe_msg_, "true", "false");                                \
        }                                                                                         \
    } while (0)

/* ---- watchdog ----------------------------------------------------------- */

/* A hang is reported by the PE that hangs, naming the section it is in,
 * before ctest's TIMEOUT kills the job without a word.  The runner sets
 * PE_TEST_WATCHDOG (seconds) a little below the ctest TIMEOUT. */
static inline size_t pe_append(char *buf, size_t len, size_t cap, const char *s)
{
    while (*s && len + 1 < cap)
        buf[len++] = *s++;
    return len;
}

/* n in decimal, into the end of buf[16]; returns where it starts. */
static inline const char *pe_decimal(char *buf, long n)
{
    int i = 15;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0 && i > 0);
    return &buf[i];
}

/* How long the PE ran and how long it was in its last section tell a
 * hang (a long last section) from a test that was slow throughout. */
static inline void pe_watchdog_fire(int sig)
{
    char    msg[256], num[16];
    time_t  now = pe_now();
    size_t  len = 0;
    ssize_t rc;

    (void)sig;
    /* Only async-signal-safe calls (one write, then _exit), so the line
     * is not interleaved with other PEs' output. */
    len = pe_append(msg, len, sizeof(msg), "PE ");
    len = pe_append(msg, len, sizeof(msg), pe_decimal(num, pe_me < 0 ? 0 : pe_me));
    len = pe_append(msg, len, sizeof(msg), ": watchdog: no end after ");
    len = pe_append(msg, len, sizeof(msg), pe_decimal(num, (long)(now - pe_started)));
    len = pe_append(msg, len, sizeof(msg), " s, still in section '");
    len = pe_append(msg, len, sizeof(msg), pe_section_name);
    len = pe_append(msg, len, sizeof(msg), "' (for the last ");
    len = pe_append(msg, len, sizeof(msg), pe_decimal(num, (long)(now - pe_section_since)));
    len = pe_append(msg, len, sizeof(msg), " s)\n");
    rc = write(2, msg, len);
    (void)rc;
    _exit(3);
}

static inline void pe_watchdog_start(void)
{
    const char *env = getenv("PE_TEST_WATCHDOG");
    long        secs = env ? strtol(env, NULL, 10) : 0;

    pe_started = pe_section_since = pe_now();
    if (secs > 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = pe_watchdog_fire;
        sigaction(SIGALRM, &sa, NULL);
        alarm((unsigned)secs);
    }
}

/* ---- life cycle --------------------------------------------------------- */

/* Names the phase a hang or a failure belongs to; PE 0 prints it so the
 * ctest log shows how far the program got. */
static inline void pe_section(const char *name)
{
    pe_section_set(name);
    if (pe_me == 0) {
        printf("[PE 0] %s\n", name);
        fflush(stdout);
    }
}

/* After the library is initialised (by whatever routine the test uses). */
static inline void pe_test_started(void)
{
    pe_me   = shmem_my_pe();
    pe_npes = shmem_n_pes();
    pe_watchdog_start();
    if (pe_me < 0 || pe_npes < 1 || pe_me >= pe_npes) {
        char got[64];
        snprintf(got, sizeof(got), "my_pe %d, n_pes %d", pe_me, pe_npes);
        pe_fail(__FILE__, __LINE__, "0 <= shmem_my_pe() < shmem_n_pes()", "a valid PE", got);
    }
}

/* PE_TEST_THREAD=multiple starts the library at SHMEM_THREAD_MULTIPLE,
 * which changes some of its choices (active-set reductions then work in
 * pWrk itself): a test run that way must really get it. */
static inline void pe_test_init(void)
{
    const char *thread = getenv("PE_TEST_THREAD");
    if (thread && strcmp(thread, "multiple") == 0) {
        int provided = -1;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
        pe_test_started();
        if (provided != SHMEM_THREAD_MULTIPLE) {
            char got[32];
            snprintf(got, sizeof(got), "%d", provided);
            pe_fail(__FILE__, __LINE__, "shmem_init_thread provided",
                    "SHMEM_THREAD_MULTIPLE (PE_TEST_THREAD=multiple)", got);
        }
        return;
    }
    shmem_init();
    pe_test_started();
}

/* The success line, after every PE has passed every check. */
static inline void pe_test_report_pass(void)
{
    shmem_barrier_all();
    pe_section_set("finalize"); /* the watchdog still covers finalize */
    if (pe_me == 0) {
        printf("all checks passed on %d PEs\n", pe_npes);
        fflush(stdout);
    }
}

static inline int pe_test_finish(void)
{
    pe_test_report_pass();
    shmem_finalize();
    return 0;
}

/* ---- value patterns ----------------------------------------------------- */

/* Test data encodes where it came from and where it should land, so a value
 * delivered to the wrong PE, slot, type or index is caught, not just a
 * missing one. */
static inline uint64_t pe_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t pe_key(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e)
{
    uint64_t h = pe_mix64(a);
    h = pe_mix64(h ^ b);
    h = pe_mix64(h ^ c);
    h = pe_mix64(h ^ d);
    return pe_mix64(h ^ e);
}

/* Integer form of a key: every byte odd, so no byte is ever 0 (the value
 * buffers are cleared to before a transfer). */
static inline uint64_t pe_key_bits(uint64_t key)
{
    return key | 0x0101010101010101ull;
}

/* The key as a nonzero TYPE value that converts exactly: integers take the
 * low bytes, floating types an integer that fits their mantissa (24 bits
 * for float, 53 for double and long double). */
#define PE_IS_FLOATING(TYPE) ((TYPE)0.5 != (TYPE)0)
#define PE_VALUE(TYPE, key)                                                                       \
    (PE_IS_FLOATING(TYPE)                                                                         \
         ? (TYPE)(sizeof(TYPE) <= 4 ? (((key) >> 40) | 1u) : (((key) >> 11) | 1u))                \
         : (TYPE)pe_key_bits(key))

/* Byte patterns for untyped buffers (putmem, large transfers). */
static inline unsigned char pe_pattern_byte(uint64_t seed, size_t i)
{
    return (unsigned char)((pe_mix64(seed ^ (uint64_t)(i / 8) * 0x100000001b3ull) >> (8 * (i % 8))) |
                           1u);
}

static inline void pe_fill_pattern(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = pe_mix64(seed ^ (uint64_t)(i / 8) * 0x100000001b3ull);
        for (size_t b = 0; b < 8 && i + b < n; b++)
            p[i + b] = (unsigned char)((w >> (8 * b)) | 1u);
    }
}

/* First mismatching byte of a pattern check, reported with its offset. */
static inline void pe_check_pattern(const char *file, int line, const char *what, const void *buf,
                                    size_t n, uint64_t seed)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) {
        unsigned char want = pe_pattern_byte(seed, i);
        if (p[i] != want) {
            char expr[192], exp[32], got[32];
            snprintf(expr, sizeof(expr), "%s: byte %zu of %zu", what, i, n);
            snprintf(exp, sizeof(exp), "0x%02x", want);
            snprintf(got, sizeof(got), "0x%02x", p[i]);
            pe_fail(file, line, expr, exp, got);
        }
    }
}

static inline void pe_check_filled(const char *file, int line, const char *what, const void *buf,
                                   size_t n, unsigned char value)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != value) {
            char expr[192], exp[32], got[32];
            snprintf(expr, sizeof(expr), "%s: byte %zu of %zu", what, i, n);
            snprintf(exp, sizeof(exp), "0x%02x", value);
            snprintf(got, sizeof(got), "0x%02x", p[i]);
            pe_fail(file, line, expr, exp, got);
        }
    }
}

#define CHECK_PATTERN(buf, n, seed) pe_check_pattern(__FILE__, __LINE__, #buf, (buf), (n), (seed))
#define CHECK_FILLED(buf, n, value) pe_check_filled(__FILE__, __LINE__, #buf, (buf), (n), (value))

/* Reads a variable another PE writes, without the compiler caching it. */
#define PE_READ(var) (*(volatile __typeof__(var) *)&(var))

#endif /* PE_TEST_H */
