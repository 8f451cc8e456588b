/*
 * The portable copy that stores each destination byte exactly once.
 *
 * A put to a mapped peer must not store any byte twice: glibc's memcpy
 * copies 8 to 15 bytes as two overlapping 8-byte stores (and larger sizes
 * store some vectors twice), so a PE waiting on a word could see the first
 * store, clear the word, and take the second store for a new message. This
 * copy brings the destination to a vector boundary with naturally aligned
 * 1/2/4/8(/16)-byte stores, moves aligned 16-byte (or 32-byte) vectors,
 * and ends with aligned stores again: no store overlaps another, and every naturally
 * aligned 8-byte word of the destination is written by a single store, so
 * a waiter never sees half of it.
 *
 * The vectors are GCC/clang vector types, which every target lowers to its
 * own registers (SSE2 on x86-64, NEON on aarch64, VSX on ppc64le, pairs of
 * words elsewhere). The compiler-only fence in the loop keeps the compiler
 * from recognising the loop as a memcpy and calling memcpy after all.
 */
#ifndef USH_ARCH_COPY_ONCE_H_
#define USH_ARCH_COPY_ONCE_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef unsigned char ush_arch_v16_t __attribute__((vector_size(16), may_alias));
typedef unsigned char ush_arch_v16u_t __attribute__((vector_size(16), may_alias, aligned(1)));
typedef unsigned char ush_arch_v32_t __attribute__((vector_size(32), may_alias));
typedef unsigned char ush_arch_v32u_t __attribute__((vector_size(32), may_alias, aligned(1)));

/* One naturally aligned store of the element of type T at s. */
#define USH_ARCH_STORE_(T, d, s)                                               \
    do {                                                                       \
        T v_;                                                                  \
        memcpy(&v_, s, sizeof v_);                                             \
        __atomic_store_n((T *)(void *)(d), v_, __ATOMIC_RELAXED);              \
    } while (0)

/* Store the element of type T if `cond`, and step past it. */
#define USH_ARCH_STEP_(cond, T, d, s)                                          \
    do {                                                                       \
        if (cond) {                                                            \
            USH_ARCH_STORE_(T, d, s);                                          \
            d += sizeof(T);                                                    \
            s += sizeof(T);                                                    \
        }                                                                      \
    } while (0)

/* Fewer bytes than a vector at any alignment: each step stores the
 * largest naturally aligned element that fits. */
static inline void ush_arch_copy_once_small(unsigned char *d, const unsigned char *s, size_t n)
{
    while (n > 0) {
        uintptr_t a = (uintptr_t)d;
        size_t    k;
        if (n >= 8 && (a & 7) == 0) {
            USH_ARCH_STORE_(uint64_t, d, s);
            k = 8;
        } else if (n >= 4 && (a & 3) == 0) {
            USH_ARCH_STORE_(uint32_t, d, s);
            k = 4;
        } else if (n >= 2 && (a & 1) == 0) {
            USH_ARCH_STORE_(uint16_t, d, s);
            k = 2;
        } else {
            USH_ARCH_STORE_(uint8_t, d, s);
            k = 1;
        }
        d += k;
        s += k;
        n -= k;
    }
}

/* The copy with aligned vectors of w bytes (16, or 32 where the caller
 * is compiled for AVX2): up to w - 1 bytes of head, each power of two at
 * most once, which leaves d aligned to w; the vectors, four to a step;
 * the tail, powers of two downwards, each aligned because d is. */
static inline __attribute__((always_inline)) void
ush_arch_copy_once_w(void *dst, const void *src, size_t n, const size_t w)
{
    unsigned char       *d = dst;
    const unsigned char *s = src;

    if (n < w) {
        ush_arch_copy_once_small(d, s, n);
        return;
    }
    size_t head = -(uintptr_t)d & (w - 1);
    n -= head;
    USH_ARCH_STEP_(head & 1, uint8_t, d, s);
    USH_ARCH_STEP_(head & 2, uint16_t, d, s);
    USH_ARCH_STEP_(head & 4, uint32_t, d, s);
    USH_ARCH_STEP_(head & 8, uint64_t, d, s);
    if (w == 32 && (head & 16)) {
        *(ush_arch_v16_t *)d = *(const ush_arch_v16u_t *)s;
        d += 16;
        s += 16;
    }
    for (; n >= 4 * w; n -= 4 * w, d += 4 * w, s += 4 * w) {
        if (w == 32) {
            ush_arch_v32_t v0 = *(const ush_arch_v32u_t *)(s + 0);
            ush_arch_v32_t v1 = *(const ush_arch_v32u_t *)(s + 32);
            ush_arch_v32_t v2 = *(const ush_arch_v32u_t *)(s + 64);
            ush_arch_v32_t v3 = *(const ush_arch_v32u_t *)(s + 96);
            *(ush_arch_v32_t *)(d + 0)  = v0;
            *(ush_arch_v32_t *)(d + 32) = v1;
            *(ush_arch_v32_t *)(d + 64) = v2;
            *(ush_arch_v32_t *)(d + 96) = v3;
        } else {
            ush_arch_v16_t v0 = *(const ush_arch_v16u_t *)(s + 0);
            ush_arch_v16_t v1 = *(const ush_arch_v16u_t *)(s + 16);
            ush_arch_v16_t v2 = *(const ush_arch_v16u_t *)(s + 32);
            ush_arch_v16_t v3 = *(const ush_arch_v16u_t *)(s + 48);
            *(ush_arch_v16_t *)(d + 0)  = v0;
            *(ush_arch_v16_t *)(d + 16) = v1;
            *(ush_arch_v16_t *)(d + 32) = v2;
            *(ush_arch_v16_t *)(d + 48) = v3;
        }
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    for (; n >= 16; n -= 16, d += 16, s += 16) {
        *(ush_arch_v16_t *)d = *(const ush_arch_v16u_t *)s;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    USH_ARCH_STEP_(n & 8, uint64_t, d, s);
    USH_ARCH_STEP_(n & 4, uint32_t, d, s);
    USH_ARCH_STEP_(n & 2, uint16_t, d, s);
    USH_ARCH_STEP_(n & 1, uint8_t, d, s);
}

/* 16-byte vectors: SSE2, NEON and VSX are each CPU's baseline. */
static inline void ush_arch_copy_once_vec(void *dst, const void *src, size_t n)
{
    ush_arch_copy_once_w(dst, src, n, 16);
}

#endif
