/*
 * One step of every waiting loop.
 *
 * Waiting spins (progress, then a CPU pause) for a short while, then
 * yields the CPU at every step: a PE that waits long is waiting for a peer
 * that may need this core, which hwloc cannot see when other jobs, or
 * emulated nodes sharing one machine, run on the same cores. When this
 * node's PEs outnumber its cores, every step yields from the start.
 * SHMEM_YIELD=never spins forever, always yields at once.
 */
#include "ush.h"
#include "ush_rma.h"
#include "transport/ush_tp.h"

#include <sched.h>
#include <stdint.h>
#include <x86intrin.h>

/* Steps of one wait spent spinning before yielding (tens of microseconds:
 * far longer than any node-local round trip). */
#define USH_WAIT_SPIN_STEPS 1000
/* A gap this long (in TSC cycles, about 2 us) between two steps means a
 * new wait began. */
#define USH_WAIT_GAP_CYCLES 5000

static __thread uint64_t ush_wait_last_tsc;
static __thread unsigned ush_wait_steps;

void ush_wait_step(void)
{
    /* Serve remote operations that need this PE (emulated RMA/AMO) and
     * complete our own. */
    ush_tp_progress(ush_tp_ctx_default);
    ush_ctx_progress_all();

    uint64_t now = __rdtsc();
    if (now - ush_wait_last_tsc > USH_WAIT_GAP_CYCLES) ush_wait_steps = 0;
    ush_wait_last_tsc = now;

    if (ush_g.yield || (ush_g.yield_late && ++ush_wait_steps > USH_WAIT_SPIN_STEPS)) {
        sched_yield();
    } else {
        __builtin_ia32_pause();
    }
}
