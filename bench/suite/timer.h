/* timer.h: the one clock every benchmark reads. CLOCK_MONOTONIC: immune to
 * wall-clock steps, and its vDSO read costs tens of nanoseconds, which the
 * timed loops amortise over many operations. */
#ifndef SB_TIMER_H
#define SB_TIMER_H

#include <time.h>

static inline double sb_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#endif
