/* x86-64: which copy-once each size takes, from CPUID at load time. */
#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
#include "arch/ush_arch.h"

#include <cpuid.h>

/* `rep movsb` where it is fast (bench/copy_once.c; figures on the Xeon of
 * docs/performance.md): from 2 KiB on, where it matches memcpy, on CPUs
 * with ERMS (enhanced rep movsb) or FSRM (fast short rep movsb); and with
 * FSRM also below 129 bytes, where it takes a flat 3.5 ns. Between the
 * two it costs more than the vectors even with FSRM (256 bytes: 10 ns,
 * AVX2 5). Without either flag (AMD Zen 1, for one) it is slow at every
 * size and never taken. */
#define USH_ARCH_MOVSB_FROM  ((size_t)2048)
#define USH_ARCH_MOVSB_BELOW ((size_t)129)
/* From this size on, the AVX2 copy's call pays for itself. */
#define USH_ARCH_AVX2_FROM ((size_t)128)

#define USH_CPUID1_ECX_OSXSAVE (1u << 27)
#define USH_CPUID1_ECX_AVX     (1u << 28)
#define USH_CPUID7_EBX_AVX2    (1u << 5)
#define USH_CPUID7_EBX_ERMS    (1u << 9)
#define USH_CPUID7_EDX_FSRM    (1u << 4)
#define USH_XCR0_SSE_AVX       0x6u /* the OS saves xmm and ymm state */

size_t ush_arch_movsb_below = 0;
size_t ush_arch_movsb_from  = SIZE_MAX;
size_t ush_arch_avx2_from   = SIZE_MAX;

__attribute__((target("avx2"))) void ush_arch_copy_once_avx2(void *dst, const void *src,
                                                              size_t n)
{
    ush_arch_copy_once_w(dst, src, n, 32);
}

static int ush_arch_os_saves_ymm(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & USH_XCR0_SSE_AVX) == USH_XCR0_SSE_AVX;
}

/* A constructor, so that the choice is made before any copy, and by the
 * unit tests too, whatever calls the library first. */
__attribute__((constructor)) static void ush_arch_x86_init(void)
{
    unsigned a, b, c1, d, b7, c, d7;

    if (!__get_cpuid(1, &a, &b, &c1, &d)) return;
    if (!__get_cpuid_count(7, 0, &a, &b7, &c, &d7)) return;
    if (d7 & USH_CPUID7_EDX_FSRM) ush_arch_movsb_below = USH_ARCH_MOVSB_BELOW;
    if (d7 & USH_CPUID7_EDX_FSRM || b7 & USH_CPUID7_EBX_ERMS) {
        ush_arch_movsb_from = USH_ARCH_MOVSB_FROM;
    }
    if ((c1 & USH_CPUID1_ECX_OSXSAVE) && (c1 & USH_CPUID1_ECX_AVX) &&
        (b7 & USH_CPUID7_EBX_AVX2) && ush_arch_os_saves_ymm()) {
        ush_arch_avx2_from = USH_ARCH_AVX2_FROM;
    }
}
#endif
