/*
 * Faults that must end the whole job at once, with one line that names
 * the PE: a PE leaving early without shmem_finalize (its implicit finalize
 * at exit finds no partner in time), and a PE killed by a fatal signal.
 *
 * Under oshrun the launcher sees every PE's death and PMIx_Abort itself
 * and reports it in one line ("oshrun: PE n ..."), so the library says
 * nothing more there. Under srun and mpirun the launcher's own reports are
 * long or late, so the library prints the line and ends the job through
 * PMIx_Abort.
 */
#include "ush.h"
#include "ush_fault.h"
#include "transport/ush_tp.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int ush_fault_under_oshrun(void)
{
    const char *l = getenv("SHMEM_LAUNCHER");
    return l != NULL && strcmp(l, "oshrun") == 0;
}

static int          ush_fault_exit_done; /* atomic: set by the exiting thread */
static int          ush_fault_exit_code;

static void *ush_fault_exit_timer(void *arg)
{
    struct timespec ts = { USH_FAULT_EXIT_WAIT_MS / 1000,
                           (USH_FAULT_EXIT_WAIT_MS % 1000) * 1000000L };
    char            msg[256];
    int             code = ush_fault_exit_code;

    (void)arg;
    nanosleep(&ts, NULL);
    if (__atomic_load_n(&ush_fault_exit_done, __ATOMIC_ACQUIRE)) return NULL;
    snprintf(msg, sizeof(msg),
             "ushmem: PE %d exited (status %d) without calling shmem_finalize; call it on "
             "every PE before exiting",
             ush_g.my_pe, code);
    if (!ush_fault_under_oshrun()) {
        fprintf(stderr, "%s\n", msg);
    }
    ush_tp_abort(code ? code : 1, msg);
    return NULL;
}

void ush_fault_exit_watchdog(int code)
{
    pthread_t tid;

    ush_fault_exit_code = code;
    __atomic_store_n(&ush_fault_exit_done, 0, __ATOMIC_RELEASE);
    if (pthread_create(&tid, NULL, ush_fault_exit_timer, NULL) == 0) {
        pthread_detach(tid);
    }
}

void ush_fault_exit_watchdog_done(void)
{
    __atomic_store_n(&ush_fault_exit_done, 1, __ATOMIC_RELEASE);
}

const char *ush_fault_global_exit_msg(int status)
{
    static char msg[128];
    snprintf(msg, sizeof(msg), "ushmem: PE %d called shmem_global_exit(%d)", ush_g.my_pe,
             status);
    /* srun and mpirun do not print PMIx_Abort's message: say it here
     * (status 0 is a normal end, not worth a line) */
    if (status != 0 && !ush_fault_under_oshrun()) {
        fprintf(stderr, "%s\n", msg);
        fflush(stderr);
    }
    return msg;
}

/* Fatal signals. The handler formats its line by hand and writes it with
 * one write(2), has the launcher asked to end the job (PMIx_Abort: srun
 * takes over a second to notice a PE's death by itself) and the PEs on
 * this node ended (transport/bootstrap.c: a helper thread makes the call,
 * the handler only uses async-signal-safe calls and waits a bounded time),
 * then dies of the signal (status 128+S) through the handler that was
 * there before (UCX prints a backtrace) or the default. */
static const struct {
    int         sig;
    const char *name;
} ush_fault_sigs[] = {
    { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGILL, "SIGILL" },
    { SIGFPE, "SIGFPE" },   { SIGABRT, "SIGABRT" },
};
#define USH_FAULT_NSIGS (sizeof(ush_fault_sigs) / sizeof(ush_fault_sigs[0]))

static struct sigaction ush_fault_old[USH_FAULT_NSIGS];
static int              ush_fault_installed;
static int              ush_fault_pe = -1;

static char *ush_fault_put(char *p, const char *end, const char *s)
{
    while (*s && p < end) *p++ = *s++;
    return p;
}

static char *ush_fault_put_int(char *p, const char *end, int v)
{
    char digits[16];
    int  n = 0;
    if (v < 0) {
        p = ush_fault_put(p, end, "-");
        v = -v;
    }
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < (int)sizeof(digits));
    while (n && p < end) *p++ = digits[--n];
    return p;
}

static void ush_fault_handler(int sig)
{
    char        line[128], *p = line, *end = line + sizeof(line) - 1;
    const char *name = "a fatal signal";
    unsigned    i;

    for (i = 0; i < USH_FAULT_NSIGS; i++) {
        if (ush_fault_sigs[i].sig == sig) name = ush_fault_sigs[i].name;
    }
    p = ush_fault_put(p, end, "ushmem: PE ");
    p = ush_fault_put_int(p, end, ush_fault_pe);
    p = ush_fault_put(p, end, ": killed by ");
    p = ush_fault_put(p, end, name);
    p = ush_fault_put(p, end, "; the job ends\n");
    if (write(STDERR_FILENO, line, (size_t)(p - line)) < 0) {
        /* nothing more to say */
    }
    /* the signal is blocked here, so the raise lands on return (a real
     * fault would also recur) in the handler that was there before */
    for (i = 0; i < USH_FAULT_NSIGS; i++) {
        if (ush_fault_sigs[i].sig == sig) sigaction(sig, &ush_fault_old[i], NULL);
    }
    *p = '\0';
    ush_tp_abort_from_signal(128 + sig, line);
    raise(sig);
}

void ush_fault_init(void)
{
    struct sigaction sa;
    unsigned         i;

    ush_fault_pe = ush_g.my_pe;
    if (ush_fault_installed || ush_fault_under_oshrun()) return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = ush_fault_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    ush_tp_abort_prepare();
    for (i = 0; i < USH_FAULT_NSIGS; i++) {
        sigaction(ush_fault_sigs[i].sig, &sa, &ush_fault_old[i]);
    }
    ush_fault_installed = 1;
}

void ush_fault_fini(void)
{
    unsigned i;

    if (!ush_fault_installed) return;
    for (i = 0; i < USH_FAULT_NSIGS; i++) {
        sigaction(ush_fault_sigs[i].sig, &ush_fault_old[i], NULL);
    }
    ush_tp_abort_release();
    ush_fault_installed = 0;
}
