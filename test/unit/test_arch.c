/*
 * The architecture layer (arch/): each copy-once routine copies exactly
 * its bytes at every size to 300 and all 64 alignments of source and
 * destination, at larger sizes with the destination just after the source
 * in its page, and at page edges next to inaccessible pages; never hands
 * the work to memcpy (which stores some bytes twice); and, counted by
 * single-stepping on x86, stores each destination byte exactly once.
 * ush_arch_copy_once is checked under every set of CPU features this CPU
 * can run, whatever the layer would pick here, so that each of its paths
 * is tested on every machine; the sets the CPU cannot run are skipped and
 * say so. On x86-64 the layer's own choice follows CPUID (`rep movsb` only
 * where it is fast, AVX-512 where the CPU and the OS have it); the tick
 * counter advances at about the rate it claims. unit_arch_generic runs
 * the same on the portable C (USH_ARCH_GENERIC).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "arch/ush_arch.h"

#define GUARD 64
#define MAXN  (9u << 10) /* past x86's AVX-512 `rep movsb` from 8 KiB */
#define PAGE  4096       /* room to set the distance between the buffers */

static unsigned char src_buf[MAXN + PAGE + 3 * GUARD] __attribute__((aligned(64)));
static unsigned char dst_buf[MAXN + PAGE + 3 * GUARD] __attribute__((aligned(64)));

/* memcpy counts its calls while `counting`: the test program's definition
 * comes before libc's, so a copy-once compiled into a memcpy call shows. */
static volatile int counting, memcpy_calls;

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
    if (counting) memcpy_calls++;
    volatile unsigned char *dd = d; /* volatile: not compiled into memcpy */
    const unsigned char    *ss = s;
    while (n--) *dd++ = *ss++;
    return d;
}

typedef void copy_fn(void *, const void *, size_t);

/* The source bytes are 0x00-0x7f, the guard 0xa5 and (below) the poison
 * 0xff: a store of any source byte anywhere shows. */
#define GUARD_BYTE  0xa5
#define POISON_BYTE 0xff

static void fill_src(size_t n)
{
    for (size_t i = 0; i < sizeof src_buf; i++) {
        src_buf[i] = (unsigned char)((i * 7 + 3 + n) & 0x7f);
    }
}

/* Copy n bytes from src_buf + GUARD + so to dst_buf + GUARD + doff (the
 * source filled by fill_src(n)); every byte of the destination range holds
 * its source byte, every byte around it is untouched. */
static void check_copy(copy_fn *copy, const char *name, size_t n, size_t so, size_t doff)
{
    /* Only the bytes around the copy: the test also runs under emulation. */
    size_t span = GUARD + doff + n + GUARD;
    memset(dst_buf, GUARD_BYTE, span);
    counting = 1;
    copy(dst_buf + GUARD + doff, src_buf + GUARD + so, n);
    counting = 0;
    size_t at = GUARD + doff;
    for (size_t i = 0; i < span; i++) {
        unsigned char want = i >= at && i < at + n ? src_buf[GUARD + so + (i - at)] : GUARD_BYTE;
        if (dst_buf[i] != want) {
            cr_assert_fail("%s: %zu bytes, src +%zu, dst +%zu: byte %zd is %#x, expected %#x",
                           name, n, so, doff, (ssize_t)i - (ssize_t)at, dst_buf[i], want);
        }
    }
}

/* Every size from 0 to maxn (at most 300) at all 64 offsets of source and
 * destination in a cache line, then a few larger sizes. */
static void check_sizes(copy_fn *copy, const char *name, size_t minn, size_t maxn)
{
    for (size_t n = minn; n <= maxn; n++) {
        fill_src(n);
        for (size_t so = 0; so < 64; so++) {
            for (size_t doff = 0; doff < 64; doff++) check_copy(copy, name, n, so, doff);
        }
    }
}

/* Larger sizes, with the destination 0 to 100 bytes after the source
 * modulo a page (where x86 turns from `rep movsb` to vectors) and far
 * from it. */
static void check_distances(copy_fn *copy, const char *name)
{
    static const size_t big[]  = { 511, 512, 513, 1024, 2047, 2048, 4095, 4096, 4097, 8191, 8192,
                                   8193, MAXN };
    static const size_t dist[] = { 0, 1, 8, 63, 64, 100, 2048, 4095 };
    size_t base = (uintptr_t)dst_buf - (uintptr_t)src_buf;
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        fill_src(big[i]);
        for (size_t doff = 0; doff < 64; doff += 5) check_copy(copy, name, big[i], 1, doff);
        for (size_t k = 0; k < sizeof dist / sizeof dist[0]; k++) {
            size_t doff = 5, so = (base + doff - dist[k]) & (PAGE - 1);
            check_copy(copy, name, big[i], so, doff);
        }
    }
}

static void check_all(copy_fn *copy, const char *name)
{
    check_sizes(copy, name, 0, 300);
    check_distances(copy, name);
}

static void copy_vec(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_vec(d, s, n);
}

static void copy_arch(void *d, const void *s, size_t n)
{
    ush_arch_copy_once(d, s, n);
}

/* Copies that end at a page followed by an inaccessible one, or start at
 * a page preceded by one: the masked copies read and write around the
 * bytes they copy only under a mask, which must suppress the fault. */
static void check_page_edges(copy_fn *copy, const char *name, size_t maxn)
{
    long           pg = sysconf(_SC_PAGESIZE);
    unsigned char *m  = mmap(NULL, 5 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(m != MAP_FAILED);
    unsigned char *s = m + pg, *d = m + 3 * pg; /* one page each, fenced */
    cr_assert(mprotect(s, pg, PROT_READ | PROT_WRITE) == 0 &&
              mprotect(d, pg, PROT_READ | PROT_WRITE) == 0);
    for (size_t n = 0; n <= maxn; n++) {
        for (size_t i = 0; i < (size_t)pg; i++) s[i] = (unsigned char)((i * 7 + 3 + n) & 0x7f);
        unsigned char *ends[4][2] = { { s, d }, { s + pg - n, d + pg - n }, { s, d + pg - n },
                                      { s + pg - n, d } };
        for (int k = 0; k < 4; k++) {
            memset(d, GUARD_BYTE, pg);
            copy(ends[k][1], ends[k][0], n);
            cr_assert(memcmp(ends[k][1], ends[k][0], n) == 0, "%s: %zu bytes at page edges %d",
                      name, n, k);
        }
    }
    munmap(m, 5 * pg);
}

#if defined(__x86_64__)
/*
 * The count of stores to each byte, by single-stepping the copy (x86's
 * trap flag): after every instruction the SIGTRAP handler finds the
 * destination bytes that changed, counts a store to each, and poisons it
 * (POISON_BYTE is no source byte), so a second store to the same byte
 * changes it again and is counted too. Each byte also keeps the number
 * of the instruction that first stored it, so that a naturally aligned
 * 8-byte word written by two stores shows (bytes of one word from two
 * instructions). `rep movsb` traps once per byte: it stores each byte
 * once, but not a word at a time, so that check skips it.
 */
static unsigned char *step_dst;
static size_t         step_len;
static unsigned       step_count;
static unsigned char  step_was[MAXN + 3 * GUARD], step_first[MAXN + 3 * GUARD];
static unsigned       step_stores[MAXN + 3 * GUARD], step_by[MAXN + 3 * GUARD];

static void on_step(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    step_count++;
    for (size_t i = 0; i < step_len; i++) {
        if (step_dst[i] == step_was[i]) continue;
        if (step_stores[i]++ == 0) {
            step_first[i] = step_dst[i];
            step_by[i]    = step_count;
        }
        step_dst[i] = step_was[i] = POISON_BYTE;
    }
}

/* Whether `copy` takes `rep movsb` for n bytes from s to d. */
static int by_movsb(copy_fn *copy, const void *d, const void *s, size_t n);

/* Not inlined: the push and pop would land in the caller's red zone. */
__attribute__((noinline)) static void trap_flag(int on)
{
    if (on) __asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
    else __asm__ volatile("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
}

static void check_stores_once(copy_fn *copy, const char *name, size_t maxn)
{
    uintptr_t base = (uintptr_t)dst_buf;
    struct sigaction sa = { .sa_sigaction = on_step, .sa_flags = SA_SIGINFO }, old;
    cr_assert(sigaction(SIGTRAP, &sa, &old) == 0);
    for (size_t n = 0; n <= maxn; n++) {
        /* one pair of offsets per size, every offset over the sizes */
        size_t so = n * 5 % 64, doff = (n * 11 + 7) % 64, at = GUARD + doff;
        fill_src(n);
        step_dst = dst_buf;
        step_len = GUARD + doff + n + GUARD;
        memset(dst_buf, GUARD_BYTE, step_len);
        memset(step_was, GUARD_BYTE, step_len);
        memset(step_stores, 0, sizeof step_stores);
        trap_flag(1);
        copy(dst_buf + at, src_buf + GUARD + so, n);
        trap_flag(0);
        for (size_t i = 0; i < step_len; i++) {
            int in = i >= at && i < at + n;
            cr_assert_eq(step_stores[i], in ? 1u : 0u,
                         "%s: %zu bytes, src +%zu, dst +%zu: byte %zd stored %u times", name, n,
                         so, doff, (ssize_t)i - (ssize_t)at, step_stores[i]);
            if (in) {
                cr_assert_eq(step_first[i], src_buf[GUARD + so + (i - at)],
                             "%s: %zu bytes, src +%zu, dst +%zu: byte %zd stored as %#x", name, n,
                             so, doff, (ssize_t)i - (ssize_t)at, step_first[i]);
            }
        }
        if (by_movsb(copy, dst_buf + at, src_buf + GUARD + so, n)) continue;
        for (size_t i = at + (-(base + at) & 7); i + 8 <= at + n; i += 8) {
            for (size_t k = 1; k < 8; k++) {
                cr_assert_eq(step_by[i + k], step_by[i],
                             "%s: %zu bytes, src +%zu, dst +%zu: the aligned word at byte %zd "
                             "written by more than one store",
                             name, n, so, doff, (ssize_t)i - (ssize_t)at);
            }
        }
    }
    sigaction(SIGTRAP, &old, NULL);
}
#endif

/* Every way of copying: every size and alignment, page edges, no memcpy
 * call, and (x86) each byte stored once. */
static void check_way(copy_fn *copy, const char *name, size_t maxn)
{
    memcpy_calls = 0;
    if (maxn == 300) check_all(copy, name);
    else check_sizes(copy, name, 0, maxn);
    check_page_edges(copy, name, maxn);
    cr_assert_eq(memcpy_calls, 0, "%s called memcpy %d times", name, memcpy_calls);
#if defined(__x86_64__)
    check_stores_once(copy, name, maxn);
#endif
}

Test(arch, copy_once_vec, .timeout = 50)
{
    check_way(copy_vec, "ush_arch_copy_once_vec", 300);
}

/* The layer's own choice on this CPU, as the library makes it. */
Test(arch, copy_once_dispatch, .timeout = 50)
{
    check_way(copy_arch, "ush_arch_copy_once", 300);
}

/* Every other choice it can make, each a set of features that changes
 * which copy some size takes (ERMS alone: `rep movsb` from 2 KiB; FSRM
 * below 129 bytes too; AVX2: 32-byte vectors; AVX-512: masked stores, and
 * `rep movsb` from 8 KiB with ERMS), where this CPU can run it. */
static void check_features(unsigned set)
{
    char want[64], have[64], name[96];
    ush_arch_features_format(set, want, sizeof(want));
    ush_arch_features_format(ush_arch_features_cpu(), have, sizeof(have));
    if (set & ~ush_arch_features_cpu()) {
        cr_skip_test("this CPU cannot run %s (it runs %s)", want, have);
    }
    ush_arch_features_use(set);
    cr_assert_eq(ush_arch_features(), set);
    snprintf(name, sizeof(name), "ush_arch_copy_once with %s", want);
    check_way(copy_arch, name, 300);
}

#define FEATURE_TEST(tag, set)                                                 \
    Test(arch, copy_once_##tag, .timeout = 50)                                 \
    {                                                                          \
        check_features(set);                                                   \
    }
FEATURE_TEST(none, 0)
FEATURE_TEST(erms, USH_ARCH_ERMS)
FEATURE_TEST(fsrm, USH_ARCH_ERMS | USH_ARCH_FSRM)
FEATURE_TEST(avx2, USH_ARCH_AVX2)
FEATURE_TEST(avx2_erms, USH_ARCH_AVX2 | USH_ARCH_ERMS)
FEATURE_TEST(avx2_fsrm, USH_ARCH_AVX2 | USH_ARCH_ERMS | USH_ARCH_FSRM)
FEATURE_TEST(avx512, USH_ARCH_AVX512 | USH_ARCH_AVX2)
FEATURE_TEST(avx512_erms, USH_ARCH_AVX512 | USH_ARCH_AVX2 | USH_ARCH_ERMS)

/* SHMEM_CPU_FEATURES's words. */
Test(arch, feature_names)
{
    unsigned set;
    char     bad[16], buf[64];
    cr_assert(ush_arch_features_parse("auto", &set, bad, sizeof(bad)) == 0 && set == ~0u);
    cr_assert(ush_arch_features_parse("none", &set, bad, sizeof(bad)) == 0 && set == 0);
    cr_assert(ush_arch_features_parse("fsrm,avx2", &set, bad, sizeof(bad)) == 0 &&
              set == (USH_ARCH_FSRM | USH_ARCH_AVX2));
    cr_assert(ush_arch_features_parse("avx512,avx2,erms,fsrm", &set, bad, sizeof(bad)) == 0 &&
              set == 15);
    cr_assert(ush_arch_features_parse("avx2,sse4", &set, bad, sizeof(bad)) == -1);
    cr_assert_str_eq(bad, "sse4");
    cr_assert(ush_arch_features_parse("avx2,", &set, bad, sizeof(bad)) == -1);
    cr_assert_str_eq(bad, "");
    cr_assert(ush_arch_features_parse("AVX2", &set, bad, sizeof(bad)) == -1);
    ush_arch_features_format(0, buf, sizeof(buf));
    cr_assert_str_eq(buf, "none");
    ush_arch_features_format(15, buf, sizeof(buf));
    cr_assert_str_eq(buf, "avx512,avx2,erms,fsrm");
    cr_assert(ush_arch_features_parse(buf, &set, bad, sizeof(bad)) == 0 && set == 15);
}

#if defined(__x86_64__) && !defined(USH_ARCH_GENERIC)
#include <cpuid.h>

static void copy_movsb(void *d, const void *s, size_t n)
{
    ush_arch_copy_movsb(d, s, n);
}

static void copy_avx2(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_avx2(d, s, n);
}

/* The AVX-512 line copy from 64 bytes on, its domain; below, the masked
 * store it takes over from. */
static void copy_avx512(void *d, const void *s, size_t n)
{
    if (n < 64) ush_arch_copy_once_masked(d, s, n);
    else ush_arch_copy_once_avx512(d, s, n);
}

/* The inline copies, each over the sizes it takes. */
static void copy_masked(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_masked(d, s, n);
}

static void copy_masked128(void *d, const void *s, size_t n)
{
    if (n <= 64) ush_arch_copy_once_masked(d, s, n);
    else ush_arch_copy_once_masked128(d, s, n);
}

static void copy_masked256(void *d, const void *s, size_t n)
{
    if (n <= 128) copy_masked128(d, s, n);
    else ush_arch_copy_once_masked256(d, s, n);
}

static struct {
    unsigned c1, b7, d7, vendor[3];
    uint64_t xcr0;
} cpu;

static void read_cpu(void)
{
    unsigned a, b, c, d;
    cr_assert(__get_cpuid(0, &a, &cpu.vendor[0], &cpu.vendor[2], &cpu.vendor[1]) &&
              __get_cpuid(1, &a, &b, &cpu.c1, &d) &&
              __get_cpuid_count(7, 0, &a, &cpu.b7, &c, &cpu.d7));
    if (cpu.c1 >> 27 & 1) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        cpu.xcr0 = (uint64_t)hi << 32 | lo;
    }
}

/* The layer's own set follows CPUID (FSRM's short copies only on
 * Intel's), and each set gives its sizes to the copies it names. */
Test(arch, x86_choice_by_cpuid)
{
    read_cpu();
    int fsrm = cpu.d7 >> 4 & 1, erms = cpu.b7 >> 9 & 1;
    int avx2   = cpu.b7 >> 5 & 1 && cpu.c1 >> 28 & 1 && (cpu.xcr0 & 6) == 6;
    int avx512 = cpu.c1 >> 27 & 1 && cpu.c1 >> 28 & 1 && (cpu.xcr0 & 6) == 6 &&
                 cpu.b7 >> 16 & 1 && cpu.b7 >> 30 & 1 && cpu.b7 >> 31 & 1 && cpu.b7 >> 8 & 1 &&
                 (cpu.xcr0 & 0xe0) == 0xe0;
    unsigned cpu_set = USH_ARCH_ERMS | USH_ARCH_FSRM | (avx2 ? USH_ARCH_AVX2 : 0) |
                       (avx512 ? USH_ARCH_AVX512 : 0);
    unsigned auto_set = (cpu_set & (USH_ARCH_AVX2 | USH_ARCH_AVX512)) |
                        (fsrm || erms ? USH_ARCH_ERMS : 0) |
                        (fsrm && memcmp(cpu.vendor, "GenuineIntel", 12) == 0 ? USH_ARCH_FSRM : 0);

    cr_assert_eq(ush_arch_features_cpu(), cpu_set, "runs %#x, CPUID says %#x",
                 ush_arch_features_cpu(), cpu_set);
    cr_assert_eq(ush_arch_features_auto(), auto_set, "chose %#x, CPUID says %#x (%.12s)",
                 ush_arch_features_auto(), auto_set, (const char *)cpu.vendor);
    cr_assert_eq(ush_arch_features(), auto_set);

    ush_arch_features_use(0);
    cr_assert(!ush_arch_avx512 && ush_arch_masked_to == 0 && ush_arch_movsb_below == 0 &&
              ush_arch_movsb_from == SIZE_MAX && ush_arch_avx2_from == SIZE_MAX);
    ush_arch_features_use(USH_ARCH_ERMS | USH_ARCH_AVX2);
    cr_assert(ush_arch_movsb_below == 0 && ush_arch_movsb_from == 2048 &&
              ush_arch_avx2_from == 128);
    ush_arch_features_use(USH_ARCH_FSRM);
    cr_assert(ush_arch_movsb_below == 129 && ush_arch_movsb_from == 2048);
    ush_arch_features_use(USH_ARCH_AVX512 | USH_ARCH_AVX2);
    cr_assert(ush_arch_avx512 && ush_arch_masked_to == 256 &&
              ush_arch_avx512_movsb_from == SIZE_MAX && ush_arch_movsb_below == 0 &&
              ush_arch_movsb_from == SIZE_MAX);
    ush_arch_features_use(USH_ARCH_AVX512 | USH_ARCH_FSRM);
    cr_assert(ush_arch_avx512_movsb_from == 8192 && ush_arch_movsb_below == 0);
}

Test(arch, x86_movsb, .timeout = 50)
{
    check_way(copy_movsb, "rep movsb", 300);
}

Test(arch, x86_avx2, .timeout = 50)
{
    read_cpu();
    if (ush_arch_avx2_from == SIZE_MAX) cr_skip_test("no AVX2 here");
    check_way(copy_avx2, "ush_arch_copy_once_avx2", 300);
}

Test(arch, x86_avx512, .timeout = 50)
{
    if (!ush_arch_avx512) cr_skip_test("no AVX-512BW here");
    check_way(copy_avx512, "ush_arch_copy_once_avx512", 300);
    check_way(copy_masked, "ush_arch_copy_once_masked", 64);
    check_way(copy_masked128, "ush_arch_copy_once_masked128", 128);
    check_way(copy_masked256, "ush_arch_copy_once_masked256", 256);
}
#endif

Test(arch, ticks_advance_at_about_the_claimed_rate)
{
    struct timespec t0, t1, nap = { 0, 5 * 1000 * 1000 };
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t k0 = ush_arch_ticks();
    nanosleep(&nap, NULL);
    uint64_t k1 = ush_arch_ticks();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (int i = 0; i < 1000; i++) ush_arch_pause();

    double us     = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    double tick_us = (double)(k1 - k0) / (double)ush_arch_ticks_per_us();
    /* x86's rate is nominal, so within a factor of three either way. */
    cr_assert(tick_us > us / 3 && tick_us < us * 3,
              "%.0f us passed, the ticks say %.0f us (%llu per us)", us, tick_us,
              (unsigned long long)ush_arch_ticks_per_us());
}

#if defined(__x86_64__)
static int by_movsb(copy_fn *copy, const void *d, const void *s, size_t n)
{
#if !defined(USH_ARCH_GENERIC)
    if (copy == copy_movsb) return 1;
    if (copy == copy_arch) {
        int near = ush_arch_movsb_near(d, s);
        return ush_arch_avx512 ? n >= ush_arch_avx512_movsb_from && !near
                               : n < ush_arch_movsb_below || (n >= ush_arch_movsb_from && !near);
    }
#endif
    (void)copy, (void)d, (void)s, (void)n;
    return 0;
}
#endif
