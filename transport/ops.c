/*
 * RMA, atomics, completion and ordering through UCX, for peers and segments
 * that are not mapped into this process (the layer above handles those with
 * loads, stores and CPU atomics).
 */
#include "ush_tp_impl.h"
#include "ush_bits.h"

#include "arch/ush_arch.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Steps of one wait spent spinning before yielding (tens of microseconds:
 * far longer than any node-local round trip). */
#define USH_TP_SPIN_STEPS 1000
/* Yields of one wait before it naps, where it naps (ush_tp_idle). A nap
 * costs a long wait a few tens of microseconds more; short waits never
 * take one. */
#define USH_TP_NAP_FROM 4096
static const struct timespec ush_tp_nap = { 0, 20000 };

/* Steps a wait spins before it asks whether the machine is crowded
 * (ush_tp_crowded), and how long an answer holds. */
#define USH_TP_CROWD_STEP       64
#define USH_TP_CROWD_RECHECK_US 5000

/* A yield that kept this PE off its core this long gave the core to a
 * process that ran a whole time slice: one that computes (another job's,
 * or a peer in a long loop), not a waiter like us. */
#define USH_TP_YIELD_LOST_US 2000
/* Two such yields this close together, on a machine with more runnable
 * tasks than cores, mean such a process is there; one alone is as likely
 * another job's burst, or a daemon's, that is already over (8 PEs on 2
 * cores: one lost yield in a 20 ms stretch of barriers made the rest of it
 * nap, 82-85 us a barrier against 12-19). Whose the process is cannot be
 * told from the count of runnable tasks: PEs that nap are not in it, so
 * beside 4 busy loops 16 napping PEs count fewer than themselves (a test
 * against the node's PE count let them go on yielding: a ring reduction
 * at 16 PEs took 150 ms a call, against 11-15 holding). Among our PEs alone
 * a hold costs little: 8 PEs on 2 cores, barrier 10-12 us against 10-11. */
#define USH_TP_YIELD_LOST_AGAIN_US 20000
/* How long every wait of this process then naps or spins instead of
 * yielding (ush_tp_hold), before one yield tries again. */
#define USH_TP_NAP_HOLD_US 50000
/* Steps a wait spins before it naps in such a hold: a program's loop that
 * polls several flags fails most polls while it still has work. */
#define USH_TP_HOLD_SPIN_STEPS 64

/* The tasks runnable on this machine now, this one included: the fourth
 * field of /proc/loadavg ("0.52 0.58 0.59 3/467 12345"); -1 unreadable. */
static long ush_tp_running_tasks(void)
{
    char buf[128];
    long running;
    int  fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0) return -1;
    buf[len] = '\0';
    if (sscanf(buf, "%*s %*s %*s %ld/", &running) != 1) return -1;
    return running;
}

int ush_tp_yield, ush_tp_yield_at_once, ush_tp_npus;

/* Whether this machine has more runnable tasks than hardware threads,
 * read at most every USH_TP_CROWD_RECHECK_US by one of the process's
 * threads. The launcher's count of PEs on a node does not see everything
 * that shares its cores: emulated nodes (network namespaces) on one
 * machine, or other jobs. Unreadable, the machine counts as not crowded:
 * the waits keep the policy that the PE count chose. */
static uint64_t ush_tp_crowd_checked_at;
static int      ush_tp_crowd;

static int ush_tp_crowded(void)
{
    uint64_t now = ush_arch_ticks();
    uint64_t at  = __atomic_load_n(&ush_tp_crowd_checked_at, __ATOMIC_RELAXED);
    if (at != 0 && now - at < USH_TP_CROWD_RECHECK_US * ush_arch_ticks_per_us()) {
        return __atomic_load_n(&ush_tp_crowd, __ATOMIC_RELAXED);
    }
    if (!__atomic_compare_exchange_n(&ush_tp_crowd_checked_at, &at, now, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED)) {
        return __atomic_load_n(&ush_tp_crowd, __ATOMIC_RELAXED); /* another thread reads */
    }
    long running = ush_tp_running_tasks();
    int  crowd   = ush_tp_npus > 0 && running > ush_tp_npus;
    __atomic_store_n(&ush_tp_crowd, crowd, __ATOMIC_RELAXED);
    return crowd;
}

uint32_t *ush_tp_doorbell;

/* What the waits did (ush_tp_idle_stats), times in ticks; relaxed adds,
 * as several threads may wait at once. */
static ush_tp_idle_stats_t ush_tp_idle_count;
#define USH_TP_COUNT(field, n) __atomic_fetch_add(&ush_tp_idle_count.field, (n), __ATOMIC_RELAXED)

/* One nap. On the doorbell it ends early when a peer signals this PE: a
 * wait that naps beside busy processes hands them the core, and the 20 us
 * asked for are about 100 once the timer's slack and the wake-up are paid
 * (a VM on 2 cores), each one a hop of the program's exchange. A peer's
 * signal that comes between the caller's last look and the store of 1
 * finds 0 and wakes nobody: that nap runs its length, as without one. */
static void ush_tp_nap_once(void)
{
    uint32_t *bell = ush_tp_doorbell;
    uint64_t  t0   = ush_arch_ticks();
    if (bell == NULL) {
        nanosleep(&ush_tp_nap, NULL);
    } else {
        __atomic_store_n(bell, 1, __ATOMIC_SEQ_CST);
        if (syscall(SYS_futex, bell, FUTEX_WAIT, 1, &ush_tp_nap, NULL, 0) == 0) {
            USH_TP_COUNT(naps_rung, 1);
        }
        __atomic_store_n(bell, 0, __ATOMIC_RELAXED);
    }
    USH_TP_COUNT(naps, 1);
    USH_TP_COUNT(nap_ns, ush_arch_ticks() - t0);
}

void ush_tp_ring(uint32_t *bell)
{
    if (__atomic_exchange_n(bell, 0, __ATOMIC_SEQ_CST) != 0) {
        syscall(SYS_futex, bell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
}

/* Until when (ush_arch_ticks) waits nap, or spin; when the last lost
 * yield ended. Shared by the process's threads. */
static uint64_t ush_tp_nap_until, ush_tp_spin_until, ush_tp_yield_lost_at;

/* A lost yield, the second in a short while: a process that computes
 * shares this PE's core. While this node's own PEs outnumber its cores,
 * the waits nap: off the run queue, they leave the core to a peer PE that
 * needs it, as well as to that process. Otherwise every PE of the node has
 * a core of its own and what takes them is not ours: a yield or a nap only
 * hands that process the rest of its slice, while the PE this one waits
 * for runs on (2 PEs beside 2 busy loops, a buffered exchange: 40-50 ms
 * yielding and napping, 7 ms spinning, 3.5-7.5 Open MPI, which spins). So
 * the waits spin through the hold. Emulated nodes sharing one machine
 * count few PEs on each node, so their holds spin too; but a hold starts
 * only after yields lost to a process that computes, and their waiting
 * peers, which yield, never are one. */
static void ush_tp_hold(uint64_t after, uint64_t per_us)
{
    uint64_t until = after + USH_TP_NAP_HOLD_US * per_us;
    __atomic_store_n(ush_tp_yield_at_once ? &ush_tp_nap_until : &ush_tp_spin_until, until,
                     __ATOMIC_RELAXED);
    USH_TP_COUNT(holds, 1);
    /* The yield that tries again after the hold counts as the second: if
     * the process is still there, the hold starts again at once. */
    __atomic_store_n(&ush_tp_yield_lost_at, until, __ATOMIC_RELAXED);
}

void ush_tp_idle(unsigned step)
{
    /* A crowded machine turns a wait that has spun a little into one that
     * yields at once: spinning on, it would hold the core that the peer
     * it waits for (or that peer's progress thread) needs. Emulated nodes
     * sharing 2 cores, 6 PEs, 200 contended atomics each: 10-12 s against
     * 1.5-2.5 s yielding. */
    int at_once = ush_tp_yield_at_once ||
                  (ush_tp_yield && step >= USH_TP_CROWD_STEP && ush_tp_crowded());
    if (!at_once && !(ush_tp_yield && step >= USH_TP_SPIN_STEPS)) {
        ush_arch_pause();
        return;
    }

    /* A yield leaves the waiter runnable and, to Linux's EEVDF scheduler,
     * postpones its turn by a slice. Among waiters that is cheap; against
     * a process that computes, each yield hands it the core for its whole
     * slice, and every hop of a collective costs milliseconds (a ring
     * reduction at 8 PEs beside 4 busy loops on 2 cores: 70-88 ms, against
     * 3.5-6 ms napping). A napping waiter is off the run queue, and is woken
     * on time with its turn intact. Among waiters alone, though, naps are
     * slower than yields (tens of microseconds each): hence the test. */
    uint64_t now = ush_arch_ticks();
    if (now < __atomic_load_n(&ush_tp_spin_until, __ATOMIC_RELAXED)) {
        ush_arch_pause();
        return;
    }
    if (now < __atomic_load_n(&ush_tp_nap_until, __ATOMIC_RELAXED)) {
        /* Not from a wait's first step: a program's loop that polls
         * several inboxes while it sends fails most of its polls with work
         * still to do, and a nap at each (about 100 us) made a 4-PE
         * exchange beside 2 busy loops 1.2 s against 0.12-0.18. */
        if (step < USH_TP_HOLD_SPIN_STEPS) {
            ush_arch_pause();
        } else {
            ush_tp_nap_once();
        }
        return;
    }
    if (at_once && step >= USH_TP_NAP_FROM) {
        ush_tp_nap_once();
        return;
    }
    sched_yield();
    uint64_t after  = ush_arch_ticks();
    uint64_t per_us = ush_arch_ticks_per_us();
    USH_TP_COUNT(yields, 1);
    USH_TP_COUNT(yield_ns, after - now);
    if (after - now > USH_TP_YIELD_LOST_US * per_us) {
        USH_TP_COUNT(yields_lost, 1);
        uint64_t last = __atomic_exchange_n(&ush_tp_yield_lost_at, after, __ATOMIC_RELAXED);
        if (last != 0 && now < last + USH_TP_YIELD_LOST_AGAIN_US * per_us && ush_tp_crowded()) {
            ush_tp_hold(after, per_us);
        }
    }
}

void ush_tp_idle_reset(void)
{
    __atomic_store_n(&ush_tp_nap_until, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ush_tp_spin_until, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ush_tp_yield_lost_at, 0, __ATOMIC_RELAXED);
    memset(&ush_tp_idle_count, 0, sizeof(ush_tp_idle_count));
}

void ush_tp_idle_stats(ush_tp_idle_stats_t *out)
{
    uint64_t per_us = ush_arch_ticks_per_us();
    *out            = ush_tp_idle_count;
    out->nap_ns     = per_us ? out->nap_ns * 1000 / per_us : 0; /* were ticks */
    out->yield_ns   = per_us ? out->yield_ns * 1000 / per_us : 0;
}

/* Memory ordering: ucp_request_check_status is a plain read of the
 * request's flags, and another thread (the progress thread, or any thread
 * on a thread-safe worker) may have completed the request, writing a get's
 * data or an atomic's reply before it. On a weakly ordered CPU seeing the
 * flag would not order those writes before ours; ucp_request_free does:
 * it takes the worker's lock, which the completing thread held while
 * writing and released after, so our later reads see its writes. Keep the
 * free before the return. (A single-threaded worker is only ever
 * progressed by this thread: program order.) */
ucs_status_t ush_tp_wait(ush_tp_ctx_t *c, ucs_status_ptr_t req)
{
    if (req == NULL) return UCS_OK;
    if (UCS_PTR_IS_ERR(req)) return UCS_PTR_STATUS(req);
    ucs_status_t st;
    unsigned     idle = 0;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) {
        /* The peer that must answer may need our core (oversubscribed, or
         * emulated nodes on one machine). */
        if (ush_tp_progress(c)) idle = 0;
        else ush_tp_idle(idle++);
    }
    ucp_request_free(req);
    return st;
}

/* Operations left in flight on one context before the next one flushes
 * them: a loop of _nbi calls to a slow peer would otherwise queue requests,
 * and their memory, without bound. */
#define USH_TP_MAX_INFLIGHT 4096

__thread int ush_tp_unowed;

static void ush_tp_flush(ush_tp_ctx_t *c, unsigned long n, unsigned long local);

/* Completion is tracked by the next flush: drop the request. */
static inline void ush_tp_detach(ush_tp_ctx_t *c, const char *op, int pe, ucs_status_ptr_t req)
{
    if (UCS_PTR_IS_PTR(req)) {
        ucp_request_free(req);
        if (__atomic_add_fetch(&c->inflight, 1, __ATOMIC_RELAXED) >= USH_TP_MAX_INFLIGHT) {
            /* a flush whether a quiet owes them or not */
            ush_tp_flush(c, __atomic_load_n(&c->issued, __ATOMIC_ACQUIRE),
                         __atomic_load_n(&c->local_issued, __ATOMIC_ACQUIRE));
        }
    } else if (UCS_PTR_IS_ERR(req)) {
        ush_tp_fatal_op(op, pe, UCS_PTR_STATUS(req));
    }
}

static inline void ush_tp_complete(ush_tp_ctx_t *c, const char *op, int pe,
                                   ucs_status_ptr_t req)
{
    ucs_status_t st = ush_tp_wait(c, req);
    if (st != UCS_OK) ush_tp_fatal_op(op, pe, st);
}

void ush_tp_put(ush_tp_ctx_t *c, int pe, int seg, size_t off, const void *src,
                size_t len, int blocking)
{
    ucp_request_param_t prm = { .op_attr_mask = 0 };
    ucs_status_ptr_t    req = ucp_put_nbx(ush_tp_ep(c, pe), src, len, ush_tp_raddr(pe, seg, off),
                                          ush_tp_rkey(c, pe, seg), &prm);
    ush_tp_count_issued(c, pe);
    if (blocking) {
        ush_tp_complete(c, "ucp_put_nbx", pe, req);
    } else {
        ush_tp_detach(c, "ucp_put_nbx", pe, req);
    }
}

void ush_tp_get(ush_tp_ctx_t *c, int pe, int seg, size_t off, void *dst, size_t len,
                int blocking)
{
    ucp_request_param_t prm = { .op_attr_mask = 0 };
    ucs_status_ptr_t    req = ucp_get_nbx(ush_tp_ep(c, pe), dst, len, ush_tp_raddr(pe, seg, off),
                                          ush_tp_rkey(c, pe, seg), &prm);
    ush_tp_count_issued(c, pe);
    if (blocking) {
        ush_tp_complete(c, "ucp_get_nbx", pe, req);
    } else {
        ush_tp_detach(c, "ucp_get_nbx", pe, req);
    }
}

/* Runs in whichever thread progresses the worker: the data is in place.
 * The release add pairs with shmem_cwait's acquire load (hpvm.c), which
 * then reads the data after it. */
static void ush_tp_get_counted_done(void *request, ucs_status_t status, void *counter)
{
    if (status != UCS_OK) ush_tp_fatal_op("ucp_get_nbx", -1, status);
    ucp_request_free(request);
    __atomic_add_fetch((int *)counter, 1, __ATOMIC_RELEASE);
}

void ush_tp_get_counted(ush_tp_ctx_t *c, int pe, int seg, size_t off, void *dst, size_t len,
                        int *counter)
{
    ucp_request_param_t prm = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send      = ush_tp_get_counted_done,
        .user_data    = counter,
    };
    ucs_status_ptr_t req = ucp_get_nbx(ush_tp_ep(c, pe), dst, len, ush_tp_raddr(pe, seg, off),
                                       ush_tp_rkey(c, pe, seg), &prm);
    ush_tp_count_issued(c, pe);
    if (req == NULL) { /* done already, and UCX calls no callback then */
        __atomic_add_fetch(counter, 1, __ATOMIC_RELEASE);
    } else if (UCS_PTR_IS_ERR(req)) {
        ush_tp_fatal_op("ucp_get_nbx", pe, UCS_PTR_STATUS(req));
    }
}

static const ucp_atomic_op_t ush_tp_amo_ops[] = {
    [USH_TP_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [USH_TP_AMO_AND] = UCP_ATOMIC_OP_AND,
    [USH_TP_AMO_OR] = UCP_ATOMIC_OP_OR,     [USH_TP_AMO_XOR] = UCP_ATOMIC_OP_XOR,
    [USH_TP_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [USH_TP_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
};

/* Issue a fetching atomic; the old value lands in result (size bytes).
 * For CSWAP UCX takes the compare value as the operand and the new value
 * in the reply buffer. */
static ucs_status_ptr_t ush_tp_amo_issue(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg,
                                         size_t off, const void *operand, void *result,
                                         size_t size)
{
    ucp_request_param_t prm = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER,
        .datatype     = ucp_dt_make_contig(size),
        .reply_buffer = result,
    };
    ucs_status_ptr_t req = ucp_atomic_op_nbx(ush_tp_ep(c, pe), ush_tp_amo_ops[op], operand, 1,
                                             ush_tp_raddr(pe, seg, off), ush_tp_rkey(c, pe, seg),
                                             &prm);
    ush_tp_count_issued(c, pe);
    return req;
}

uint64_t ush_tp_amo_fetch(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg, size_t off,
                          uint64_t value, uint64_t cond, size_t size)
{
    uint64_t operand, result;
    if (op == USH_TP_AMO_CSWAP) {
        ush_bits_store(&operand, cond, size);
        ush_bits_store(&result, value, size);
    } else {
        ush_bits_store(&operand, value, size);
    }
    ucs_status_ptr_t req = ush_tp_amo_issue(c, op, pe, seg, off, &operand, &result, size);
    ush_tp_complete(c, "ucp_atomic_op_nbx", pe, req);
    return ush_bits_load(&result, size);
}

void ush_tp_amo_fetch_nbi(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg, size_t off,
                          uint64_t value, uint64_t cond, size_t size, void *result)
{
    uint64_t operand;
    if (op == USH_TP_AMO_CSWAP) {
        ush_bits_store(&operand, cond, size);
        ush_bits_store(result, value, size);
    } else {
        ush_bits_store(&operand, value, size);
    }
    /* The operand is copied at issue for atomics of 8 bytes or less
     * (UCX packs it into the request), so a stack operand is safe. */
    ucs_status_ptr_t req = ush_tp_amo_issue(c, op, pe, seg, off, &operand, result, size);
    ush_tp_detach(c, "ucp_atomic_op_nbx", pe, req);
}

void ush_tp_amo_post(ush_tp_ctx_t *c, ush_tp_amo_t op, int pe, int seg, size_t off,
                     uint64_t value, size_t size)
{
    uint64_t operand;
    ush_bits_store(&operand, value, size);
    if (op == USH_TP_AMO_SWAP) {
        /* UCX has no non-fetching set: a swap whose reply is waited for,
         * because its reply buffer must outlive the operation. */
        (void)ush_tp_amo_fetch(c, op, pe, seg, off, value, 0, size);
        return;
    }
    ucp_request_param_t prm = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
        .datatype     = ucp_dt_make_contig(size),
    };
    ucs_status_ptr_t req = ucp_atomic_op_nbx(ush_tp_ep(c, pe), ush_tp_amo_ops[op], &operand, 1,
                                             ush_tp_raddr(pe, seg, off),
                                             ush_tp_rkey(c, pe, seg), &prm);
    ush_tp_count_issued(c, pe);
    ush_tp_detach(c, "ucp_atomic_op_nbx", pe, req);
}

/* Endpoint flushes in flight at once. */
#define USH_TP_FLUSH_BATCH 32

/* Flush every endpoint of c, a batch of flushes in flight at a time. An
 * endpoint listed but not yet published carries no operation this quiet
 * counted: issuing one first loads the published endpoint. */
static void ush_tp_flush_eps(ush_tp_ctx_t *c)
{
    ucp_request_param_t prm = { .op_attr_mask = 0 };
    ucs_status_ptr_t    reqs[USH_TP_FLUSH_BATCH];
    int                 nep = __atomic_load_n(&c->nep, __ATOMIC_ACQUIRE);
    /* after nep: a list at least as long as nep was when stored */
    const ush_tp_pe_list_t *list = __atomic_load_n(&c->ep_list, __ATOMIC_ACQUIRE);

    for (int i = 0; i < nep;) {
        int k = 0;
        for (; i < nep && k < USH_TP_FLUSH_BATCH; i++) {
            int                      pe = list->pe[i];
            const ush_tp_ctx_page_t *pg = ush_tp_dir_page(&c->peers, pe);
            ucp_ep_h ep = __atomic_load_n(&pg->ep[pe & USH_TP_PAGE_MASK], __ATOMIC_ACQUIRE);
            if (ep) reqs[k++] = ucp_ep_flush_nbx(ep, &prm);
        }
        for (int j = 0; j < k; j++) {
            ucs_status_t st = ush_tp_wait(c, reqs[j]);
            if (st != UCS_OK) ush_tp_fatal_op("ucp_ep_flush_nbx", -1, st);
        }
    }
}

/* Raise *mark to n (a count a completed flush covered); several threads
 * may race, the largest wins. */
static void ush_tp_mark(unsigned long *mark, unsigned long n)
{
    unsigned long done = __atomic_load_n(mark, __ATOMIC_RELAXED);
    while (done < n && !__atomic_compare_exchange_n(mark, &done, n, 0, __ATOMIC_RELEASE,
                                                    __ATOMIC_RELAXED)) {
    }
}

/* Complete every operation of c; n and local are the counts read before,
 * which the flush then covers. */
static void ush_tp_flush(ush_tp_ctx_t *c, unsigned long n, unsigned long local)
{
    /* Alone on its worker, a context flushes the worker: one call. On a
     * shared one that would wait for the other contexts' operations too,
     * so it flushes its own endpoints. A context joining meanwhile only
     * makes the worker flush cover more than it must. nctx is read
     * relaxed, without the pool's lock: either branch completes this
     * context's operations, a stale count only picks the costlier one. */
    if (c->pw && __atomic_load_n(&c->pw->nctx, __ATOMIC_RELAXED) > 1) {
        ush_tp_flush_eps(c);
    } else {
        ucp_request_param_t prm = { .op_attr_mask = 0 };
        ucs_status_t        st  = ush_tp_wait(c, ucp_worker_flush_nbx(c->worker, &prm));
        if (st != UCS_OK) ush_tp_fatal_op("ucp_worker_flush_nbx", -1, st);
    }

    /* The flush returned after reading the targets' acknowledgements (or
     * after another thread did, handed over by the worker's lock). This
     * orders those reads before whatever the caller does next, a direct
     * store of a flag above all: a peer that sees the flag then also sees
     * the data the acknowledgements vouch for. A load-to-store barrier on
     * aarch64 (dmb ishld) and POWER (lwsync, cumulative, which the chain
     * through three CPUs needs there); no instruction on x86; and only
     * after a flush, which took microseconds. */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    __atomic_store_n(&c->inflight, 0, __ATOMIC_RELAXED);
    ush_tp_mark(&c->flushed, n);
    ush_tp_mark(&c->local_flushed, local);
}

void ush_tp_quiet(ush_tp_ctx_t *c)
{
    /* Flush only when some operation a quiet owes, counted before this
     * point, is not yet covered by a completed flush. Counts, not a flag:
     * with threads, a flag cleared by one thread's flush would hide
     * another thread's operation issued while that flush ran. issued is
     * bumped with release after each operation is issued; flushed is
     * raised with release after a flush completed, so the acquire here
     * orders a flush another thread completed before this quiet's
     * return, as if it were our own. A collective's own operations are
     * not owed (ush_tp_unowed): it waits for their effect itself. */
    unsigned long local = __atomic_load_n(&c->local_issued, __ATOMIC_ACQUIRE);
    unsigned long n     = __atomic_load_n(&c->issued, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&c->flushed, __ATOMIC_ACQUIRE) >= n) return;
    ush_tp_flush(c, n, local);
}

void ush_tp_fence(ush_tp_ctx_t *c)
{
    /* To another node, UCX's fence where every endpoint keeps its lane's
     * order (order.c): the operations after it reach each peer after
     * those before, with no round trip. A node-local peer is also written
     * with stores, ordered by the caller's release fence (ush_fence); a
     * UCX operation still in flight to it could land after them, so once
     * there was one, ordering both paths takes completing the UCX side,
     * which a flush does: it returns once the target has written the
     * data (for emulated RMA, once it acknowledged). */
    unsigned long local = __atomic_load_n(&c->local_issued, __ATOMIC_ACQUIRE);
    if (!__atomic_load_n(&ush_tp_unordered, __ATOMIC_RELAXED) &&
        __atomic_load_n(&c->local_flushed, __ATOMIC_ACQUIRE) >= local) {
        /* no endpoint (every peer so far mapped): nothing to order */
        if (__atomic_load_n(&c->nep, __ATOMIC_ACQUIRE) == 0) return;
        ucs_status_t st = ucp_worker_fence(c->worker);
        if (st != UCS_OK) ush_tp_fatal_op("ucp_worker_fence", -1, st);
        return;
    }
    ush_tp_flush(c, __atomic_load_n(&c->issued, __ATOMIC_ACQUIRE), local);
}

int ush_tp_progress(ush_tp_ctx_t *c)
{
    /* A context waiting on its own worker still serves the peers: their
     * requests arrive on the default worker. Without this, two PEs each
     * blocked on a private context's get from the other wait forever. */
    unsigned events = ucp_worker_progress(c->worker);
    if (c != ush_tp_ctx_default) events += ucp_worker_progress(ush_tp_ctx_default->worker);
    if (ush_tp_progress_mt) {
        /* Tells the progress thread the program is progressing. Lost
         * updates between threads do not matter, only that it changes. */
        unsigned long n = __atomic_load_n(&ush_tp_progress_calls, __ATOMIC_RELAXED);
        __atomic_store_n(&ush_tp_progress_calls, n + 1, __ATOMIC_RELAXED);
    }
    return events != 0;
}
