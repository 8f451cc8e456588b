/*
 * copy_once.c: the cost of one copy per size class, for each way arch/
 * can copy and for glibc's memcpy, which stores some bytes twice and is the
 * speed to match. One process, no library.
 *
 *   bench_copy_once [rounds [lo_min [lo_max]]]
 *
 * rounds defaults to 101; lo_min and lo_max keep only the size classes
 * whose lower bound lies between them (all by default).
 *
 * The comparison is kept even: each size class is a fixed list of 256
 * copies whose sizes are drawn from the class and whose source and
 * destination offsets are drawn from all 64 offsets in a cache line; every
 * copy of the list goes to a destination (and reads a source) of its own
 * lines, so no copy finds the previous one's lines warm in the store
 * buffer. Every way copies the same list. "warm": the lines cycle through
 * 16 KiB (or two copies' worth), which stays in L1 up to 8 KiB copies;
 * "cold": through 64 MiB, which no L2 (2 MiB a core here) still holds
 * when the list comes back to it (an L3 of 260 MiB may). Each round
 * times the list once per way, the ways taking turns, so a burst of load
 * from elsewhere falls on all of them; the figure is each way's median
 * round. The copies are made as rma.c makes them: memcpy by a call,
 * `ush_arch_copy_once` inline.
 *
 * Output: '#' comment lines, then per size class and warmth
 *   <lo> <hi> <warm|cold> <ns memcpy> <ns fixup> <ns movsb|-> <ns sse2> \
 *   <ns avx2|-> <ns avx512|-> <ns before> <ns chosen> <chosen / memcpy> \
 *   <chosen / fixup>
 * where "fixup" is memcpy made safe the cheapest way
 * (the baseline): memcpy up to the destination's last aligned 8-byte word,
 * then that word's bytes copied once, so the word a waiter may poll is
 * written by one store after everything else; "before" is the choice
 * the tree made before AVX-512 (SSE2, AVX2 or `rep movsb` by size) and
 * "chosen" is ush_arch_copy_once now.
 */
#include "arch/ush_arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LIST     256          /* copies per timed round */
#define MAXN     (64u << 10)  /* the largest size class */
#define WARM_SET (16u << 10)  /* bytes of destination lines per warm list */
#define COLD_SET (64u << 20)  /* ... and of the region the cold lists walk */

struct op {
    size_t n, soff, doff;
};

enum { M_MEMCPY, M_FIXUP, M_MOVSB, M_SSE2, M_AVX2, M_AVX512, M_BEFORE, M_CHOSEN, M_COUNT };
static const char *m_name[M_COUNT] = { "memcpy", "fixup",  "movsb",  "sse2",
                                       "avx2",   "avx512", "before", "chosen" };

static unsigned char *src_region, *dst_region;
static struct op      list[LIST];

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* memcpy, then the last aligned 8-byte word the destination touches (1
 * to 8 bytes) by the copy-once: memcpy stores only inside the bytes it
 * is given, so that word is stored once, and last. */
static inline void copy_fixup(void *d, const void *s, size_t n)
{
    uintptr_t end  = (uintptr_t)d + n;
    size_t    tail = n == 0 ? 0 : end - ((end - 1) & ~(uintptr_t)7);
    if (tail > n) tail = n;
    memcpy(d, s, n - tail);
    ush_arch_copy_once((char *)d + n - tail, (const char *)s + n - tail, tail);
}

#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
/* The AVX-512 line copy, which takes 64 bytes or more; below, the one
 * masked store. */
static inline void copy_avx512(void *d, const void *s, size_t n)
{
    if (n < 64) ush_arch_copy_once_masked(d, s, n);
    else ush_arch_copy_once_avx512(d, s, n);
}
#endif

/* The tree's choice before AVX-512, from the same thresholds. */
static inline void copy_before(void *d, const void *s, size_t n)
{
#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
    if (n < ush_arch_movsb_below || n >= ush_arch_movsb_from) {
        ush_arch_copy_movsb(d, s, n);
    } else if (n >= ush_arch_avx2_from) {
        ush_arch_copy_once_avx2(d, s, n);
    } else {
        ush_arch_copy_once_vec(d, s, n);
    }
#else
    ush_arch_copy_once(d, s, n);
#endif
}

/* The list's copies for one pass, addresses worked out before the clock
 * starts: `base` picks the lines (stride bytes per copy), so that cold
 * passes move on through the region. */
static unsigned char       *pass_d[LIST];
static const unsigned char *pass_s[LIST];
static size_t               pass_n[LIST];

static void pass_prepare(size_t base, size_t stride, size_t span)
{
    for (int i = 0; i < LIST; i++) {
        size_t at = (base + (size_t)i * stride) % span;
        pass_d[i] = dst_region + at + list[i].doff;
        pass_s[i] = src_region + at + list[i].soff;
        pass_n[i] = list[i].n;
    }
}

#define PASS(COPY)                                                             \
    for (int i = 0; i < LIST; i++) {                                           \
        COPY(pass_d[i], pass_s[i], pass_n[i]);                                 \
        __atomic_signal_fence(__ATOMIC_SEQ_CST);                               \
    }

static double pass_ns(int m)
{
    double t0 = now_ns();
    switch (m) {
    case M_MEMCPY: PASS(memcpy); break;
    case M_FIXUP: PASS(copy_fixup); break;
    case M_SSE2: PASS(ush_arch_copy_once_vec); break;
#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
    case M_MOVSB: PASS(ush_arch_copy_movsb); break;
    case M_AVX2: PASS(ush_arch_copy_once_avx2); break;
    case M_AVX512: PASS(copy_avx512); break;
#endif
    case M_BEFORE: PASS(copy_before); break;
    case M_CHOSEN: PASS(ush_arch_copy_once); break;
    }
    return (now_ns() - t0) / LIST;
}

static int have(int m)
{
#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
    if (m == M_AVX2) return ush_arch_avx2_from != SIZE_MAX;
    if (m == M_AVX512) return ush_arch_avx512;
    return 1;
#else
    return m != M_MOVSB && m != M_AVX2 && m != M_AVX512;
#endif
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run_class(size_t lo, size_t hi, int cold, int rounds, double *t)
{
    size_t  stride = (hi + 64 + 63) & ~(size_t)63; /* lines of its own */
    size_t  span   = cold ? COLD_SET : (WARM_SET > 2 * stride ? WARM_SET : 2 * stride);
    double *ns     = malloc(sizeof(double) * rounds * M_COUNT);
    size_t  base   = 0;

    span -= span % stride;
    for (int i = 0; i < LIST; i++) {
        list[i].n    = lo + (size_t)rand() % (hi - lo + 1);
        list[i].soff = (size_t)rand() % 64;
        list[i].doff = (size_t)rand() % 64;
    }
    for (int r = 0; r < rounds; r++) {
        for (int m = 0; m < M_COUNT; m++) {
            if (!have(m)) continue;
            pass_prepare(base, stride, span);
            ns[m * rounds + r] = pass_ns(m);
            if (cold) base = (base + LIST * stride) % span;
        }
    }
    for (int m = 0; m < M_COUNT; m++) {
        qsort(ns + m * rounds, rounds, sizeof(double), cmp_double);
        t[m] = have(m) ? ns[m * rounds + rounds / 2] : -1;
    }
    free(ns);
}

int main(int argc, char **argv)
{
    int    rounds = argc > 1 ? atoi(argv[1]) : 101;
    size_t lo_min = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
    size_t lo_max = argc > 3 ? strtoull(argv[3], NULL, 0) : SIZE_MAX;
    if (rounds < 1 || argc > 4) {
        fprintf(stderr, "usage: bench_copy_once [rounds [lo_min [lo_max]]]\n");
        return 2;
    }
    size_t region = COLD_SET + MAXN + 128;
    src_region    = mmap(NULL, region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    dst_region    = mmap(NULL, region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (src_region == MAP_FAILED || dst_region == MAP_FAILED) {
        perror("bench_copy_once: mmap");
        return 1;
    }
    memset(src_region, 1, region);
    memset(dst_region, 2, region);
    srand(16);

    printf("# ns per copy, median of %d rounds of %d copies; sizes drawn from [lo, hi],\n"
           "# source and destination offsets from 0-63, each copy to lines of its own\n",
           rounds, LIST);
    printf("# %5s %6s %4s", "lo", "hi", "set");
    for (int m = 0; m < M_COUNT; m++) printf(" %7s", m_name[m]);
    printf(" %7s %7s\n", "ch/mcpy", "ch/fix");
    for (int cold = 0; cold < 2; cold++) {
        for (size_t lo = 1; lo <= MAXN; lo *= 2) {
            size_t hi = lo == MAXN ? lo : 2 * lo - 1;
            double t[M_COUNT];
            if (lo < lo_min || lo > lo_max) continue;
            run_class(lo, hi, cold, rounds, t);
            printf("%7zu %6zu %4s", lo, hi, cold ? "cold" : "warm");
            for (int m = 0; m < M_COUNT; m++) {
                if (t[m] < 0) printf(" %7s", "-");
                else printf(" %7.2f", t[m]);
            }
            printf(" %7.2f %7.2f\n", t[M_CHOSEN] / t[M_MEMCPY], t[M_CHOSEN] / t[M_FIXUP]);
            fflush(stdout);
        }
    }
    return 0;
}
