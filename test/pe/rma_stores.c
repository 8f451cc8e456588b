/*
 * A put through the mapping stores each destination byte exactly once, at
 * every size: counted, not inferred. Each PE puts into its own symmetric
 * heap (a mapped target, the same copy as a node-local peer) while the
 * CPU single-steps (x86's trap flag); after every instruction the SIGTRAP
 * handler counts a store to each destination byte that changed and
 * poisons it, so a second store shows as a second change (glibc's memcpy
 * stores a few bytes twice at most sizes: its first vector overlaps the
 * next). Each size is put at two alignments and once with the destination
 * just after the source in its page, where x86 takes vectors instead of
 * `rep movsb`. ctest runs it under every SHMEM_CPU_FEATURES set that
 * changes the copy; one this CPU cannot run stops shmem_init, which ctest
 * reports as a skip. Elsewhere than x86-64 the test only checks the data.
 */
#include "pe_test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define MAXN   (8 << 10) /* up to the sizes rep movsb takes */
#define SPAN   (MAXN + 128)
#define GUARD  0xa5 /* never a source byte (those are 0x00-0x7f) */
#define POISON 0xff

static unsigned char *dst;                 /* symmetric, this PE's own */
static unsigned char  was[SPAN];           /* what dst held after the last step */
static unsigned       stores[SPAN];
static unsigned char  first[SPAN];         /* the first value stored there */
static size_t         watch;               /* bytes of dst watched */

#if defined(__x86_64__)
static void on_step(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    /* in chunks, so that a step that changed nothing costs one memcmp */
    for (size_t at = 0; at < watch; at += 1024) {
        size_t len = watch - at < 1024 ? watch - at : 1024;
        if (memcmp(dst + at, was + at, len) == 0) continue;
        for (size_t i = at; i < at + len; i++) {
            if (dst[i] == was[i]) continue;
            if (stores[i]++ == 0) first[i] = dst[i];
            dst[i] = was[i] = POISON;
        }
    }
}

/* Not inlined: pushf/popf would land in the caller's red zone. */
__attribute__((noinline)) static void trap_flag(int on)
{
    if (on) __asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
    else __asm__ volatile("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
}
#define COUNTED 1
#else
static void trap_flag(int on)
{
    (void)on;
}
#define COUNTED 0
#endif

static void put_counted(const unsigned char *src, size_t n, size_t doff)
{
    watch = doff + n + 64;
    memset(dst, GUARD, watch);
    memset(was, GUARD, watch);
    memset(stores, 0, sizeof stores);
    trap_flag(1);
    shmem_putmem(dst + doff, src, n, pe_me);
    trap_flag(0);
    for (size_t i = 0; i < watch; i++) {
        int in = i >= doff && i < doff + n;
        if (!COUNTED) {
            CHECK_MSG(dst[i] == (in ? src[i - doff] : GUARD), "%zu bytes at +%zu: byte %zu", n,
                      doff, i);
            continue;
        }
        CHECK_MSG(stores[i] == (in ? 1u : 0u), "%zu bytes at +%zu: byte %zd stored %u times", n,
                  doff, (ssize_t)i - (ssize_t)doff, stores[i]);
        if (in) {
            CHECK_MSG(first[i] == src[i - doff], "%zu bytes at +%zu: byte %zu stored as %#x", n,
                      doff, i - doff, first[i]);
        }
    }
}

int main(void)
{
    static const size_t sizes[] = { 1,    2,    3,    7,    8,    9,    15,    16,   31,
                                    63,   64,   65,   100,  127,  128,  129,   255,  256,
                                    300,  1000, 2100, 4095, 4096, 4097, 4608,  5119, 8191,
                                    8192, 8195 };
    pe_test_init();
    dst                = shmem_malloc(SPAN);
    unsigned char *src = malloc(MAXN + 4096 + 64);
    CHECK(dst != NULL && src != NULL);
    for (size_t i = 0; i < MAXN + 4096 + 64; i++) src[i] = (unsigned char)((i * 7 + 3) & 0x7f);
    /* src + near is 8 bytes before dst + 1 modulo a page */
    size_t near = ((uintptr_t)src - (uintptr_t)dst - 1 + 8) & 4095;
    near = (4096 - near) & 4095;
#if defined(__x86_64__)
    struct sigaction sa = { .sa_sigaction = on_step, .sa_flags = SA_SIGINFO };
    CHECK(sigaction(SIGTRAP, &sa, NULL) == 0);
#endif
    pe_section("warm-up put, not counted");
    shmem_putmem(dst, src, 8, pe_me);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        pe_section("one put, single-stepped");
        put_counted(src + 5, sizes[k], 1);
        put_counted(src + 5, sizes[k], 37);
        put_counted(src + near, sizes[k], 1);
    }
    shmem_free(dst);
    free(src);
    return pe_test_finish();
}
