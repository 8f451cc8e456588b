/* aarch64: the generic timer's virtual count, ISB as the spin hint. */
#ifndef USH_ARCH_AARCH64_H_
#define USH_ARCH_AARCH64_H_

static inline uint64_t ush_arch_ticks(void)
{
    uint64_t t;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(t));
    return t;
}

/* CNTFRQ_EL0 holds the counter's frequency (1 GHz from Armv8.6 on, often
 * tens of MHz before); Linux lets user space read both registers. */
static inline uint64_t ush_arch_ticks_per_us(void)
{
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    return f >= 1000000 ? f / 1000000 : 1;
}

/* YIELD is a no-op on most Arm cores, so a spin would poll at full rate;
 * ISB stalls the pipeline for a few tens of cycles, like x86's PAUSE. */
static inline void ush_arch_pause(void)
{
    __asm__ volatile("isb" ::: "memory");
}

/* No `rep movsb` here: 16-byte NEON stores, each byte once. */
static inline void ush_arch_copy_once(void *dst, const void *src, size_t n)
{
    ush_arch_copy_once_vec(dst, src, n);
}

#endif
