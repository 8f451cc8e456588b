/*
 * One step of every waiting loop.
 */
#include "ush.h"
#include "ush_rma.h"
#include "transport/ush_tp.h"

#include <sched.h>

void ush_wait_step(void)
{
    /* Serve remote operations that need this PE (emulated RMA/AMO) and
     * complete our own. */
    ush_tp_progress(ush_tp_ctx_default);
    ush_ctx_progress_all();
    if (ush_g.yield) {
        sched_yield();
    } else {
        __builtin_ia32_pause();
    }
}
