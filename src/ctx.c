/*
 * Communication contexts. SHMEM_CTX_DEFAULT is the address of
 * ush_ctx_default, so it is a constant and costs no load. A context made
 * from a team takes PE numbers relative to that team.
 *
 * Every created context has endpoints of its own, so its operations,
 * quiet and fence are its own. Its UCX worker is its own too while few
 * contexts exist (transport/ctx_pool.c; SHMEM_CTX_WORKERS), so threads
 * with separate contexts do not contend; the worker's thread mode follows
 * the options: PRIVATE needs no locking (one thread), SERIALIZED leaves
 * the ordering to the program, anything else is shared by threads under
 * SHMEM_THREAD_MULTIPLE. Later contexts share workers in the mode every
 * thread may use. Endpoints reach the peers' default workers, which serve
 * all incoming traffic.
 */
#include "ush.h"
#include "ush_check.h"
#include "ush_profiling.h"
#include "ush_rma.h"
#include "ush_team.h"
#include "transport/ush_tp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct ush_ctx ush_ctx_default;

/* Live created contexts: waiting loops progress them, and finalize
 * completes and frees the ones the program did not destroy. Waits read
 * the list; only create and destroy write it. */
static struct ush_ctx   *ush_ctx_list;
static int               ush_ctx_count;
static pthread_rwlock_t  ush_ctx_list_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Destroyed contexts SHMEM_DEBUG keeps until finalize, marked
 * USH_CTX_DESTROYED and with no members, so a put through a stale handle
 * is reported (ush_check.h) instead of using freed memory. Their UCX
 * workers are gone; only the small objects stay. Under the list's lock. */
static struct ush_ctx   *ush_ctx_destroyed;

#define USH_CTX_OPTIONS (SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)

static ush_tp_thread_t ush_ctx_thread_mode(long options)
{
    if (options & SHMEM_CTX_PRIVATE) return USH_TP_THREAD_SINGLE;
    switch (ush_g.thread_level) {
    case SHMEM_THREAD_MULTIPLE:
        return (options & SHMEM_CTX_SERIALIZED) ? USH_TP_THREAD_SERIALIZED : USH_TP_THREAD_MULTI;
    case SHMEM_THREAD_SERIALIZED:
        return USH_TP_THREAD_SERIALIZED;
    default: /* SINGLE, FUNNELED: one thread calls the library */
        return USH_TP_THREAD_SINGLE;
    }
}

/* One line, whatever UCX said: why, and what would let it succeed. */
static void ush_ctx_report_failure(void)
{
    char share[128] = "";
    int  made       = ush_tp_ctx_workers();
    if (made) {
        snprintf(share, sizeof(share), ", or lower SHMEM_CTX_WORKERS (now %d) to share the %d made",
                 ush_tp_ctx_workers_max, made);
    }
    ush_warn("shmem_ctx_create", "no UCX worker for the context: %s; raise the open-file limit "
             "(ulimit -n) or free System V segments (ipcs -m)%s", ush_tp_strerror(), share);
}

USH_API(int, shmem_team_create_ctx)(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    USH_CHECK_INIT("shmem_team_create_ctx");
    if (!ctx) ush_fatal("shmem_team_create_ctx", "ctx is NULL; pass the address of a shmem_ctx_t");
    *ctx = SHMEM_CTX_INVALID;
    USH_CHECK_TEAM("shmem_team_create_ctx", "team", team);
    if (team == SHMEM_TEAM_INVALID || team->my_pe < 0) return -1;
    if (options & ~USH_CTX_OPTIONS) {
        ush_warn("shmem_ctx_create", "options 0x%lx has bits that are not SHMEM_CTX_* options",
                 options);
        return -1;
    }

    struct ush_ctx *c = calloc(1, sizeof(*c));
    if (!c) return -1;
    /* Options 0 give the thread mode every thread may use: what a shared
     * worker needs. */
    if (ush_tp_ctx_create(ush_ctx_thread_mode(options), ush_ctx_thread_mode(0), &c->tp) !=
        USH_TP_OK) {
        ush_ctx_report_failure();
        free(c);
        return -1;
    }
    c->options   = options;
    c->team      = team;
    c->pe_start  = team->start;
    c->pe_stride = team->stride;
    c->pe_size   = team->size;

    pthread_rwlock_wrlock(&ush_ctx_list_lock);
    c->next = ush_ctx_list;
    if (ush_ctx_list) ush_ctx_list->prev = c;
    ush_ctx_list = c;
    __atomic_store_n(&ush_ctx_count, ush_ctx_count + 1, __ATOMIC_RELAXED);
    pthread_rwlock_unlock(&ush_ctx_list_lock);
    *ctx = c;
    return 0;
}

USH_API(int, shmem_ctx_create)(long options, shmem_ctx_t *ctx)
{
    return pshmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

/* keep: mark c destroyed and keep it (SHMEM_DEBUG) instead of freeing. */
static void ush_ctx_free(struct ush_ctx *c, int keep)
{
    pthread_rwlock_wrlock(&ush_ctx_list_lock);
    if (c->prev) c->prev->next = c->next; else ush_ctx_list = c->next;
    if (c->next) c->next->prev = c->prev;
    __atomic_store_n(&ush_ctx_count, ush_ctx_count - 1, __ATOMIC_RELAXED);
    pthread_rwlock_unlock(&ush_ctx_list_lock);
    /* Destroying a context completes its outstanding operations. */
    ush_quiet(c);
    ush_tp_ctx_destroy(c->tp);
    if (!keep) {
        free(c);
        return;
    }
    c->tp       = NULL;
    c->pe_size  = 0;
    c->options |= USH_CTX_DESTROYED;
    c->prev     = NULL;
    pthread_rwlock_wrlock(&ush_ctx_list_lock);
    c->next           = ush_ctx_destroyed;
    ush_ctx_destroyed = c;
    pthread_rwlock_unlock(&ush_ctx_list_lock);
}

USH_API(void, shmem_ctx_destroy)(shmem_ctx_t ctx)
{
    USH_CHECK_INIT("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) {
        ush_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    }
    USH_CHECK_CTX_LIVE("shmem_ctx_destroy", ctx);
    ush_ctx_free(ctx, ush_g.env.debug);
}

void ush_ctx_progress_all(void)
{
    if (!__atomic_load_n(&ush_ctx_count, __ATOMIC_RELAXED)) return;
    ush_tp_ctx_progress_all(ush_g.thread_level == SHMEM_THREAD_MULTIPLE);
}

void ush_ctx_destroy_all(void)
{
    while (ush_ctx_list) ush_ctx_free(ush_ctx_list, 0);
    while (ush_ctx_destroyed) {
        struct ush_ctx *c = ush_ctx_destroyed;
        ush_ctx_destroyed = c->next;
        free(c);
    }
}

USH_API(int, shmem_ctx_get_team)(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (!team) return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}

/* SOS's shmemx_ names of the team context routines (USHMEM_X_LIST_TEAM of
 * <shmemx.h>). */
USH_SHMEMX_ALIAS(team_create_ctx)
USH_SHMEMX_ALIAS(ctx_get_team)
