/*
 * The transport layer: everything that talks to PMIx or UCX. It includes no
 * OpenSHMEM header; the layer above speaks to it in PEs, segment ids and
 * byte offsets.
 *
 * Errors come back as ush_tp_status_t; ush_tp_strerror() gives the reason
 * (the UCX or PMIx message) for the caller's report.
 */
#ifndef USH_TP_H
#define USH_TP_H

#include <stddef.h>
#include <stdint.h>

#define USH_TP_MAX_SEGS 4

typedef enum {
    USH_TP_OK = 0,
    USH_TP_ERR_BOOTSTRAP,   /* PMIx call failed */
    USH_TP_ERR_UCX,         /* UCX call failed */
    USH_TP_ERR_NOMEM
} ush_tp_status_t;

/* What the bootstrap learned about the job. */
typedef struct {
    int rank, size;
    int local_rank, local_size;
    int num_nodes;
    int singleton;           /* started without a launcher: one PE */
} ush_tp_job_t;

extern ush_tp_job_t ush_tp_job;

typedef enum {
    USH_TP_THREAD_SINGLE,
    USH_TP_THREAD_SERIALIZED,
    USH_TP_THREAD_MULTI
} ush_tp_thread_t;

typedef struct ush_tp_ctx ush_tp_ctx_t;

/* -- bootstrap (PMIx) ------------------------------------------------------ */
ush_tp_status_t ush_tp_bootstrap_init(void);
void            ush_tp_abort(int status, const char *msg) __attribute__((noreturn));
/* After wire-up, where no launcher of ours watches the PEs (not oshrun):
 * the helper thread that calls PMIx_Abort for a signal handler; an abort
 * then also ends the node-local peers itself (abort.c says why).
 * _release undoes it at finalize. */
void            ush_tp_abort_prepare(void);
void            ush_tp_abort_release(void);
/* From a fatal-signal handler: ask the launcher to end the job and end
 * the node-local peers (both by the helper, waited for at most 0.5 s),
 * then return, so the caller can die of its signal. Async-signal-safe;
 * nothing without _prepare or in a forked child. */
void            ush_tp_abort_from_signal(int status, const char *msg);
/* The PMIx server is gone (called in PMIx's thread): one line naming the
 * PE and why, then exit with USH_TP_EXIT_LAUNCHER_LOST at once. */
#define USH_TP_EXIT_LAUNCHER_LOST 1
void            ush_tp_abort_launcher_lost(const char *why) __attribute__((noreturn));
void            ush_tp_bootstrap_finalize(void);

/* -- UCX ------------------------------------------------------------------- */
/* Creates the UCX context and the default worker. The worker's thread mode
 * is what UCX provides, which may be less than asked: see
 * ush_tp_thread_provided. With progress_thread the worker is made
 * thread-safe and able to sleep on events, for ush_tp_progress_thread_start. */
ush_tp_status_t ush_tp_init(ush_tp_thread_t thread_mode, int progress_thread);
extern ush_tp_thread_t ush_tp_thread_provided;
/* The highest thread mode any PE of the job was provided (after
 * ush_tp_agreed; THREAD_MULTI before): a choice every PE must make alike
 * can depend on it. */
extern ush_tp_thread_t ush_tp_thread_job;

/* A thread that progresses the default worker whenever a request arrives,
 * so peers' operations that UCX emulates in software complete while this
 * PE computes. Start after wire-up; stop before ush_tp_finalize. */
ush_tp_status_t ush_tp_progress_thread_start(void);
void            ush_tp_progress_thread_stop(void);
/* Allocates and registers segment seg: memory peers on this node can map.
 * The byte at offset lead is aligned to align (a power of two), so a part
 * of the segment may come before an aligned one. */
ush_tp_status_t ush_tp_seg_alloc(int seg, size_t size, size_t align, size_t lead,
                                 void **base_out);
/* Backs existing memory with a memfd in place (same address, same
 * contents) so node-local peers can map it too. Call before registering. */
ush_tp_status_t ush_tp_seg_share(int seg, void *base, size_t size);
/* Registers existing memory (the executable's static data) as segment seg. */
ush_tp_status_t ush_tp_seg_register(int seg, void *base, size_t size);
/* Publishes this PE's worker address and segments (base, size, packed
 * rkey) with one PMIx fence. A peer's are read, its endpoint made and its
 * memory mapped when first needed. */
ush_tp_status_t ush_tp_wireup(void);
/* The wire-up's fence handed every PE's blob to every node (1), or each
 * node's launcher serves its PEs' blobs on demand (0: direct modex). */
extern int ush_tp_modex_collected;
/* Jobs of at most this many PEs collect the wire-up's blobs (-1: all;
 * set before ush_tp_wireup). */
extern long ush_tp_wireup_collect_max;
void            ush_tp_finalize(void);
const char     *ush_tp_strerror(void);   /* reason of the last failure */
/* Collective, on every PE: hand blob to PE root, where fn(pe, blob, len,
 * arg) then runs for every PE's blob in PE order (root's own is the one it
 * passed); fn returns non-zero on a malformed blob, which stops the walk.
 * Through the launcher's PMIx, so it needs no transport state: it also
 * works after ush_tp_finalize. */
ush_tp_status_t ush_tp_gather(const char *key, const void *blob, size_t len, int root,
                              int (*fn)(int pe, const void *blob, size_t len, void *arg),
                              void *arg);

/* The default context's worker is the one every peer's endpoints reach:
 * it serves all incoming requests, so every wait of any context also
 * progresses it. */
extern ush_tp_ctx_t *ush_tp_ctx_default;

/* A created context: endpoints of its own, to the peers' default workers,
 * so its operations, quiet and fence are independent of the others'. Its
 * worker is its own, in thread_mode (if UCX provides it), while fewer
 * than ush_tp_ctx_workers_max context workers exist; after that it shares
 * the least loaded worker in share_mode or above (the mode that lets any
 * of the program's threads use it). Fails only when no worker can be made
 * and none can be shared; ush_tp_strerror() then says why. Destroy
 * completes its operations first. Call after ush_tp_wireup. */
extern int      ush_tp_ctx_workers_max;
ush_tp_status_t ush_tp_ctx_create(ush_tp_thread_t thread_mode, ush_tp_thread_t share_mode,
                                  ush_tp_ctx_t **ctx_out);
void            ush_tp_ctx_destroy(ush_tp_ctx_t *c);
/* Progress once each context worker this thread may drive: all of them
 * unless multiple (SHMEM_THREAD_MULTIPLE), then the thread-safe ones and
 * the single-threaded ones this thread made. */
void            ush_tp_ctx_progress_all(int multiple);
/* Context workers alive. */
int             ush_tp_ctx_workers(void);

/* What a PE keeps per peer lives in pages of USH_TP_PAGE_PES consecutive
 * PEs, made when it first touches one of them (pages.c): a PE that talks
 * to its ring neighbours in a job of a million PEs holds a few pages and
 * a directory of one pointer per page, not a record per PE of the job. */
#define USH_TP_PAGE_SHIFT 8
#define USH_TP_PAGE_PES   (1 << USH_TP_PAGE_SHIFT)
#define USH_TP_PAGE_MASK  (USH_TP_PAGE_PES - 1)

typedef struct {
    void  **page;  /* [pe >> USH_TP_PAGE_SHIFT], NULL until made */
    size_t  npages;
    size_t  page_bytes;
} ush_tp_dir_t;

static inline void *ush_tp_dir_page(const ush_tp_dir_t *d, int pe)
{
    /* acquire: pairs with the release that published the zeroed page */
    return __atomic_load_n(&d->page[(unsigned)pe >> USH_TP_PAGE_SHIFT], __ATOMIC_ACQUIRE);
}

struct ush_tp_peer;

/* The job-wide part of a page: what this PE knows of each of its peers. */
typedef struct {
    char               *map[USH_TP_PAGE_PES][USH_TP_MAX_SEGS]; /* see ush_tp_mapped */
    struct ush_tp_peer *peer[USH_TP_PAGE_PES];       /* wire-up record, once loaded */
    struct ush_tp_peer *ahead_peer[USH_TP_PAGE_PES]; /* a look-ahead's record, ours to take */
    int                 ahead[USH_TP_PAGE_PES];      /* USH_TP_AHEAD_* */
    unsigned char       local[USH_TP_PAGE_PES];      /* runs on this node */
    unsigned char       map_pending[USH_TP_PAGE_PES]; /* bit s: segment s not yet mapped */
} ush_tp_page_t;

/* Local address of pe's segment seg where it is mapped (self, or a
 * node-local peer whose segment could be mapped), else NULL. A node-local
 * peer is mapped on the first call that asks for it. */
extern ush_tp_dir_t ush_tp_pages;
/* Bytes this PE holds for its peers: directories, pages and wire-up
 * records (UCX's own endpoint state not counted). */
size_t ush_tp_peer_state_bytes(void);
/* CPU atomics on mapped addresses are coherent with every other path that
 * reaches the same memory (true when the job is on one node). */
extern int ush_tp_direct_amo;
/* Every segment of every PE maps and takes CPU atomics: no operation of
 * this job reaches this PE through UCX, so waits need not progress it.
 * Agreed by the whole job at start-up (ush_tp_agreed), so alike on every
 * PE; 0 until then. */
extern int ush_tp_all_mapped;
/* Bit s: every PE maps segment s of its node-local peers (agreed
 * likewise). */
extern unsigned ush_tp_local_mapped;

/* The slow half of ush_tp_mapped: maps pe if it is a node-local peer not
 * yet mapped. */
char *ush_tp_map_miss(int pe, int seg);

static inline char *ush_tp_mapped(int pe, int seg)
{
    /* acquire: pairs with the store of the thread that mapped it (a
     * plain load on x86, ldar on aarch64) */
    ush_tp_page_t *pg = ush_tp_dir_page(&ush_tp_pages, pe);
    char          *p  = pg ? __atomic_load_n(&pg->map[pe & USH_TP_PAGE_MASK][seg], __ATOMIC_ACQUIRE)
                           : NULL;
    return __builtin_expect(p != NULL, 1) ? p : ush_tp_map_miss(pe, seg);
}

/* pe runs on this node. */
int ush_tp_local(int pe);
/* Read pe's wire-up data and make its endpoint (or map it, on this node)
 * now rather than at the first operation. */
void ush_tp_peer_warm(int pe);

/* Start-up agreement (core/agree.c gathers the job's answers): the
 * segments of this PE's next node-local peer that it could not map (bit
 * s for segment s; 0 when it has no such peer), which tells whether the
 * node's PEs may map each other's; then what the whole job answered: the
 * highest thread mode any PE was provided, and the OR of every PE's
 * unmapped segments. */
unsigned ush_tp_map_probe(void);
void     ush_tp_agreed(ush_tp_thread_t thread_max, unsigned unmapped);

/* -- operations through UCX (for peers/segments that are not mapped) ------ */
typedef enum {
    USH_TP_AMO_ADD, USH_TP_AMO_AND, USH_TP_AMO_OR, USH_TP_AMO_XOR,
    USH_TP_AMO_SWAP, USH_TP_AMO_CSWAP
} ush_tp_amo_t;

/* Non-zero while this thread issues a collective's own operations: data
 * and flags whose effect the collective waits for itself (its receivers
 * wait for the flag, which is ordered after the data), so no later quiet
 * owes them a flush. A barrier after a barrier then costs no round trip.
 * Every operation still counts for the fence's node-local rule. */
extern __thread int ush_tp_unowed __attribute__((tls_model("initial-exec")));

/* A collective's put-with-add to a PE that is not mapped, as one active
 * message (am_signal.c): len bytes from src land at (seg, off) on pe, then
 * add is added to the uint64_t at (sig_seg, sig_off) there, with release.
 * Returns when src may be reused. Only where ush_tp_direct_amo (the flag
 * takes the CPU's atomics); no quiet completes it, the flag's reader
 * does. */
void ush_tp_put_add(ush_tp_ctx_t *c, int pe, int seg, size_t off, const void *src, size_t len,
                    int sig_seg, size_t sig_off, uint64_t add);
/* Non-zero where ush_tp_put_add may be used: the job spans nodes, so the
 * library asked UCX for active messages. */
extern int ush_tp_am;

/* Eager messages (am_eager.c), where ush_tp_am: a collective's data for
 * a PE on another node, sent before that PE asks for it and kept by its
 * library until it does. key is the collective's (the same on both
 * sides); messages from one sender under one key are found in the order
 * sent. A sender may have USH_TP_EAGER_DEPTH messages to a PE not known
 * taken: ush_tp_eager_room says whether it may send one more now (a
 * sender waits, progressing, until it may). Send returns when src may
 * be reused. find returns the oldest message from pe under key, with its
 * data, or NULL; the caller owns it until ush_tp_eager_done. */
#define USH_TP_EAGER_DEPTH 8
typedef struct ush_tp_eager_msg ush_tp_eager_msg_t;
int                 ush_tp_eager_room(int pe);
void                ush_tp_eager_send(ush_tp_ctx_t *c, int pe, uint64_t key, const void *src,
                                      size_t len);
ush_tp_eager_msg_t *ush_tp_eager_find(int pe, uint64_t key, const void **data, size_t *len);
void                ush_tp_eager_done(ush_tp_eager_msg_t *m);

/* blocking: wait for local completion (source reusable / data arrived). */
void ush_tp_put(ush_tp_ctx_t *c, int pe, int seg, size_t off, const void *src,
                size_t len, int blocking);
void ush_tp_get(ush_tp_ctx_t *c, int pe, int seg, size_t off, void *dst,
                size_t len, int blocking);
/* A get that returns at once and increments *counter (release) once dst
 * holds the data, in whichever thread progresses c's worker (the progress
 * thread, for the default context, when it runs). */
void ush_tp_get_counted(ush_tp_ctx_t *c, int pe, int seg, size_t off, void *dst, size_t len,
                        int *counter);
/* Fetching atomic; CSWAP: stores value where old == cond. Blocking. */
uint64_t ush_tp_amo_fetch(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg,
                          size_t off, uint64_t value, uint64_t cond, size_t size);
/* Fetching atomic whose result lands in *result by the next quiet. */
void ush_tp_amo_fetch_nbi(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg,
                          size_t off, uint64_t value, uint64_t cond, size_t size,
                          void *result);
/* Non-fetching atomic (ADD/AND/OR/XOR; SWAP acts as a set). */
void ush_tp_amo_post(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg,
                     size_t off, uint64_t value, size_t size);

void ush_tp_quiet(ush_tp_ctx_t *c);
/* Orders c's operations to each PE before its later ones: UCX's fence
 * (no round trip) while ush_tp_unordered is 0 and no UCX operation to a
 * node-local peer is in flight, else a flush. */
void ush_tp_fence(ush_tp_ctx_t *c);
/* Some endpoint to another node carries RMA or atomics on more than one
 * lane, or on a transport not known to keep order (order.c): fences
 * flush. Set before shmem_init makes endpoints to force that
 * (SHMEM_FENCE=flush). */
extern int ush_tp_unordered;
/* Progress c's worker and the default one; non-zero if anything happened. */
int  ush_tp_progress(ush_tp_ctx_t *c);
/* How every wait of the library (core/wait.c's and the transport's own)
 * spends a step that found nothing to do; `step` counts its idle steps
 * from 0. A young wait pauses the CPU; after USH_TP_SPIN_STEPS it yields
 * (ush_tp_yield: unless SHMEM_YIELD=never). Where this node's PEs
 * outnumber its cores, or with SHMEM_YIELD=always (ush_tp_yield_at_once),
 * or while the machine has more runnable tasks than hardware threads
 * (asked after 64 steps, unless SHMEM_YIELD=never), it yields from then on
 * and, once old, naps instead: a yield leaves the waiter runnable, and with dozens of waiters per core (or other
 * jobs' busy processes) the PEs and daemons that have work (the PMIx
 * server answering a fence, a peer finishing its part) would get a core
 * only after every waiter has had its turn. Two yields close together
 * that each lost the core for milliseconds (to a process that computes)
 * make the process's waits nap for a while instead of yielding
 * (transport/ops.c says why); shmem_init forgets what start-up taught. */
void ush_tp_idle(unsigned step);
/* Forget what earlier waits learnt about the cores (see ush_tp_idle). */
void ush_tp_idle_reset(void);
extern int ush_tp_yield, ush_tp_yield_at_once;
/* This PE's doorbell: a word in memory its node-local peers map, which a
 * napping wait sets to 1 and sleeps on (a futex) for at most the nap; a
 * peer that signals this PE (core's ush_wake) clears it and wakes the
 * wait at once. NULL: naps sleep their whole length. */
extern uint32_t *ush_tp_doorbell;
/* Wake the waits napping on bell, a peer's doorbell mapped here (the
 * caller found it 1). */
void ush_tp_ring(uint32_t *bell);
/* What this process's waits did since shmem_init (SHMEM_PROFILE's
 * "(waits)" rows): yields and the time they kept it off its core, naps and
 * their time, naps a peer's signal ended (the doorbell), yields that lost
 * the core for milliseconds, and the holds those began. */
typedef struct {
    uint64_t yields, yield_ns, yields_lost, holds;
    uint64_t naps, nap_ns, naps_rung;
} ush_tp_idle_stats_t;
void ush_tp_idle_stats(ush_tp_idle_stats_t *out);
/* Hardware threads this process may run on (0: unknown): more runnable
 * tasks than that on the machine make waits yield at once. */
extern int ush_tp_npus;

#endif
