/* ppc64le: the time base (its rate from ppc64le.c), SMT priority hints
 * as the spin hint. */
#ifndef USH_ARCH_PPC64LE_H_
#define USH_ARCH_PPC64LE_H_

#include <sys/platform/ppc.h>

static inline uint64_t ush_arch_ticks(void)
{
    return __builtin_ppc_get_timebase();
}

/* From the kernel, or measured where it does not say (ppc64le.c). */
extern USH_ARCH_HIDDEN uint64_t ush_arch_tb_per_us;

static inline uint64_t ush_arch_ticks_per_us(void)
{
    return ush_arch_tb_per_us;
}

/* Lower this hardware thread's priority for the spin, so the core's other
 * SMT threads (one of which may be the peer we wait for) get its cycles,
 * then back to normal: what Linux's cpu_relax does. */
static inline void ush_arch_pause(void)
{
    __asm__ volatile("or 1,1,1\n\tor 2,2,2" ::: "memory");
}

/* 16-byte VSX stores (POWER8, the ppc64le baseline), each byte once. */
static inline void ush_arch_copy_once(void *dst, const void *src, size_t n)
{
    ush_arch_copy_once_vec(dst, src, n);
}

#endif
