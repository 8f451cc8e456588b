/* ppc64le: the time base's frequency, once, at load time. */
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__) && !defined(USH_ARCH_GENERIC)
#include "arch/ush_arch.h"

#include <time.h>

/* 512 MHz, the time base of POWER8 to POWER10, until the constructor
 * below has run. */
uint64_t ush_arch_tb_per_us = 512;

static uint64_t ush_arch_ns_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)((t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec));
}

/* Once: glibc asks the vDSO for the frequency, and where there is none
 * reads /proc/cpuinfo's "timebase" line again on every call. Under QEMU's
 * user-mode emulation there is neither (the frequency is 0, while the
 * time base runs at the host's TSC rate): then measure the rate against
 * the monotonic clock, for 100 us; the callers need only its order of
 * magnitude. */
__attribute__((constructor)) static void ush_arch_ppc64le_init(void)
{
    uint64_t        f = __ppc_get_timebase_freq(), k0, ns;
    struct timespec t0;

    if (f >= 1000000) {
        ush_arch_tb_per_us = f / 1000000;
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    k0 = ush_arch_ticks();
    while ((ns = ush_arch_ns_since(&t0)) < 100000) {}
    f = (ush_arch_ticks() - k0) * 1000 / ns;
    ush_arch_tb_per_us = f > 0 ? f : 1;
}
#endif
