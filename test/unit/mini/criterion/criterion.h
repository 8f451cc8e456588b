/*
 * The part of Criterion's interface the unit tests use, for a target
 * Debian has no Criterion for (ppc64el): Test, TestSuite with .init,
 * .fini and .timeout, the cr_assert and cr_expect checks, cr_skip_test.
 * test/unit/CMakeLists.txt puts this directory on the include path only
 * there; mini.c is the runner (main). As with Criterion, every test runs
 * in a process of its own, after its suite's .init and before its .fini.
 */
#ifndef USH_MINI_CRITERION_H_
#define USH_MINI_CRITERION_H_

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct ush_mini_opts {
    void   (*init)(void);
    void   (*fini)(void);
    double timeout; /* seconds; 0: none (ctest's applies) */
};

struct ush_mini_test {
    const char            *suite, *name;
    void                  (*fn)(void);
    struct ush_mini_opts  opts;
    struct ush_mini_test  *next;
};

struct ush_mini_suite {
    const char            *name;
    struct ush_mini_opts  opts;
    struct ush_mini_suite *next;
};

void ush_mini_add_test(struct ush_mini_test *t);
void ush_mini_add_suite(struct ush_mini_suite *s);

/* A failed check: prints where and why; a fatal one ends the test (its
 * .fini still runs), an expectation lets it go on and fail at the end. */
__attribute__((format(printf, 5, 6)))
void ush_mini_fail(bool fatal, const char *file, int line, const char *what,
                   const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void ush_mini_skip(const char *fmt, ...);

#define Test(suite, name, ...)                                                          \
    static void ush_mini_fn_##suite##_##name(void);                                     \
    static struct ush_mini_test ush_mini_test_##suite##_##name = {                      \
        #suite, #name, ush_mini_fn_##suite##_##name, { __VA_ARGS__ }, NULL };           \
    __attribute__((constructor)) static void ush_mini_add_##suite##_##name(void)        \
    {                                                                                   \
        ush_mini_add_test(&ush_mini_test_##suite##_##name);                             \
    }                                                                                   \
    static void ush_mini_fn_##suite##_##name(void)

/* Ends in a definition, so the caller's ';' closes it. */
#define TestSuite(suite, ...)                                                           \
    static struct ush_mini_suite ush_mini_suite_##suite;                                \
    __attribute__((constructor)) static void ush_mini_add_suite_##suite(void)           \
    {                                                                                   \
        ush_mini_add_suite(&ush_mini_suite_##suite);                                    \
    }                                                                                   \
    static struct ush_mini_suite ush_mini_suite_##suite = { #suite, { __VA_ARGS__ }, NULL }

/* The message is optional, and when given starts with a string literal
 * (as in every test here): " " joins it, and is the whole format without
 * one (an empty format would trip -Wformat-zero-length). */
#define ush_mini_check(fatal, cond, what, ...)                                          \
    do {                                                                                \
        if (!(cond)) ush_mini_fail(fatal, __FILE__, __LINE__, what, " " __VA_ARGS__);   \
    } while (0)

#define cr_assert(c, ...)            ush_mini_check(true, c, #c, __VA_ARGS__)
#define cr_expect(c, ...)            ush_mini_check(false, c, #c, __VA_ARGS__)
#define cr_assert_eq(a, b, ...)      ush_mini_check(true, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_expect_eq(a, b, ...)      ush_mini_check(false, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...)     ush_mini_check(true, (a) != (b), #a " != " #b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...)      ush_mini_check(true, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...)      ush_mini_check(true, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_assert_null(p, ...)       ush_mini_check(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...)   ush_mini_check(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_expect_not_null(p, ...)   ush_mini_check(false, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...)                                                     \
    ush_mini_check(true, strcmp((a), (b)) == 0, #a " equals " #b, __VA_ARGS__)
#define cr_assert_fail(...)          ush_mini_check(true, false, "failed", __VA_ARGS__)
#define cr_skip_test(...)            ush_mini_skip(" " __VA_ARGS__)

#endif
