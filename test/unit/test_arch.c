/*
 * The architecture layer (src/arch/): the copy-once routine copies exactly
 * its bytes at every size and alignment on both sides, never hands the
 * work to memcpy (which stores some bytes twice), and on x86-64 takes
 * `rep movsb` only where CPUID says it is fast; the tick counter advances
 * at about the rate it claims. unit_arch_generic runs the same on the
 * portable C (USH_ARCH_GENERIC).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "arch/ush_arch.h"

#define GUARD 64
#define MAXN  (5u << 10)

static unsigned char src_buf[MAXN + 3 * GUARD] __attribute__((aligned(64)));
static unsigned char dst_buf[MAXN + 3 * GUARD] __attribute__((aligned(64)));

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

/* Copy n bytes from src_buf + so to dst_buf + doff; every byte of the
 * destination range holds its source byte, every byte around it is
 * untouched. */
static void check_copy(copy_fn *copy, const char *name, size_t n, size_t so, size_t doff)
{
    /* Only the bytes around the copy: the test also runs under emulation. */
    size_t span = GUARD + doff + n + GUARD;
    for (size_t i = 0; i < span; i++) src_buf[i] = (unsigned char)(i * 7 + 3 + n);
    for (size_t i = 0; i < span; i++) dst_buf[i] = 0xa5;
    counting = 1;
    copy(dst_buf + GUARD + doff, src_buf + GUARD + so, n);
    counting = 0;
    for (size_t i = 0; i < span; i++) {
        size_t at = GUARD + doff;
        unsigned char want = i >= at && i < at + n ? src_buf[GUARD + so + (i - at)] : 0xa5;
        if (dst_buf[i] != want) {
            cr_assert_fail("%s: %zu bytes, src +%zu, dst +%zu: byte %zd is %#x, expected %#x",
                           name, n, so, doff, (ssize_t)i - (ssize_t)at, dst_buf[i], want);
        }
    }
}

static void check_all(copy_fn *copy, const char *name)
{
    for (size_t n = 0; n <= 300; n++) {
        for (size_t so = 0; so < 17; so += 5) {
            for (size_t doff = 0; doff < 17; doff++) check_copy(copy, name, n, so, doff);
        }
    }
    size_t big[] = { 511, 512, 513, 1024, 4095, 4096, 4097, MAXN };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        for (size_t doff = 0; doff < 17; doff += 5) check_copy(copy, name, big[i], 1, doff);
    }
}

static void copy_vec(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_vec(d, s, n);
}

static void copy_arch(void *d, const void *s, size_t n)
{
    ush_arch_copy_once(d, s, n);
}

Test(arch, copy_once_vec_every_size_and_alignment)
{
    memcpy_calls = 0;
    check_all(copy_vec, "ush_arch_copy_once_vec");
    cr_assert_eq(memcpy_calls, 0, "the vector copy called memcpy %d times", memcpy_calls);
}

Test(arch, copy_once_dispatch_every_size_and_alignment)
{
    memcpy_calls = 0;
    check_all(copy_arch, "ush_arch_copy_once");
    cr_assert_eq(memcpy_calls, 0, "the copy-once called memcpy %d times", memcpy_calls);
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

Test(arch, x86_copies_and_choice_by_cpuid)
{
    unsigned a, b, c1, d, b7, c, d7;
    cr_assert(__get_cpuid(1, &a, &b, &c1, &d) && __get_cpuid_count(7, 0, &a, &b7, &c, &d7));
    int fsrm = d7 >> 4 & 1, erms = b7 >> 9 & 1, avx2 = b7 >> 5 & 1 && c1 >> 28 & 1;

    check_all(copy_movsb, "rep movsb");
    if (avx2) {
        memcpy_calls = 0;
        check_all(copy_avx2, "ush_arch_copy_once_avx2");
        cr_assert_eq(memcpy_calls, 0, "the AVX2 copy called memcpy %d times", memcpy_calls);
    }
    cr_assert_eq(ush_arch_movsb_below, fsrm ? 129 : 0, "FSRM %d: rep movsb below %zu", fsrm,
                 ush_arch_movsb_below);
    cr_assert_eq(ush_arch_movsb_from, fsrm || erms ? 2048 : SIZE_MAX,
                 "FSRM %d, ERMS %d: rep movsb from %zu", fsrm, erms, ush_arch_movsb_from);
    cr_assert_eq(ush_arch_avx2_from, avx2 ? 128 : SIZE_MAX, "AVX2 %d: from %zu", avx2,
                 ush_arch_avx2_from);
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
