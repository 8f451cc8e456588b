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
#include "ush_rma.h"
#include "transport/ush_tp.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct ush_ctx ush_ctx_default;
/* Programs hold a copy of this object (a copy relocation, sized when they
 * were linked) and the library uses that copy: its size must not change
 * (as for the predefined teams, ush_team.h). */
_Static_assert(sizeof(struct ush_ctx) == 64,
               "struct ush_ctx changed size: programs linked against the library hold a "
               "copy of SHMEM_CTX_DEFAULT's object");

/* Every created context is a slot of this table (4 MiB of address space,
 * touched a page at a time as contexts are made), so a handle is checked
 * by its address alone (ush_check.h). Slots are handed out in order and
 * reused only once all have been, oldest destroyed first. */
struct ush_ctx_table ush_ctx_table;

/* Live created contexts: finalize destroys the ones the program did not.
 * Only create and destroy touch the list, the count, the slots handed out
 * and the destroyed ones waiting for reuse, all under the lock. */
static struct ush_ctx  *ush_ctx_list;
static int              ush_ctx_count;
static int              ush_ctx_used;
static struct ush_ctx  *ush_ctx_reuse_head, *ush_ctx_reuse_tail;
static pthread_mutex_t  ush_ctx_lock = PTHREAD_MUTEX_INITIALIZER;

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
static void ush_ctx_report_failure(const char *routine)
{
    char share[128] = "";
    int  made       = ush_tp_ctx_workers();
    if (made) {
        snprintf(share, sizeof(share), ", or lower SHMEM_CTX_WORKERS (now %d) to share the %d made",
                 ush_tp_ctx_workers_max, made);
    }
    ush_warn(routine, "no UCX worker for the context: %s; raise the open-file limit "
             "(ulimit -n) or free /dev/shm%s", ush_tp_strerror(), share);
}

void ush_ctx_table_init(void)
{
    if (ush_ctx_table.base) return; /* a second shmem_init: handles stay known */
    size_t bytes = (size_t)USH_CTX_MAX * sizeof(struct ush_ctx);
    void  *p     = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        ush_fatal("shmem_init", "cannot reserve %zu bytes of address space for the table of "
                  "contexts: %s", bytes, strerror(errno));
    }
    ush_ctx_table = (struct ush_ctx_table){ .base = p, .bytes = bytes };
}

int ush_ctx_create(const char *routine, struct ush_team *team, int pe_start, int pe_stride,
                   int pe_size, long options, shmem_ctx_t *ctx)
{
    if (options & ~USH_CTX_OPTIONS) {
        ush_warn(routine, "options 0x%lx has bits that are not SHMEM_CTX_* options", options);
        return -1;
    }
    /* Options 0 give the thread mode every thread may use: what a shared
     * worker needs. */
    struct ush_tp_ctx *tp;
    if (ush_tp_ctx_create(ush_ctx_thread_mode(options), ush_ctx_thread_mode(0), &tp) !=
        USH_TP_OK) {
        ush_ctx_report_failure(routine);
        return -1;
    }

    pthread_mutex_lock(&ush_ctx_lock);
    struct ush_ctx *c = NULL;
    if (ush_ctx_used < USH_CTX_MAX) {
        c = &ush_ctx_table.base[ush_ctx_used++];
    } else if (ush_ctx_reuse_head) {
        c = ush_ctx_reuse_head;
        ush_ctx_reuse_head = c->next;
        if (!ush_ctx_reuse_head) ush_ctx_reuse_tail = NULL;
    }
    if (c) {
        *c = (struct ush_ctx){ .tp = tp, .options = options, .team = team,
                               .pe_start = pe_start, .pe_stride = pe_stride,
                               .pe_size = pe_size, .next = ush_ctx_list };
        if (ush_ctx_list) ush_ctx_list->prev = c;
        ush_ctx_list = c;
        __atomic_store_n(&ush_ctx_count, ush_ctx_count + 1, __ATOMIC_RELAXED);
        /* Last: a thread that reads the handle sees a whole context. */
        __atomic_store_n(&c->state, USH_CTX_LIVE, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&ush_ctx_lock);
    if (!c) {
        ush_tp_ctx_destroy(tp);
        ush_warn(routine, "%d contexts are alive, the most a PE can have; destroy "
                 "some first", USH_CTX_MAX);
        return -1;
    }
    *ctx = c;
    return 0;
}

void ush_ctx_free(struct ush_ctx *c)
{
    pthread_mutex_lock(&ush_ctx_lock);
    if (c->prev) c->prev->next = c->next; else ush_ctx_list = c->next;
    if (c->next) c->next->prev = c->prev;
    __atomic_store_n(&ush_ctx_count, ush_ctx_count - 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ush_ctx_lock);
    /* Destroying a context completes its outstanding operations. */
    ush_quiet(c);
    ush_tp_ctx_destroy(c->tp);

    pthread_mutex_lock(&ush_ctx_lock);
    __atomic_store_n(&c->state, USH_CTX_DESTROYED, __ATOMIC_RELAXED);
    c->tp      = NULL;
    c->pe_size = 0;
    c->prev    = NULL;
    c->next    = NULL;
    if (ush_ctx_reuse_tail) ush_ctx_reuse_tail->next = c; else ush_ctx_reuse_head = c;
    ush_ctx_reuse_tail = c;
    pthread_mutex_unlock(&ush_ctx_lock);
}

void ush_ctx_progress_all(void)
{
    if (!__atomic_load_n(&ush_ctx_count, __ATOMIC_RELAXED)) return;
    ush_tp_ctx_progress_all(ush_g.thread_level == SHMEM_THREAD_MULTIPLE);
}

void ush_ctx_destroy_all(void)
{
    while (ush_ctx_list) ush_ctx_free(ush_ctx_list);
}
