/*
 * copy_once.c: the cost of one copy into warm memory, per size class, for
 * each way src/arch/ can copy (the vector copy-once, x86's `rep movsb`,
 * the run-time choice) and glibc's memcpy, which stores some bytes twice
 * and is the speed to match. One process, no library: the figure is the
 * smallest of many timed rounds, so load from elsewhere on the machine
 * shows as a larger spread, not a larger figure.
 *
 *   bench_copy_once [rounds]        (default 200)
 *
 * Output: '#' comment lines, then per size and destination offset
 *   <bytes> <dst offset> <ns memcpy> <ns vector> <ns movsb|-> <ns avx2|-|0>
 *   <ns chosen>  (avx2 0: the CPU has none)
 */
#include "arch/ush_arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN   (64u << 10)
#define REPEAT 64 /* copies per timed round */

static unsigned char src[MAXN + 64] __attribute__((aligned(64)));
static unsigned char dst[MAXN + 64] __attribute__((aligned(64)));

typedef void copy_fn(void *, const void *, size_t);

static void by_memcpy(void *d, const void *s, size_t n)
{
    memcpy(d, s, n);
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* keep every copy */
}

static void by_vec(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_vec(d, s, n);
}

static void by_arch(void *d, const void *s, size_t n)
{
    ush_arch_copy_once(d, s, n);
}

#if defined(__x86_64__)
static void by_movsb(void *d, const void *s, size_t n)
{
    ush_arch_copy_movsb(d, s, n);
}

static void by_avx2(void *d, const void *s, size_t n)
{
    ush_arch_copy_once_avx2(d, s, n);
}
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double best_ns(copy_fn *copy, size_t n, size_t off, int rounds)
{
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (int i = 0; i < REPEAT; i++) copy(dst + off, src, n);
        double t = (now_ns() - t0) / REPEAT;
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    if (rounds < 1) {
        fprintf(stderr, "usage: bench_copy_once [rounds]\n");
        return 2;
    }
    memset(src, 1, sizeof src);
    printf("# ns per copy, best of %d rounds of %d copies\n", rounds, REPEAT);
    printf("# bytes off   memcpy   vector    movsb     avx2   chosen\n");
    for (size_t n = 8; n <= MAXN; n *= 2) {
        size_t sizes[] = { n, n + n / 2 };
        for (int k = 0; k < 2; k++) {
            if (sizes[k] > MAXN) continue;
            for (size_t off = 0; off < 2; off++) {
                size_t s = sizes[k];
                printf("%7zu %3zu %8.1f %8.1f", s, off, best_ns(by_memcpy, s, off, rounds),
                       best_ns(by_vec, s, off, rounds));
#if defined(__x86_64__)
                printf(" %8.1f", best_ns(by_movsb, s, off, rounds));
                printf(" %8.1f", ush_arch_avx2_from != SIZE_MAX ? best_ns(by_avx2, s, off, rounds) : 0);
#else
                printf(" %8s %8s", "-", "-");
#endif
                printf(" %8.1f\n", best_ns(by_arch, s, off, rounds));
            }
        }
    }
    return 0;
}
