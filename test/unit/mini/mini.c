/*
 * The runner of criterion.h here: every registered test in a child
 * process of its own, one at a time; prints one line per test and exits
 * non-zero if any failed. Arguments: Criterion's -j<N>, which ctest
 * passes and which changes nothing here (one test at a time anyway).
 */
#include "criterion/criterion.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A skipped test's child exits with this: not 0, not a failure's 1. */
#define MINI_SKIPPED 77

static struct ush_mini_test  *tests, **tests_end = &tests;
static struct ush_mini_suite *suites;

/* In the child: where a fatal check or a skip goes, which of the two
 * ended the test, and whether an expectation failed. */
static sigjmp_buf end_of_test;
static enum { RAN, FAILED, SKIPPED } ended;
static bool       expect_failed;

void ush_mini_add_test(struct ush_mini_test *t)
{
    /* In registration order, which is source order within a file. */
    *tests_end = t;
    tests_end  = &t->next;
}

void ush_mini_add_suite(struct ush_mini_suite *s)
{
    s->next = suites;
    suites  = s;
}

void ush_mini_fail(bool fatal, const char *file, int line, const char *what,
                   const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: %s: %s:", file, line, fatal ? "assertion failed" : "expectation failed",
            what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (fatal) {
        ended = FAILED;
        siglongjmp(end_of_test, 1);
    }
    expect_failed = true;
}

void ush_mini_skip(const char *fmt, ...)
{
    va_list ap;
    fputs("skipped:", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    ended = SKIPPED;
    siglongjmp(end_of_test, 1);
}

static const struct ush_mini_opts *suite_opts(const char *name)
{
    static const struct ush_mini_opts none;
    for (struct ush_mini_suite *s = suites; s != NULL; s = s->next) {
        if (strcmp(s->name, name) == 0) return &s->opts;
    }
    return &none;
}

static void run_child(const struct ush_mini_test *t)
{
    /* volatile: read again after a jump back from the test */
    const struct ush_mini_opts *volatile s = suite_opts(t->suite);

    if (t->opts.timeout > 0) alarm((unsigned)ceil(t->opts.timeout));
    if (sigsetjmp(end_of_test, 0) == 0) {
        if (s->init != NULL) s->init();
        if (t->opts.init != NULL) t->opts.init();
        t->fn();
    }
    /* Again: a check failing in .fini must not jump back into the test. */
    if (sigsetjmp(end_of_test, 0) == 0) {
        if (t->opts.fini != NULL) t->opts.fini();
        if (s->fini != NULL) s->fini();
    }
    fflush(NULL);
    _exit(ended == FAILED || expect_failed ? 1 : ended == SKIPPED ? MINI_SKIPPED : 0);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;

    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-j", 2) != 0) {
            fprintf(stderr, "%s: unknown argument '%s' (only -j<N> is taken)\n", argv[0], argv[i]);
            return 2;
        }
    }
    for (struct ush_mini_test *t = tests; t != NULL; t = t->next) {
        int   status;
        pid_t pid;

        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) run_child(t);
        while (waitpid(pid, &status, 0) < 0) {
            if (errno != EINTR) {
                perror("waitpid");
                return 2;
            }
        }

        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            printf("[PASS] %s::%s\n", t->suite, t->name);
            passed++;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == MINI_SKIPPED) {
            printf("[SKIP] %s::%s\n", t->suite, t->name);
            skipped++;
        } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            printf("[FAIL] %s::%s: timed out after %g s\n", t->suite, t->name, t->opts.timeout);
            failed++;
        } else if (WIFSIGNALED(status)) {
            printf("[FAIL] %s::%s: killed by signal %d (%s)\n", t->suite, t->name,
                   WTERMSIG(status), strsignal(WTERMSIG(status)));
            failed++;
        } else {
            printf("[FAIL] %s::%s\n", t->suite, t->name);
            failed++;
        }
    }
    printf("%s: %d tests: %d passed, %d failed, %d skipped\n", argv[0], passed + failed + skipped,
           passed, failed, skipped);
    return failed > 0 || passed + skipped == 0;
}
