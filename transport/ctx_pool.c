/*
 * The workers of created contexts.
 *
 * A UCX worker opens an interface of every transport: on one node a
 * shared-memory receive FIFO (about 1 MiB of /dev/shm) and about ten file
 * descriptors (sockets, eventfds, an epoll set), and it takes milliseconds
 * to make. A worker per context ran a node out of System V segments (when
 * UCX's sysv transport held the FIFOs) at about 2,000 contexts, and out of
 * descriptors sooner. So the workers are a pool: while fewer than
 * ush_tp_ctx_workers_max exist, a new context gets one of its own, in the
 * thread mode its options ask for, as it always did; after that it joins
 * the least loaded worker that every thread may use. What keeps a
 * context's operations its own is its endpoints, not its worker: each
 * context creates its own endpoints to the peers, even on a shared worker,
 * and its quiet flushes those endpoints alone.
 *
 * The list is read by every wait (ush_tp_ctx_progress_all) and written
 * only by create and destroy.
 *
 * Memory ordering: the list, each worker's nctx and the pool's size are
 * written only under the write lock and the list read only under the
 * read lock. Two reads go without it, relaxed, as hints: the pool's size
 * (a wait that reads a stale 0 skips progressing a context another
 * thread has just made, and sees it at its next step; this thread's own
 * creations it always sees), and nctx in ush_tp_quiet (ops.c: either
 * answer flushes the context's operations).
 */
#include "ush_tp_impl.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int ush_tp_ctx_workers_max = 2;

/* File descriptors that must stay free for a new worker: it takes about
 * ten, and UCX 1.13 does not fail cleanly when they run out inside
 * ucp_worker_create (it spins for ever growing a memory pool, or aborts
 * on an active message handler). With less room a context shares one. */
#define USH_TP_WORKER_FD_ROOM 64

static ush_tp_pworker_t *ush_tp_pool;
static int               ush_tp_pool_size; /* atomic reads by waits */
static pthread_rwlock_t  ush_tp_pool_lock = PTHREAD_RWLOCK_INITIALIZER;

/* The least loaded worker in a thread mode of at least share_mode, which
 * any thread may use as the program's thread level allows. */
static ush_tp_pworker_t *ush_tp_pool_least_loaded(ush_tp_thread_t share_mode)
{
    ush_tp_pworker_t *best = NULL;
    for (ush_tp_pworker_t *pw = ush_tp_pool; pw; pw = pw->next) {
        if (pw->mode >= share_mode && (!best || pw->nctx < best->nctx)) best = pw;
    }
    return best;
}

/* Descriptors this process may still open (INT_MAX: no limit). Counted
 * in /proc/self/fd, so only when a worker is about to be made. */
static long ush_tp_fds_free(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return INT_MAX;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return errno == EMFILE || errno == ENFILE ? 0 : INT_MAX;
    long open = -1; /* the directory's own descriptor */
    for (struct dirent *e; (e = readdir(d)) != NULL;) open += e->d_name[0] != '.';
    closedir(d);
    return (long)rl.rlim_cur - open;
}

static ush_tp_status_t ush_tp_pool_add(ush_tp_thread_t mode, ush_tp_pworker_t **pw_out)
{
    long room = ush_tp_fds_free();
    if (room < USH_TP_WORKER_FD_ROOM) {
        ush_tp_set_error("%ld of the %d file descriptors a new UCX worker needs are free "
                         "(ulimit -n)", room < 0 ? 0 : room, USH_TP_WORKER_FD_ROOM);
        return USH_TP_ERR_NOMEM;
    }

    ush_tp_pworker_t *pw = calloc(1, sizeof(*pw));
    if (!pw) return USH_TP_ERR_NOMEM;

    ush_tp_status_t st = ush_tp_worker_create(&mode, &pw->worker);
    if (st != USH_TP_OK) {
        free(pw);
        return st;
    }
    pw->mode  = mode;
    pw->owner = pthread_self();
    pw->next  = ush_tp_pool;
    ush_tp_pool = pw;
    __atomic_store_n(&ush_tp_pool_size, ush_tp_pool_size + 1, __ATOMIC_RELAXED);
    *pw_out = pw;
    return USH_TP_OK;
}

static void ush_tp_pool_remove(ush_tp_pworker_t *pw)
{
    ush_tp_pworker_t **link = &ush_tp_pool;
    while (*link != pw) link = &(*link)->next;
    *link = pw->next;
    __atomic_store_n(&ush_tp_pool_size, ush_tp_pool_size - 1, __ATOMIC_RELAXED);
}

/* A worker for a new context: its own in thread_mode while the pool is
 * below the cap, else a shared one. When no worker can be made (out of
 * file descriptors or segments), sharing is the fallback too. */
static ush_tp_status_t ush_tp_pool_take(ush_tp_thread_t thread_mode,
                                        ush_tp_thread_t share_mode, ush_tp_pworker_t **pw_out)
{
    ush_tp_pworker_t *pw = NULL;
    ush_tp_status_t   st = USH_TP_OK;

    if (ush_tp_pool_size < ush_tp_ctx_workers_max) st = ush_tp_pool_add(thread_mode, &pw);
    if (!pw) pw = ush_tp_pool_least_loaded(share_mode);
    /* Every worker is confined to one thread (private contexts under
     * SHMEM_THREAD_MULTIPLE): one more, which all threads may share. */
    if (!pw && st == USH_TP_OK) st = ush_tp_pool_add(share_mode, &pw);
    if (!pw) return st;
    __atomic_store_n(&pw->nctx, pw->nctx + 1, __ATOMIC_RELAXED);
    *pw_out = pw;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_ctx_create(ush_tp_thread_t thread_mode, ush_tp_thread_t share_mode,
                                  ush_tp_ctx_t **ctx_out)
{
    ush_tp_pworker_t *pw = NULL;
    ush_tp_ctx_t     *c  = calloc(1, sizeof(*c));
    ush_tp_status_t   st;

    if (!c) return USH_TP_ERR_NOMEM;
    pthread_rwlock_wrlock(&ush_tp_pool_lock);
    st = ush_tp_pool_take(thread_mode, share_mode, &pw);
    pthread_rwlock_unlock(&ush_tp_pool_lock);
    if (st == USH_TP_OK) st = ush_tp_ctx_init(c, pw->worker, pw->mode);
    c->pw = pw;
    if (st != USH_TP_OK) {
        if (pw) ush_tp_ctx_destroy(c);
        else free(c);
        return st;
    }
    *ctx_out = c;
    return USH_TP_OK;
}

void ush_tp_ctx_destroy(ush_tp_ctx_t *c)
{
    ush_tp_pworker_t *pw = c->pw;
    int               last;

    if (c->peers.page) ush_tp_quiet(c);
    ush_tp_ctx_fini(c);
    free(c);

    pthread_rwlock_wrlock(&ush_tp_pool_lock);
    last = pw->nctx == 1;
    __atomic_store_n(&pw->nctx, pw->nctx - 1, __ATOMIC_RELAXED);
    if (last) ush_tp_pool_remove(pw);
    pthread_rwlock_unlock(&ush_tp_pool_lock);
    /* Out of the list, so no wait progresses it any more. */
    if (last) {
        ucp_worker_destroy(pw->worker);
        free(pw);
    }
}

void ush_tp_ctx_progress_all(int multiple)
{
    if (!__atomic_load_n(&ush_tp_pool_size, __ATOMIC_RELAXED)) return;
    pthread_t me = pthread_self();
    pthread_rwlock_rdlock(&ush_tp_pool_lock);
    for (ush_tp_pworker_t *pw = ush_tp_pool; pw; pw = pw->next) {
        /* Under THREAD_MULTIPLE a thread may drive a thread-safe worker,
         * or a single-threaded one it made itself (its private context);
         * a serialized one is left to the threads that use it. */
        if (!multiple || pw->mode == USH_TP_THREAD_MULTI ||
            (pw->mode == USH_TP_THREAD_SINGLE && pthread_equal(pw->owner, me))) {
            ucp_worker_progress(pw->worker);
        }
    }
    pthread_rwlock_unlock(&ush_tp_pool_lock);
}

int ush_tp_ctx_workers(void)
{
    return __atomic_load_n(&ush_tp_pool_size, __ATOMIC_RELAXED);
}
