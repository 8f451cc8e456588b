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
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Read once, by ush_fault_init at shmem_init: the verdict is given from
 * the timer thread too, and getenv is not safe against a setenv in
 * another thread. */
static int ush_fault_oshrun = -1;

static int ush_fault_under_oshrun(void)
{
    if (ush_fault_oshrun < 0) {
        const char *l    = getenv("SHMEM_LAUNCHER");
        ush_fault_oshrun = l != NULL && strcmp(l, "oshrun") == 0;
    }
    return ush_fault_oshrun;
}

/* An exit without shmem_finalize (see ush_fault.h). The exiting PE
 * waits in the exit barrier, which only PEs that exit as well can join;
 * it decides that it left early in one of two ways:
 *  - in USH_FAULT_LOOKS consecutive looks at the other PEs' wait beacons
 *    (USH_FAULT_POLL_MS apart), each PE not exiting as well sat in one
 *    wait and took steps between every two looks: nothing but this PE can
 *    end those waits, so the job ends at once (the usual case: the others
 *    are in a barrier). Two intervals, not one: a wait this PE satisfied
 *    before exiting may still take a step (and publish it) after the first
 *    look, never in both. The exiting thread takes the looks itself, from
 *    its exit barrier's wait steps (ush_fault_exit_look): mapped peers'
 *    beacons with loads, the others' with gets, which a peer stuck in a
 *    wait serves (it progresses UCX);
 *  - USH_FAULT_EXIT_WAIT_MS have passed (a timer thread): the others are
 *    presumed still working (computing, or polling in a loop of their
 *    own), or a look could not be taken.
 * A thread other than the waiting one may end a wait when the program
 * calls OpenSHMEM from several threads, so the beacons count only below
 * SHMEM_THREAD_SERIALIZED. The lock keeps the verdict apart from the
 * exiting thread disarming the watch (after which shmem_finalize unmaps
 * the peers): a verdict keeps it until the job has ended. */
#define USH_FAULT_POLL_MS 10
#define USH_FAULT_LOOKS   3

static struct {
    pthread_mutex_t lock;
    int             done; /* disarmed: the job is ending together */
    int             code;
    /* the looks, oldest first; only the exiting thread touches these */
    uint64_t       *buf, *look[USH_FAULT_LOOKS];
    int             looks;   /* consecutive looks so far */
    int             looking; /* a look's own gets wait: no look inside one */
    uint64_t        next_ns; /* CLOCK_MONOTONIC of the next look */
} ush_fault_exit = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t ush_fault_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Every PE's beacon into out: loads where mapped, gets elsewhere.
 *
 * Ordering: the verdict compares values of each beacon word with earlier
 * values of the same word, and every CPU sees one word's stores in one
 * order (coherence), so the steps need no more than relaxed stores; the
 * acquire here pairs with the exiting mark's release but nothing depends
 * on it. What the looks cannot get from the memory model is a bound on
 * how late a peer's step is seen, or how late the peer sees this PE's
 * last store: that is what the two 10 ms intervals are for, with this
 * PE's own stores made visible first (the quiet in ush_fault_exit_watchdog)
 * and the peer's step published one wait step after its load of the
 * condition (a reordering window of nanoseconds on any CPU). */
static void ush_fault_read_beacons(uint64_t *out)
{
    int remote = 0;

    for (int pe = 0; pe < ush_g.n_pes; pe++) {
        const uint64_t *b = ush_ptr(ush_wait_beacon, pe);
        if (b != NULL) {
            out[pe] = __atomic_load_n(b, __ATOMIC_ACQUIRE);
        } else {
            ush_get_nbi(SHMEM_CTX_DEFAULT, &out[pe], ush_wait_beacon, sizeof(*out), pe);
            remote = 1;
        }
    }
    if (remote) ush_quiet(SHMEM_CTX_DEFAULT);
}

/* look[0..USH_FAULT_LOOKS-1], oldest first: every other PE exiting since
 * before the first look, or in one wait throughout and stepping between
 * every two looks; one at least waiting. (A PE that began to exit during
 * the looks may have ended waits meanwhile: that needs another round.) */
static int ush_fault_all_stuck(uint64_t *const *look)
{
    int waiting = 0;
    for (int pe = 0; pe < ush_g.n_pes; pe++) {
        uint64_t first = look[0][pe];
        if (pe == ush_g.my_pe || first == USH_WAIT_BEACON_EXITING) continue;
        if ((first >> 32) == 0) return 0;
        for (int i = 1; i < USH_FAULT_LOOKS; i++) {
            if ((look[i][pe] >> 32) != (first >> 32) || look[i][pe] == look[i - 1][pe]) return 0;
        }
        waiting++;
    }
    return waiting > 0;
}

/* The verdict, with the lock held: one line, then the job ends; the lock
 * stays taken, so the exiting thread cannot go on to unmap anything. */
static void ush_fault_left_early(void)
{
    char msg[256];

    snprintf(msg, sizeof(msg),
             "ushmem: PE %d exited (status %d) without calling shmem_finalize; call it on "
             "every PE before exiting",
             ush_g.my_pe, ush_fault_exit.code);
    if (!ush_fault_under_oshrun()) {
        fprintf(stderr, "%s\n", msg);
    }
    ush_tp_abort(ush_fault_exit.code ? ush_fault_exit.code : 1, msg);
}

void ush_fault_exit_look(void)
{
    uint64_t now;

    /* The thread level first: it is fixed at shmem_init, and below
     * SERIALIZED the exiting thread is the only one that calls the library,
     * so it alone reaches the plain fields below. At SERIALIZED and above
     * another thread's wait may get here (it saw the exiting mark, a relaxed
     * load that orders nothing) and must not read buf, which the exiting
     * thread writes. done is read relaxed: a stale 0 only means the verdict
     * takes the lock and finds it set there. */
    if (ush_g.thread_level >= SHMEM_THREAD_SERIALIZED || ush_fault_exit.looking ||
        ush_fault_exit.buf == NULL || __atomic_load_n(&ush_fault_exit.done, __ATOMIC_RELAXED) ||
        ush_wait_beacon == NULL) {
        return;
    }
    now = ush_fault_now_ns();
    if (now < ush_fault_exit.next_ns) return;
    ush_fault_exit.next_ns = now + USH_FAULT_POLL_MS * 1000000u;
    ush_fault_exit.looking = 1;
    if (ush_fault_exit.looks == USH_FAULT_LOOKS) { /* the oldest look makes room */
        uint64_t *oldest = ush_fault_exit.look[0];
        memmove(ush_fault_exit.look, ush_fault_exit.look + 1,
                (USH_FAULT_LOOKS - 1) * sizeof(oldest));
        ush_fault_exit.look[USH_FAULT_LOOKS - 1] = oldest;
        ush_fault_exit.looks--;
    }
    ush_fault_read_beacons(ush_fault_exit.look[ush_fault_exit.looks]);
    if (++ush_fault_exit.looks == USH_FAULT_LOOKS && ush_fault_all_stuck(ush_fault_exit.look)) {
        pthread_mutex_lock(&ush_fault_exit.lock);
        if (!ush_fault_exit.done) ush_fault_left_early();
        pthread_mutex_unlock(&ush_fault_exit.lock);
    }
    ush_fault_exit.looking = 0;
}

/* The bound is a deadline on the monotonic clock, not a count of naps:
 * with PEs outnumbering cores every nap oversleeps, and sixty of them
 * added up to twice the bound. */
static void *ush_fault_exit_timer(void *arg)
{
    const struct timespec poll     = { 0, USH_FAULT_POLL_MS * 1000000L };
    uint64_t              deadline = ush_fault_now_ns() + USH_FAULT_EXIT_WAIT_MS * 1000000ull;

    (void)arg;
    pthread_mutex_lock(&ush_fault_exit.lock);
    while (!ush_fault_exit.done && ush_fault_now_ns() < deadline) {
        pthread_mutex_unlock(&ush_fault_exit.lock);
        nanosleep(&poll, NULL);
        pthread_mutex_lock(&ush_fault_exit.lock);
    }
    if (!ush_fault_exit.done) ush_fault_left_early();
    pthread_mutex_unlock(&ush_fault_exit.lock);
    return NULL;
}

void ush_fault_exit_watchdog(int code)
{
    pthread_t tid;
    size_t    n = (size_t)ush_g.n_pes;

    ush_fault_exit.code    = code;
    ush_fault_exit.done    = 0;
    ush_fault_exit.looks   = 0;
    ush_fault_exit.next_ns = 0;
    ush_fault_exit.buf     = calloc(USH_FAULT_LOOKS * n, sizeof(uint64_t));
    for (int i = 0; i < USH_FAULT_LOOKS; i++) {
        ush_fault_exit.look[i] = ush_fault_exit.buf ? ush_fault_exit.buf + i * n : NULL;
    }
    /* The timer thread reads code and done after pthread_create, which
     * orders these stores before it. */
    if (pthread_create(&tid, NULL, ush_fault_exit_timer, NULL) == 0) {
        pthread_detach(tid);
    }
    /* Complete what this PE sent before exiting (the full fence of quiet
     * for stores through mappings, a flush for UCX), before the exiting
     * mark and the first look: a peer whose wait this PE satisfied must be
     * able to see it well within one look's interval. Without the fence a
     * last flag store could still sit in this CPU's store buffer when the
     * looks read the peer's beacon (store-to-load order is not kept even
     * on x86), and a UCX put could still be in flight. The timer is armed
     * first, so a flush that cannot finish still ends in a verdict. */
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_wait_beacon_exiting();
}

void ush_fault_exit_watchdog_done(void)
{
    pthread_mutex_lock(&ush_fault_exit.lock);
    __atomic_store_n(&ush_fault_exit.done, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ush_fault_exit.lock);
    free(ush_fault_exit.buf);
    ush_fault_exit.buf = NULL;
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

    ush_fault_pe     = ush_g.my_pe;
    ush_fault_oshrun = -1; /* the environment may differ from a past init's */
    int oshrun       = ush_fault_under_oshrun();
    if (ush_fault_installed || oshrun) return;
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
