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

/* The copy-once's choice by size, made from a set of CPU features
 * (x86_64.c): CPUID's at load time, or the set named by SHMEM_CPU_FEATURES
 * or a test. With AVX-512 (ush_arch_avx512) copies up to 64 bytes are one
 * masked store inline, up to 128 five aligned 32-byte ones and up to 256
 * nine (ush_arch_masked_to), inline too, longer ones below
 * ush_arch_avx512_movsb_from the AVX-512 copy, the rest `rep movsb`.
 * Without it, copies shorter than ush_arch_movsb_below or from
 * ush_arch_movsb_from on take `rep movsb`; of the others, those from
 * ush_arch_avx2_from on take 32-byte AVX2 vectors, the rest 16-byte SSE2
 * vectors. */
#define USH_ARCH_HAS_FEATURES 1
extern USH_ARCH_HIDDEN int    ush_arch_avx512;
extern USH_ARCH_HIDDEN size_t ush_arch_masked_to;
extern USH_ARCH_HIDDEN size_t ush_arch_avx512_movsb_from;
extern USH_ARCH_HIDDEN size_t ush_arch_movsb_below;
extern USH_ARCH_HIDDEN size_t ush_arch_movsb_from;
extern USH_ARCH_HIDDEN size_t ush_arch_avx2_from;

/* The features this CPU (and its OS) can run: AVX2 and AVX-512 where
 * CPUID and XCR0 say so, ERMS and FSRM always, since `rep movsb` runs on
 * every x86-64 CPU and those two only say where it is fast. */
USH_ARCH_HIDDEN unsigned ush_arch_features_cpu(void);
/* What the layer takes by itself: AVX2 and AVX-512 where they run, ERMS
 * where CPUID has ERMS or FSRM, FSRM only on Intel's (on AMD's Zen 3 a
 * short `rep movsb` measured 3-5 times slower than the vectors). */
USH_ARCH_HIDDEN unsigned ush_arch_features_auto(void);
/* The set in use. */
USH_ARCH_HIDDEN unsigned ush_arch_features(void);
/* Copy with this set from now on; it must lie within ush_arch_features_cpu()
 * and no copy may be running. */
USH_ARCH_HIDDEN void ush_arch_features_use(unsigned set);

USH_ARCH_HIDDEN void ush_arch_copy_once_avx2(void *dst, const void *src, size_t n);
/* 64 bytes or more */
USH_ARCH_HIDDEN void ush_arch_copy_once_avx512(void *dst, const void *src, size_t n);

/* `rep movsb` stores each byte once too. */
static inline void ush_arch_copy_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* The registers the masked copy uses, named only where the compiler knows
 * them: code built without AVX-512 never allocates k1 or zmm16 (and both
 * are call-clobbered, so nothing lives in them across this). Do not inline
 * the copy into a function given AVX-512 by a target attribute alone. */
#if defined(__AVX512F__)
#define USH_ARCH_MASKED_CLOBBERS_ "k1", "xmm16", "memory"
#define USH_ARCH_MASKED128_CLOBBERS_                                           \
    "k1", "k2", "k3", "k4", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "memory"
#define USH_ARCH_MASKED256_CLOBBERS_                                           \
    "k1", "k2", "k4", "k5", "k6", "k7", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20",     \
        "xmm21", "xmm22", "xmm23", "xmm24", "memory"
#else
#define USH_ARCH_MASKED_CLOBBERS_    "memory"
#define USH_ARCH_MASKED128_CLOBBERS_ "memory"
#define USH_ARCH_MASKED256_CLOBBERS_ "memory"
#endif

/* Up to 64 bytes, only where ush_arch_avx512: one masked load and one
 * masked 64-byte store (vmovdqu8 under k1 = the low n bits). The store
 * writes the n bytes and leaves the other 64 - n alone: no byte is
 * stored twice, nor any byte outside [dst, dst + n) at all, and masked-off
 * bytes raise no fault. Inline assembly rather than intrinsics, so that
 * it inlines into callers compiled for the baseline x86-64; zmm16 needs no
 * vzeroupper afterwards.
 *
 * Tearing: the store is one instruction, but the SDM makes stores atomic
 * only up to 8 bytes (16 for aligned vector stores on AVX CPUs); a wider
 * one may reach memory in pieces, so a peer can see part of it. What a
 * waiter needs is narrower and holds: the aligned 1/2/4/8-byte word it
 * waits on lies in one store and one cache line (stores are split only at
 * 8-byte boundaries, here and in the longer copies), and a core writes a
 * line's part of a store while it owns the line, so the waiter sees the
 * word old or new (the SDM does not promise this for wide stores; the
 * 16- and 32-byte vector copies rely on it just the same). And as no byte
 * is stored twice, a word it has seen new and cleared is not written
 * again by the same put. */
static inline void ush_arch_copy_once_masked(void *dst, const void *src, size_t n)
{
    uint64_t mask;
    __asm__ volatile("bzhi %[n], %[ones], %[mask]\n\t"
                     "kmovq %[mask], %%k1\n\t"
                     "vmovdqu8 (%[s]), %%zmm16%{%%k1%}%{z%}\n\t"
                     "vmovdqu8 %%zmm16, (%[d])%{%%k1%}"
                     : [mask] "=&r"(mask)
                     : [n] "r"((uint64_t)n), [ones] "r"(~(uint64_t)0), [s] "r"(src),
                       [d] "r"(dst)
                     : USH_ARCH_MASKED_CLOBBERS_);
}

/* 65 to 256 bytes, only where ush_arch_avx512 (and so AVX-512VL): in the
 * destination's own aligned 32-byte blocks. With off = dst's offset in
 * its block and end = off + n, block 0 takes [off, 32), the blocks below
 * the copy's shortest end whole, and each block above that whatever of
 * it lies below end, perhaps none: each block's share with one load from
 * the source byte that belongs at its start and one aligned 32-byte
 * store, both masked but for the whole blocks (masked-off bytes are not
 * read, so bytes outside the source are never touched). No two stores
 * overlap, none crosses a block, and every naturally aligned 8-byte word
 * lies in one block, so it is written by one store. The stores are 32
 * bytes and aligned rather than 64 and unaligned: on the Xeon of
 * docs/performance.md a 64-byte masked store that crosses a line cost
 * several times an aligned 32-byte one. All loads come before the first
 * store, as in memcpy.
 *
 * The masks are cheap because they are what made these copies slower
 * than memcpy: bzhi of all ones keeps the low `index` bits and all of
 * them from the operand's width on, so a block pair's two masks come
 * from one 64-bit bzhi (the upper block by a k-register shift), and only
 * a count that can fall below zero needs a clamp. */
#define USH_ARCH_BLOCK_LOAD_(i, ymm, k)                                        \
    "vmovdqu8 " #i "*32(%[s]), %%ymm" #ymm "%{%%k" #k "%}%{z%}\n\t"
#define USH_ARCH_BLOCK_STORE_(i, ymm, k)                                       \
    "vmovdqu8 %%ymm" #ymm ", " #i "*32(%[a])%{%%k" #k "%}\n\t"
#define USH_ARCH_WHOLE_LOAD_(i, ymm)  "vmovdqu64 " #i "*32(%[s]), %%ymm" #ymm "\n\t"
#define USH_ARCH_WHOLE_STORE_(i, ymm) "vmovdqa64 %%ymm" #ymm ", " #i "*32(%[a])\n\t"

/* Each copy's blocks once, as (block, ymm register, mask register) for
 * a masked block and (block, ymm register) for a whole one; expanded
 * once with the loads and once with the stores, all loads first. */
#define USH_ARCH_BLOCKS128_(MASKED, WHOLE)                                     \
    MASKED(0, 16, 1) WHOLE(1, 17) MASKED(2, 18, 2) MASKED(3, 19, 3) MASKED(4, 20, 4)
#define USH_ARCH_BLOCKS256_(MASKED, WHOLE)                                     \
    MASKED(0, 16, 1) WHOLE(1, 17) WHOLE(2, 18) WHOLE(3, 19) MASKED(4, 20, 4)     \
    MASKED(5, 21, 5) MASKED(6, 22, 6) MASKED(7, 23, 7) MASKED(8, 24, 2)
#define USH_ARCH_LOADS_THEN_STORES_(BLOCKS)                                    \
    BLOCKS(USH_ARCH_BLOCK_LOAD_, USH_ARCH_WHOLE_LOAD_)                         \
    BLOCKS(USH_ARCH_BLOCK_STORE_, USH_ARCH_WHOLE_STORE_)

/* 65 to 128 bytes: end is 65 to 158, so five blocks, block 1 whole. */
static inline void ush_arch_copy_once_masked128(void *dst, const void *src, size_t n)
{
    size_t    off = (uintptr_t)dst & 31;
    char     *a   = (char *)dst - off;
    uintptr_t s   = (uintptr_t)src - off;
    ptrdiff_t end = (ptrdiff_t)(off + n);
    ptrdiff_t x3  = end - 96;
    uint64_t  k0; /* ~0 << off, by shlx: a shift by %cl is three uops */
    uint64_t  k2  = (uint64_t)(end - 64);          /* 1-94: block 2 */
    uint64_t  k3  = (uint64_t)(x3 < 0 ? 0 : x3); /* 0-62: blocks 3 and 4 */

    __asm__ volatile("shlx %[off], %[ones], %[k0]\n\t"
                     "bzhi %[k2], %[ones], %[k2]\n\t"
                     "bzhi %[k3], %[ones], %[k3]\n\t"
                     "kmovd %k[k0], %%k1\n\t"
                     "kmovd %k[k2], %%k2\n\t"
                     "kmovq %[k3], %%k3\n\t"
                     "kshiftrq $32, %%k3, %%k4\n\t"
                     USH_ARCH_LOADS_THEN_STORES_(USH_ARCH_BLOCKS128_)
                     : [k0] "=&r"(k0), [k2] "+&r"(k2), [k3] "+&r"(k3)
                     : [off] "r"((uint64_t)off), [ones] "r"(~(uint64_t)0), [s] "r"(s), [a] "r"(a)
                     : USH_ARCH_MASKED128_CLOBBERS_);
}

/* 129 to 256 bytes: end is 129 to 286, so nine blocks, blocks 1-3
 * whole. Nine aligned 32-byte stores measured faster than five masked
 * 64-byte lines, which need more mask arithmetic than they save stores. */
static inline void ush_arch_copy_once_masked256(void *dst, const void *src, size_t n)
{
    size_t    off = (uintptr_t)dst & 31;
    char     *a   = (char *)dst - off;
    uintptr_t s   = (uintptr_t)src - off;
    ptrdiff_t end = (ptrdiff_t)(off + n);
    ptrdiff_t x6 = end - 192, x8 = end - 256;
    uint64_t  k0;
    uint64_t  k4 = (uint64_t)(end - 128);          /* 1-158: blocks 4 and 5 */
    uint64_t  k6 = (uint64_t)(x6 < 0 ? 0 : x6);    /* 0-94: blocks 6 and 7 */
    uint64_t  k8 = (uint64_t)(x8 < 0 ? 0 : x8);    /* 0-30: block 8 */

    __asm__ volatile("shlx %[off], %[ones], %[k0]\n\t"
                     "bzhi %[k4], %[ones], %[k4]\n\t"
                     "bzhi %[k6], %[ones], %[k6]\n\t"
                     "bzhi %[k8], %[ones], %[k8]\n\t"
                     "kmovd %k[k0], %%k1\n\t"
                     "kmovq %[k4], %%k4\n\t"
                     "kmovq %[k6], %%k6\n\t"
                     "kmovd %k[k8], %%k2\n\t"
                     "kshiftrq $32, %%k4, %%k5\n\t"
                     "kshiftrq $32, %%k6, %%k7\n\t"
                     USH_ARCH_LOADS_THEN_STORES_(USH_ARCH_BLOCKS256_)
                     : [k0] "=&r"(k0), [k4] "+&r"(k4), [k6] "+&r"(k6), [k8] "+&r"(k8)
                     : [off] "r"((uint64_t)off), [ones] "r"(~(uint64_t)0), [s] "r"(s), [a] "r"(a)
                     : USH_ARCH_MASKED256_CLOBBERS_);
}

/* Whether a `rep movsb` from src to dst would be slow however long:
 * with the destination 1 to 63 bytes after the source modulo a page, its
 * stores and later loads alias in the low 12 address bits (on AMD's Zen 3,
 * 4 KiB then took 20-30 times longer; glibc's memmove avoids the same on
 * Intel's FSRM CPUs). The vectors do not mind. At 0, the common case of a
 * symmetric buffer put to the same offset, it ran as fast as memcpy. */
static inline int ush_arch_movsb_near(const void *dst, const void *src)
{
    return (((uintptr_t)dst - (uintptr_t)src - 1) & 4095) < 63;
}

/* Every size, so that every put is copied once; 0 bytes store nothing.
 * The inline masked copies come first, for the sizes where a call would
 * cost as much as the copy (n - 1 makes 0 bytes skip them: without
 * AVX-512 they are not even valid instructions). */
static inline __attribute__((always_inline)) void ush_arch_copy_once(void *dst, const void *src,
                                                                 size_t n)
{
    if (n - 1 < ush_arch_masked_to) {
        if (__builtin_expect(n <= 64, 1)) ush_arch_copy_once_masked(dst, src, n);
        else if (n <= 128) ush_arch_copy_once_masked128(dst, src, n);
        else ush_arch_copy_once_masked256(dst, src, n);
    } else if (ush_arch_avx512) {
        if (n < ush_arch_avx512_movsb_from || ush_arch_movsb_near(dst, src)) {
            if (n > 0) ush_arch_copy_once_avx512(dst, src, n);
        } else {
            ush_arch_copy_movsb(dst, src, n);
        }
    } else if (n < ush_arch_movsb_below ||
               (n >= ush_arch_movsb_from && !ush_arch_movsb_near(dst, src))) {
        ush_arch_copy_movsb(dst, src, n);
    } else if (n >= ush_arch_avx2_from) {
        ush_arch_copy_once_avx2(dst, src, n);
    } else {
        ush_arch_copy_once_vec(dst, src, n);
    }
}

#endif
