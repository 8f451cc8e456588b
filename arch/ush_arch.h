/*
 * The architecture layer: what ushmem needs from the CPU that C does not
 * say. It is the only place for intrinsics, inline assembly and CPU
 * feature tests; the rest of the library includes this header alone.
 *
 *   ush_arch_ticks()        a cheap, fine-grained counter, for telling
 *                           microseconds apart (not a clock: its rate is
 *                           only approximately ush_arch_ticks_per_us());
 *   ush_arch_pause()        the CPU's hint for one step of a spin-wait;
 *   ush_arch_copy_once()    a copy that stores each destination byte
 *                           exactly once, at every size (see copy_once.h
 *                           for why);
 *   ush_arch_features_*()   which CPU features that copy uses: chosen by
 *                           the layer, or named (SHMEM_CPU_FEATURES, and
 *                           the tests, which run every set the CPU can).
 *
 * One header per architecture, chosen here at build time: x86-64, aarch64,
 * ppc64le, and portable C for the rest (or anywhere, with
 * -DUSH_ARCH_GENERIC). x86-64 also chooses at run time (x86_64.c):
 * AVX-512BW/VL masked stores where the CPU and the OS have them, `rep movsb`
 * only where CPUID says it is fast, AVX2 where there is AVX2.
 */
#ifndef USH_ARCH_H_
#define USH_ARCH_H_

#include <stddef.h>
#include <stdint.h>

/* The layer's run-time choices are read on every put: hidden, so that the
 * library reads them (and calls the out-of-line copies) directly, not
 * through its GOT and PLT. Nothing outside the library uses them. */
#define USH_ARCH_HIDDEN __attribute__((visibility("hidden")))

#include "arch/copy_once.h"

/* The CPU features a copy-once may use, as bits of a set. Only x86-64
 * has a choice to make; elsewhere the sets are empty. */
#define USH_ARCH_AVX512 (1u << 0) /* AVX-512F/BW/VL and BMI2: masked stores */
#define USH_ARCH_AVX2   (1u << 1) /* 32-byte vectors */
#define USH_ARCH_ERMS   (1u << 2) /* `rep movsb` from 2 KiB (8 KiB with AVX-512) */
#define USH_ARCH_FSRM   (1u << 3) /* `rep movsb` below 129 bytes too */
#define USH_ARCH_NFEATURES 4

/* Their names, by bit number ("avx512", ...), for SHMEM_CPU_FEATURES. */
extern USH_ARCH_HIDDEN const char *const ush_arch_feature_names[USH_ARCH_NFEATURES];

/* "auto" (*set = ~0u: the layer's own choice), "none", or names joined by
 * commas, into a set; -1 on any other word, which goes into bad. */
USH_ARCH_HIDDEN int ush_arch_features_parse(const char *s, unsigned *set, char *bad,
                                            size_t badlen);
/* The set's names joined by commas, "none" for the empty set. */
USH_ARCH_HIDDEN void ush_arch_features_format(unsigned set, char *buf, size_t len);

#if defined(USH_ARCH_GENERIC) /* the portable C on any CPU, for testing it */
#include "arch/generic.h"
#elif defined(__x86_64__)
#include "arch/x86_64.h"
#elif defined(__aarch64__)
#include "arch/aarch64.h"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#include "arch/ppc64le.h"
#else
#include "arch/generic.h"
#endif

#if !defined(USH_ARCH_HAS_FEATURES)
/* Nothing to choose: the one copy of the architecture. */
static inline unsigned ush_arch_features_cpu(void)
{
    return 0;
}
static inline unsigned ush_arch_features_auto(void)
{
    return 0;
}
static inline unsigned ush_arch_features(void)
{
    return 0;
}
static inline void ush_arch_features_use(unsigned set)
{
    (void)set;
}
#endif

#endif
