/* x86-64: which copy-once each size takes, from a set of CPU features:
 * CPUID's at load time, or one named later (SHMEM_CPU_FEATURES, tests). */
#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
#include "arch/ush_arch.h"

#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

/* `rep movsb` where it is fast (bench/copy_once.c; figures on the Xeon of
 * docs/performance.md): from 2 KiB on, where it matches memcpy, on CPUs
 * with ERMS (enhanced rep movsb) or FSRM (fast short rep movsb); and with
 * Intel's FSRM also below 129 bytes, where it takes a flat 3.5 ns (AMD's
 * Zen 3 has the flag, but there 1-128 bytes took 25-35 ns against the
 * vectors' 6-16). Between the two it costs more than the vectors even
 * with FSRM (256 bytes: 10 ns, AVX2 5). Without either flag (AMD Zen 1,
 * for one) it is slow at every size and never taken. */
#define USH_ARCH_MOVSB_FROM  ((size_t)2048)
#define USH_ARCH_MOVSB_BELOW ((size_t)129)
/* With AVX-512, `rep movsb` from 8 KiB on (ERMS or FSRM): there it
 * matches glibc's memcpy, which takes it too, and the AVX-512 copy falls
 * 4-15 % behind into cold destinations (2-8 KiB: the AVX-512 copy is
 * 5-20 % faster). */
#define USH_ARCH_AVX512_MOVSB_FROM ((size_t)8192)
/* From this size on, the AVX2 copy's call pays for itself. */
#define USH_ARCH_AVX2_FROM ((size_t)128)

#define USH_CPUID1_ECX_OSXSAVE (1u << 27)
#define USH_CPUID1_ECX_AVX     (1u << 28)
#define USH_CPUID7_EBX_AVX2    (1u << 5)
#define USH_CPUID7_EBX_ERMS    (1u << 9)
#define USH_CPUID7_EDX_FSRM    (1u << 4)
#define USH_CPUID7_EBX_BMI2    (1u << 8)
#define USH_CPUID7_EBX_AVX512F  (1u << 16)
#define USH_CPUID7_EBX_AVX512BW (1u << 30)
#define USH_CPUID7_EBX_AVX512VL (1u << 31)
#define USH_XCR0_SSE_AVX       0x6u  /* the OS saves xmm and ymm state */
#define USH_XCR0_AVX512        0xe0u /* ... and k0-7, zmm0-15's upper halves, zmm16-31 */

int    ush_arch_avx512      = 0;
size_t ush_arch_masked_to   = 0;
size_t ush_arch_avx512_movsb_from = SIZE_MAX;
size_t ush_arch_movsb_below = 0;
size_t ush_arch_movsb_from  = SIZE_MAX;
size_t ush_arch_avx2_from   = SIZE_MAX;

static unsigned ush_arch_cpu_set, ush_arch_auto_set, ush_arch_used_set;

__attribute__((target("avx2"))) void ush_arch_copy_once_avx2(void *dst, const void *src,
                                                              size_t n)
{
    ush_arch_copy_once_w(dst, src, n, 32);
}

#define USH_ARCH_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,bmi2")))

/* The copy in the destination's own 64-byte lines: `a` is the line holding
 * dst, `off` dst's offset in it, `end` = off + n, and `s` the source byte
 * that goes to a[0] (below src when off > 0: only masked loads read
 * there, and they never read a masked-off byte). Line j takes the bytes of
 * [off, end) that fall in [64 j, 64 j + 64) with one masked load and one
 * aligned masked store: that line's share of the copy and nothing else.
 * No two stores overlap, none crosses a line, and every naturally aligned
 * 8-byte word lies within one line, so it is written by one store. */
USH_ARCH_TARGET_AVX512 static inline void ush_arch_line(unsigned char *a, uintptr_t s,
                                                        size_t j, __mmask64 k)
{
    _mm512_mask_storeu_epi8(a + 64 * j, k, _mm512_maskz_loadu_epi8(k, (const void *)(s + 64 * j)));
}

/* The low `bytes` bits, bytes <= 64 (bzhi reads only the index's low byte). */
USH_ARCH_TARGET_AVX512 static inline __mmask64 ush_arch_low(size_t bytes)
{
    return _bzhi_u64(~(uint64_t)0, (unsigned)bytes);
}

/* Whole lines, one store each, from line `from` while a line fits below
 * end; returns the first line left. */
USH_ARCH_TARGET_AVX512 static inline size_t ush_arch_lines(unsigned char *a, uintptr_t s,
                                                           size_t from, size_t end)
{
    size_t j = 64 * from;
    for (; j + 256 <= end; j += 256) {
        __m512i v0 = _mm512_loadu_si512((const void *)(s + j));
        __m512i v1 = _mm512_loadu_si512((const void *)(s + j + 64));
        __m512i v2 = _mm512_loadu_si512((const void *)(s + j + 128));
        __m512i v3 = _mm512_loadu_si512((const void *)(s + j + 192));
        _mm512_store_si512(a + j, v0);
        _mm512_store_si512(a + j + 64, v1);
        _mm512_store_si512(a + j + 128, v2);
        _mm512_store_si512(a + j + 192, v3);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    for (; j + 64 <= end; j += 64) {
        _mm512_store_si512(a + j, _mm512_loadu_si512((const void *)(s + j)));
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    return j / 64;
}

/* 64 bytes or more (the inline copies take those up to 256): the first
 * line's share from off, whole lines, the last line's share up to end.
 * Tried for 129-256 bytes and dropped before those went inline: fixed
 * lines with arithmetic masks (slower than the inline blocks) and
 * 8-byte-aligned unaligned pieces with only two masked stores (as fast
 * warm, 10 % slower into cold lines). */
USH_ARCH_TARGET_AVX512 void ush_arch_copy_once_avx512(void *dst, const void *src, size_t n)
{
    size_t         off = (uintptr_t)dst & 63;
    unsigned char *a   = (unsigned char *)dst - off;
    uintptr_t      s   = (uintptr_t)src - off;
    size_t         end = off + n, j;

    ush_arch_line(a, s, 0, ~(uint64_t)0 << off);
    j = ush_arch_lines(a, s, 1, end);
    if (64 * j < end) ush_arch_line(a, s, j, ush_arch_low(end - 64 * j));
}

static uint64_t ush_arch_xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

unsigned ush_arch_features_cpu(void)
{
    return ush_arch_cpu_set;
}

unsigned ush_arch_features_auto(void)
{
    return ush_arch_auto_set;
}

unsigned ush_arch_features(void)
{
    return ush_arch_used_set;
}

void ush_arch_features_use(unsigned set)
{
    int avx512 = (set & USH_ARCH_AVX512) != 0;
    int movsb  = (set & (USH_ARCH_ERMS | USH_ARCH_FSRM)) != 0;

    ush_arch_used_set          = set;
    ush_arch_avx512            = avx512;
    ush_arch_masked_to         = avx512 ? 256 : 0;
    ush_arch_avx512_movsb_from = avx512 && movsb ? USH_ARCH_AVX512_MOVSB_FROM : SIZE_MAX;
    ush_arch_movsb_below = !avx512 && (set & USH_ARCH_FSRM) ? USH_ARCH_MOVSB_BELOW : 0;
    ush_arch_movsb_from  = !avx512 && movsb ? USH_ARCH_MOVSB_FROM : SIZE_MAX;
    ush_arch_avx2_from   = !avx512 && (set & USH_ARCH_AVX2) ? USH_ARCH_AVX2_FROM : SIZE_MAX;
}

/* A constructor, so that the choice is made before any copy, and by the
 * unit tests too, whatever calls the library first. */
__attribute__((constructor)) static void ush_arch_x86_init(void)
{
    unsigned a, b, c1, d, b7, c, d7, vendor[3];
    unsigned cpu = USH_ARCH_ERMS | USH_ARCH_FSRM, fast = 0;

    if (__get_cpuid(0, &a, &vendor[0], &vendor[2], &vendor[1]) &&
        __get_cpuid(1, &a, &b, &c1, &d) && __get_cpuid_count(7, 0, &a, &b7, &c, &d7)) {
        int intel = memcmp(vendor, "GenuineIntel", 12) == 0;
        if (d7 & USH_CPUID7_EDX_FSRM || b7 & USH_CPUID7_EBX_ERMS) fast |= USH_ARCH_ERMS;
        if (d7 & USH_CPUID7_EDX_FSRM && intel) fast |= USH_ARCH_FSRM;
        int      osxsave = c1 & USH_CPUID1_ECX_OSXSAVE && c1 & USH_CPUID1_ECX_AVX;
        uint64_t xcr0    = osxsave ? ush_arch_xcr0() : 0;
        int      avx     = (xcr0 & USH_XCR0_SSE_AVX) == USH_XCR0_SSE_AVX;
        if (avx && b7 & USH_CPUID7_EBX_AVX2) cpu |= USH_ARCH_AVX2;
        if (avx && (b7 & USH_CPUID7_EBX_AVX512F) &&
            (b7 & USH_CPUID7_EBX_AVX512BW) && (b7 & USH_CPUID7_EBX_AVX512VL) &&
            (b7 & USH_CPUID7_EBX_BMI2) && (xcr0 & USH_XCR0_AVX512) == USH_XCR0_AVX512) {
            cpu |= USH_ARCH_AVX512;
        }
    }
    ush_arch_cpu_set  = cpu;
    ush_arch_auto_set = (cpu & (USH_ARCH_AVX2 | USH_ARCH_AVX512)) | fast;
    ush_arch_features_use(ush_arch_auto_set);
}
#endif
