/*
 * One step of every waiting loop.
 *
 * Waiting spins (a CPU pause, progress now and then) for a short while,
 * then yields the CPU at every step: a PE that waits long is waiting for a
 * peer that may need this core, which hwloc cannot see when other jobs, or
 * emulated nodes sharing one machine, run on the same cores. When this
 * node's PEs outnumber its cores, every step yields from the start, and a
 * long wait naps. SHMEM_YIELD=never spins forever, always yields at once.
 * The transport's own waits (a UCX request, finalize's fence) step the
 * same way: ush_tp_idle holds the policy.
 */
#include "ush.h"
#include "ush_fault.h"
#include "ush_hang.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"
#include "arch/ush_arch.h"

#include <stdint.h>
#include <time.h>

/* With every peer mapped (ush_tp_all_mapped), UCX is progressed only
 * every this many steps: nothing arrives through it, and polling memory
 * alone sees a node-local store one cache-line transfer after it is made. */
#define USH_WAIT_PROGRESS_EVERY 64
/* A gap this long between two failed polls means the program's poll loop
 * started over. */
#define USH_POLL_GAP_US 2
/* A wait publishes its steps in the beacon from this step on, at every
 * step (a store to a line of this PE's that nobody reads until a peer
 * exits early): a PE yielding to a busy core may take only a few steps in
 * the 10 ms between two looks. Shorter waits (a ping-pong) never do. */
#define USH_WAIT_BEACON_FROM 16
/* A wait writes its hang record (ush_hang.h) from this step on, and
 * rewrites it this often: how long it has waited, for a report that may
 * come at any time. Not sooner: a record costs a clock read and two
 * sequence-locked copies, and again when the wait ends, which doubled a
 * 2-PE barrier's time (0.06 us to 0.27) when written from the beacon's
 * 16th step. A thousand steps take tens of microseconds at least. */
#define USH_WAIT_HANG_FROM  1024
#define USH_WAIT_HANG_EVERY 64

/* Memory ordering. The beacon is written by this PE's waits and read by
 * an exiting peer (fault.c): relaxed stores suffice, since the reader
 * compares values of this one word only (coherence keeps one word's
 * stores in one order for every reader). ush_wait_exiting is set and
 * mostly read by the exiting thread itself; another thread reads it
 * relaxed, as a hint whose only consequence is fault.c's checks, which
 * look at the thread level before touching anything the exiting thread
 * writes. The serial only has to be unique: a relaxed fetch-add. */
uint64_t       *ush_wait_beacon;
static int      ush_wait_exiting;
static unsigned ush_wait_serial; /* atomic: the last serial handed out */

/* The doorbell's offset in every PE's heap segment; 0: none yet. */
static size_t ush_wait_doorbell_off;

void ush_wait_beacon_init(void)
{
    ush_wait_beacon  = ush_symm_internal_alloc(64); /* a line of its own */
    /* A plain store: peers read beacons only when exiting, after
     * shmem_init's closing barrier, whose release/acquire publishes it. */
    *ush_wait_beacon = 0;
    /* A line of its own too: peers read it after each atomic they send
     * here, while this PE's waits write the beacon at every step. */
    uint32_t *bell = ush_symm_internal_alloc(64);
    *bell          = 0;
    ush_wait_doorbell_off = (uintptr_t)bell - ush_seg[USH_SEG_HEAP].base;
    ush_tp_doorbell       = bell;
}

void ush_wait_beacon_fini(void)
{
    ush_wait_beacon       = NULL; /* the heap goes away */
    ush_tp_doorbell       = NULL;
    ush_wait_doorbell_off = 0;
}

void ush_wake(int pe)
{
    size_t off = ush_wait_doorbell_off;
    if (off == 0) return;
    char *base = ush_tp_mapped(pe, USH_SEG_HEAP);
    if (base == NULL) return;
    uint32_t *bell = (uint32_t *)(base + off);
    /* seq_cst: after the caller's signal (a plain load on x86, ldar after
     * the signal's stlr on aarch64). A wake missed costs one whole nap. */
    if (__atomic_load_n(bell, __ATOMIC_SEQ_CST) != 0) ush_tp_ring(bell);
}

void ush_wait_beacon_exiting(void)
{
    __atomic_store_n(&ush_wait_exiting, 1, __ATOMIC_RELAXED);
    if (ush_wait_beacon) {
        __atomic_store_n(ush_wait_beacon, USH_WAIT_BEACON_EXITING, __ATOMIC_RELEASE);
    }
}

static void ush_wait_publish(ush_wait_t *w)
{
    uint64_t *beacon = ush_wait_beacon;

    if (__atomic_load_n(&ush_wait_exiting, __ATOMIC_RELAXED)) {
        ush_fault_exit_look(); /* waiting for the others to exit too */
        return;
    }
    if (beacon == NULL) return;
    while (w->serial == 0 || w->serial == UINT32_MAX) { /* neither "none" nor EXITING */
        w->serial = __atomic_add_fetch(&ush_wait_serial, 1, __ATOMIC_RELAXED);
    }
    __atomic_store_n(beacon, (uint64_t)w->serial << 32 | w->steps, __ATOMIC_RELAXED);

    /* The hang record: where this PE waits, and since when. */
    if (w->steps >= USH_WAIT_HANG_FROM &&
        (w->since == 0 || w->steps % USH_WAIT_HANG_EVERY == 0)) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t now = (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000 + 1;
        if (w->since == 0) w->since = now;
        uint64_t ms = now - w->since;
        ush_hang_publish(USH_HANG_WAITING, ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms);
    }
}

void ush_wait_end(ush_wait_t *w)
{
    (void)w;
    ush_hang_publish(USH_HANG_INSIDE, 0);
}

void ush_wait_step(ush_wait_t *w)
{
    unsigned step = w->steps++;

    if (step >= USH_WAIT_BEACON_FROM) ush_wait_publish(w);

    /* Serve remote operations that need this PE (emulated RMA/AMO) and
     * complete our own. */
    if (!ush_tp_all_mapped || step % USH_WAIT_PROGRESS_EVERY == USH_WAIT_PROGRESS_EVERY - 1) {
        ush_tp_progress(ush_tp_ctx_default);
        ush_ctx_progress_all();
    }

    ush_tp_idle(step);
}

/* The program's poll loop, as one wait: its failed polls so far, and
 * when the last one was. */
static __thread uint64_t   ush_poll_last;
static __thread ush_wait_t ush_poll;

void ush_poll_step(void)
{
    uint64_t now = ush_arch_ticks();
    if (now - ush_poll_last > USH_POLL_GAP_US * ush_arch_ticks_per_us()) {
        ush_poll = (ush_wait_t){ 0 };
    }
    ush_poll_last = now;
    ush_wait_step(&ush_poll);
}

void ush_poll_hit(void)
{
    if (ush_poll.steps == 0) return;
    if (ush_poll.since != 0) ush_wait_end(&ush_poll);
    ush_poll = (ush_wait_t){ 0 };
}
