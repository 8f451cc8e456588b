/* x86-64: the TSC, PAUSE, and the copy-once chosen by CPUID at load time. */
#ifndef USH_ARCH_X86_64_H_
#define USH_ARCH_X86_64_H_

static inline uint64_t ush_arch_ticks(void)
{
    return __builtin_ia32_rdtsc();
}

/* The TSC runs at the nominal frequency, which CPUID does not always
 * report; the callers only need the order of magnitude. */
static inline uint64_t ush_arch_ticks_per_us(void)
{
    return 2500;
}

static inline void ush_arch_pause(void)
{
    __builtin_ia32_pause();
}

/* Set once at load time from CPUID (x86_64.c): copies shorter than
 * ush_arch_movsb_below or from ush_arch_movsb_from on take `rep movsb`;
 * of the others, those from ush_arch_avx2_from on take 32-byte AVX2
 * vectors, the rest 16-byte SSE2 vectors. */
extern size_t ush_arch_movsb_below;
extern size_t ush_arch_movsb_from;
extern size_t ush_arch_avx2_from;

void ush_arch_copy_once_avx2(void *dst, const void *src, size_t n);

/* `rep movsb` stores each byte once too. */
static inline void ush_arch_copy_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static inline void ush_arch_copy_once(void *dst, const void *src, size_t n)
{
    if (n < ush_arch_movsb_below || n >= ush_arch_movsb_from) {
        ush_arch_copy_movsb(dst, src, n);
    } else if (n >= ush_arch_avx2_from) {
        ush_arch_copy_once_avx2(dst, src, n);
    } else {
        ush_arch_copy_once_vec(dst, src, n);
    }
}

#endif
