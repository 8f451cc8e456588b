/* Any other CPU, in portable C: the monotonic clock, no spin hint. */
#ifndef USH_ARCH_GENERIC_H_
#define USH_ARCH_GENERIC_H_

#include <time.h>

static inline uint64_t ush_arch_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t ush_arch_ticks_per_us(void)
{
    return 1000;
}

/* No portable pause instruction; keep the compiler from folding the loop. */
static inline void ush_arch_pause(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void ush_arch_copy_once(void *dst, const void *src, size_t n)
{
    ush_arch_copy_once_vec(dst, src, n);
}

#endif
