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
 *                           exactly once (see copy_once.h for why);
 *   ush_arch_copy_once_max() up to which size that copy keeps up with
 *                           memcpy (rma.c takes memcpy with a copied-once
 *                           tail beyond it).
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

#endif
