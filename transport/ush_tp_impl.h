/*
 * Transport internals shared by the files of transport/.
 */
#ifndef USH_TP_IMPL_H
#define USH_TP_IMPL_H

#include "ush_tp.h"
#include <pthread.h>
#include <sys/types.h>
#include <ucp/api/ucp.h>

/* A segment backed by a memfd that node-local peers open through
 * /proc/<pid>/fd/<fd> and map (shared.c); len 0 when not shared. */
typedef struct {
    int32_t  pid;
    int32_t  fd;
    uint64_t offset; /* of the segment's base within the mapping */
    uint64_t len;    /* of the mapping */
} ush_tp_share_t;

/* The fixed head of a PE's wire-up blob (ucx.c has the whole layout). */
typedef struct {
    uint32_t nsegs;
    uint32_t addr_len;
    int32_t  pid;    /* on its node (abort.c ends node-local peers) */
    uint32_t thread; /* its ush_tp_thread_provided */
    uint64_t pidns;  /* ush_tp_pidns() of the peer */
    uint64_t start;  /* ush_tp_proc_start() of the peer */
} ush_tp_blob_head_t;

/* A look-ahead of a peer (ush_tp_peer_ahead): PMIx's thread stores what
 * it read and mapped, then the state (release). */
enum { USH_TP_AHEAD_NONE, USH_TP_AHEAD_PENDING, USH_TP_AHEAD_READY, USH_TP_AHEAD_FAILED };

/* What a PE published about itself at wire-up, read on first use and
 * then pointed to from its page (ush_tp_page_t). */
typedef struct ush_tp_peer {
    ush_tp_blob_head_t head;
    void              *worker_addr;     /* ucp worker address blob */
    uint64_t           seg_base[USH_TP_MAX_SEGS];
    uint64_t           seg_size[USH_TP_MAX_SEGS];
    void              *rkey_buf[USH_TP_MAX_SEGS]; /* packed rkeys */
    ush_tp_share_t     share[USH_TP_MAX_SEGS];
    char              *share_map[USH_TP_MAX_SEGS]; /* where we mapped it, or NULL */
} ush_tp_peer_t;

/* A worker of created contexts (ctx_pool.c). Up to a cap, each context
 * gets one of its own; beyond it, contexts share the least loaded worker
 * whose thread mode all of them can use. */
typedef struct ush_tp_pworker {
    ucp_worker_h            worker;
    ush_tp_thread_t         mode;   /* what UCX provides */
    pthread_t               owner;  /* creator: the only thread a SINGLE one may serve */
    int                     nctx;   /* contexts on it; read by quiet without the lock */
    struct ush_tp_pworker  *next;
} ush_tp_pworker_t;

/* A context's part of a page: endpoints and rkeys, made on first use. */
typedef struct {
    ucp_ep_h   ep[USH_TP_PAGE_PES];
    ucp_rkey_h rkey[USH_TP_PAGE_PES][USH_TP_MAX_SEGS];
} ush_tp_ctx_page_t;

/* The PEs a context has endpoints to, in creation order. Grown by copying
 * into a list twice as long; the shorter ones stay (linked) until the
 * context goes, because a quiet on another thread may still read one. */
typedef struct ush_tp_pe_list {
    struct ush_tp_pe_list *older;
    int                    cap;
    int                    pe[];
} ush_tp_pe_list_t;

struct ush_tp_ctx {
    ucp_worker_h     worker;
    ush_tp_pworker_t *pw;       /* the pool worker; NULL for the default context */
    ush_tp_dir_t     peers;     /* ush_tp_ctx_page_t pages */
    ush_tp_pe_list_t *ep_list;  /* PEs with an endpoint (release-stored) */
    int              nep;       /* entries of ep_list (release-stored after them) */
    unsigned long    issued;    /* UCX operations issued that a quiet owes */
    unsigned long    flushed;   /* how many of them a completed flush covered */
    unsigned long    local_issued;  /* UCX operations to node-local peers */
    unsigned long    local_flushed; /* how many of them a completed flush covered */
    unsigned long    inflight;  /* requests dropped in flight since the last flush */
    ush_tp_thread_t  mode;      /* what the worker provides */
    pthread_mutex_t  lock;      /* endpoint/rkey creation under THREAD_MULTI */
};

/* Count an operation a quiet must flush. After the UCX call, never
 * before: a quiet on another thread that counted it must find it already
 * issued, or its flush would claim an operation it did not cover. */
static inline void ush_tp_count_issued(ush_tp_ctx_t *c, int pe);

typedef struct {
    ucp_context_h   context;
    ucp_mem_h       seg_memh[USH_TP_MAX_SEGS];
    void           *seg_base[USH_TP_MAX_SEGS];
    size_t          seg_size[USH_TP_MAX_SEGS];
    ush_tp_share_t  seg_share[USH_TP_MAX_SEGS];
    void           *seg_owned[USH_TP_MAX_SEGS]; /* our own memfd mapping, or NULL */
    int             nsegs;
    int            *local_pes;  /* this node's PEs (ourselves included), ascending */
    int             nlocal;
    int             map_lazy[USH_TP_MAX_SEGS]; /* peers whose segment s was mapped on access */
    pthread_mutex_t peer_lock;  /* loading a peer */
    pthread_mutex_t map_lock;   /* mapping a peer */
} ush_tp_state_t;

extern ush_tp_state_t ush_tp;

static inline void ush_tp_count_issued(ush_tp_ctx_t *c, int pe)
{
    /* A node-local peer may also be written with stores, which a fence
     * orders after a UCX operation to it only by completing that. */
    const ush_tp_page_t *pg = ush_tp_dir_page(&ush_tp_pages, pe);
    if (__builtin_expect(pg && pg->local[pe & USH_TP_PAGE_MASK], 0)) {
        __atomic_fetch_add(&c->local_issued, 1, __ATOMIC_RELEASE);
    }
    if (!ush_tp_unowed) __atomic_fetch_add(&c->issued, 1, __ATOMIC_RELEASE);
}

/* Registers the collectives' put-with-add message on the default worker
 * (am_signal.c). */
ush_tp_status_t ush_tp_am_init(ucp_worker_h worker);
/* Our active messages (am_signal.c): cb handles id on worker; a send is
 * eager (never a rendezvous) and returns once hdr and src may be reused. */
ush_tp_status_t ush_tp_am_set_handler(ucp_worker_h worker, unsigned id, ucp_am_recv_callback_t cb);
/* A handler's header of size bytes into h; a message of another size, or
 * one UCX sent by rendezvous (which ours never are), ends the job. */
void            ush_tp_am_header(void *h, size_t size, const void *header, size_t header_length,
                                 const ucp_am_recv_param_t *param);
void            ush_tp_am_send(ush_tp_ctx_t *c, int pe, unsigned id, const void *hdr,
                               size_t hdr_len, const void *src, size_t len);
/* The collectives' eager messages (am_eager.c): their handlers on the
 * default worker; the messages left at finalize, released while the
 * worker is still there; then the counts. */
ush_tp_status_t ush_tp_eager_init(ucp_worker_h worker);
void            ush_tp_eager_fini(ucp_worker_h worker);
void            ush_tp_eager_free(void);
/* Reads ep's lanes once it is made (order.c); sets ush_tp_unordered. */
void ush_tp_ep_check_order(ucp_ep_h ep, int pe);
/* PMIx_Init succeeded (bootstrap.c); abort.c asks the launcher only then. */
extern int ush_tp_pmix_up;
/* When PMIx_Init returned (CLOCK_MONOTONIC, ns). */
extern uint64_t ush_tp_pmix_init_ns;
uint64_t   ush_tp_pidns(void);
/* When process pid started (clock ticks since boot), 0 if unknown: with
 * the pid it names one process, whatever pids the system reuses. */
uint64_t   ush_tp_proc_start(int pid);

/* Pages of per-peer state (pages.c). A directory for npes PEs of pages of
 * page_bytes; the page of pe, made (zeroed) on first call; every page
 * freed, after release (when given) has let go of what it points to.
 * ush_tp_page makes pe's page of ush_tp_pages. */
ush_tp_status_t ush_tp_dir_init(ush_tp_dir_t *d, int npes, size_t page_bytes);
void           *ush_tp_dir_make(ush_tp_dir_t *d, int pe);
void            ush_tp_dir_fini(ush_tp_dir_t *d, void (*release)(void *page));
ush_tp_page_t  *ush_tp_page(int pe);
/* Account for bytes of peer state allocated (negative: freed). */
void            ush_tp_peer_state_add(ssize_t bytes);

/* PE pe's published record, looked up on the first call (a fatal error if
 * it cannot be). Thread-safe. */
ush_tp_peer_t *ush_tp_peer_load(int pe);

/* A memfd mapping of len bytes for segment seg, published for node-local
 * peers like static data (shared.c); undone by ush_tp_seg_destroy. */
ush_tp_status_t ush_tp_seg_create(int seg, size_t len, void **map_out);
void            ush_tp_seg_destroy(int seg);

static inline ush_tp_peer_t *ush_tp_peer(int pe)
{
    const ush_tp_page_t *pg   = ush_tp_dir_page(&ush_tp_pages, pe);
    ush_tp_peer_t       *peer = pg ? __atomic_load_n(&pg->peer[pe & USH_TP_PAGE_MASK],
                                                     __ATOMIC_ACQUIRE)
                                   : NULL;
    return peer ? peer : ush_tp_peer_load(pe);
}

/* The head of PE pe's blob without loading the rest (for abort.c, which
 * may run while a load holds the lock); 0 on success. */
int ush_tp_peer_head(int pe, ush_tp_blob_head_t *head);

/* The default worker is thread-safe (so a progress thread may drive it). */
extern int ush_tp_progress_mt;
/* Bumped by the program's progress calls, so the progress thread knows
 * to keep out of the way (progress.c). */
extern unsigned long ush_tp_progress_calls;

/* "ushmem: PE <n>: <message>" and the whole job ends. */
void ush_tp_fatal(const char *fmt, ...) __attribute__((noreturn, cold, format(printf, 1, 2)));
/* Operation op to pe (-1: to some peer, a flush) failed with st. When st
 * says the peer stopped answering, the launcher is given a few seconds to
 * end the job first (ucx.c says why); then, or at once for other
 * failures, as ush_tp_fatal. */
void ush_tp_fatal_op(const char *op, int pe, ucs_status_t st) __attribute__((noreturn, cold));
/* Remember the reason of a failure for ush_tp_strerror(). */
void ush_tp_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Slow path of endpoint / rkey lookup. */
ucp_ep_h   ush_tp_ep_create(ush_tp_ctx_t *c, int pe);
ucp_rkey_h ush_tp_rkey_unpack(ush_tp_ctx_t *c, int pe, int seg);

static inline ucp_ep_h ush_tp_ep(ush_tp_ctx_t *c, int pe)
{
    const ush_tp_ctx_page_t *pg = ush_tp_dir_page(&c->peers, pe);
    ucp_ep_h ep = pg ? __atomic_load_n(&pg->ep[pe & USH_TP_PAGE_MASK], __ATOMIC_ACQUIRE) : NULL;
    return ep ? ep : ush_tp_ep_create(c, pe);
}

static inline ucp_rkey_h ush_tp_rkey(ush_tp_ctx_t *c, int pe, int seg)
{
    const ush_tp_ctx_page_t *pg = ush_tp_dir_page(&c->peers, pe);
    ucp_rkey_h rk = pg ? __atomic_load_n(&pg->rkey[pe & USH_TP_PAGE_MASK][seg], __ATOMIC_ACQUIRE)
                       : NULL;
    return rk ? rk : ush_tp_rkey_unpack(c, pe, seg);
}

static inline uint64_t ush_tp_raddr(int pe, int seg, size_t off)
{
    return ush_tp_peer(pe)->seg_base[seg] + off;
}

/* Publish this PE's blob under key and fence: every PE's blob can be
 * looked up once it returns. *collect: every node's server gets every
 * blob in the fence; 0: a lookup of a PE on another node asks that
 * node's server (direct modex), unless the launcher cannot serve that,
 * when the blobs are collected after all and *collect says so. The caller
 * unpacks its own: without a launcher there is nothing else to look up. */
ush_tp_status_t ush_tp_bootstrap_publish(const char *key, const void *blob, size_t len,
                                         int *collect);
/* Hand PE pe's blob under key to fn (which returns non-zero on a malformed
 * blob). Thread-safe; after the fence of publish a local read for a PE
 * on this node (or when collected), a request to the PE's own node's
 * server otherwise. */
ush_tp_status_t ush_tp_bootstrap_lookup(const char *key, int pe,
                                        int (*fn)(int pe, const void *blob, size_t len,
                                                  void *arg),
                                        void *arg);

/* Ask for PE pe's blob under key without waiting: fn(pe, blob, len, arg)
 * runs later on PMIx's own thread (blob NULL if the lookup failed), and
 * must not take a lock that a thread waiting in a PMIx call may hold. */
ush_tp_status_t ush_tp_bootstrap_lookup_nb(const char *key, int pe,
                                           void (*fn)(int pe, const void *blob, size_t len,
                                                      void *arg),
                                           void *arg);

/* A fence across the job during which progress(arg) keeps running, so
 * peers still draining traffic towards this PE are served. */
ush_tp_status_t ush_tp_bootstrap_fence_progress(int (*progress)(void *), void *arg);
/* The job's PMIx namespace ("" before PMIx_Init). */
const char     *ush_tp_bootstrap_nspace(void);
/* The name of the node PE pe runs on into buf, or "" when PMIx does not
 * say. */
void            ush_tp_bootstrap_hostname(int pe, char *buf, size_t len);

/* A worker in thread mode *mode, lowered to what UCX provides. */
ush_tp_status_t ush_tp_worker_create(ush_tp_thread_t *mode, ucp_worker_h *worker_out);
/* A context's worker-side state (eps/rkeys arrays) around worker. */
ush_tp_status_t ush_tp_ctx_init(ush_tp_ctx_t *c, ucp_worker_h worker, ush_tp_thread_t mode);
/* Close c's endpoints with a flush and free its arrays; the worker is
 * left to the caller. */
void            ush_tp_ctx_fini(ush_tp_ctx_t *c);

/* UCX log messages of this thread go to ush_tp_log_capture_buf instead of
 * stderr while ush_tp_log_capture is set (ucx.c): a failed worker creation
 * then costs one line of ours, not one of UCX's per transport. */
extern __thread int  ush_tp_log_capture;
extern __thread char ush_tp_log_capture_buf[256];

/* Take group and world access away from every System V segment this
 * process created (UCX makes them 0660 and ignores the umask). */
void ush_tp_private_sysv(void);

/* Map node-local peer pe's shared segment seg; NULL when it cannot be. */
char *ush_tp_share_attach(int pe, int seg);
/* Map the segment a peer shared through sh (its base), or NULL. Touches
 * nothing else: PMIx's thread maps ahead with it. */
char *ush_tp_share_map(const ush_tp_share_t *sh);

/* Wait for a request returned by a *_nbx call, driving progress. */
ucs_status_t ush_tp_wait(ush_tp_ctx_t *c, ucs_status_ptr_t req);

/* SIGHUP back to its default action where UCX caught it (sighup.c). */
void ush_tp_sighup_default(void);

#endif
