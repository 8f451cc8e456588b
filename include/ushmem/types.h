/*
 * ushmem's type table: the one list of OpenSHMEM's typed families.
 * Every typed routine, every C11 generic selection and every typed test is
 * expanded from these lists, so nothing is copied by hand.
 *
 * Each list takes a macro X(TYPE, TYPENAME) and applies it to every member.
 * The *_STD lists hold distinct C types (usable as _Generic associations);
 * the *_FIXED lists hold typedefs (int32_t, size_t, ...) that alias some
 * standard type and so must stay out of _Generic selections.
 */
#ifndef USHMEM_TYPES_H
#define USHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Standard RMA types (spec Table "Standard RMA Types and Names"). */
#define USHMEM_RMA_TYPES_STD(X)                                               \
    X(float, float)                                                           \
    X(double, double)                                                         \
    X(long double, longdouble)                                                \
    X(char, char)                                                             \
    X(signed char, schar)                                                     \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned char, uchar)                                                   \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)

#define USHMEM_RMA_TYPES_FIXED(X)                                             \
    X(int8_t, int8)                                                           \
    X(int16_t, int16)                                                         \
    X(int32_t, int32)                                                         \
    X(int64_t, int64)                                                         \
    X(uint8_t, uint8)                                                         \
    X(uint16_t, uint16)                                                       \
    X(uint32_t, uint32)                                                       \
    X(uint64_t, uint64)                                                       \
    X(size_t, size)                                                           \
    X(ptrdiff_t, ptrdiff)

#define USHMEM_RMA_TYPES(X) USHMEM_RMA_TYPES_STD(X) USHMEM_RMA_TYPES_FIXED(X)

/* Sizes of the sized RMA routines (shmem_put8 ... shmem_put128): X(BITS). */
#define USHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Standard AMO types: inc, fetch_inc, add, fetch_add, compare_swap. */
#define USHMEM_AMO_TYPES_STD(X)                                               \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)

#define USHMEM_AMO_TYPES_FIXED(X)                                             \
    X(int32_t, int32)                                                         \
    X(int64_t, int64)                                                         \
    X(uint32_t, uint32)                                                       \
    X(uint64_t, uint64)                                                       \
    X(size_t, size)                                                           \
    X(ptrdiff_t, ptrdiff)

#define USHMEM_AMO_TYPES(X) USHMEM_AMO_TYPES_STD(X) USHMEM_AMO_TYPES_FIXED(X)

/* Extended AMO types: fetch, set, swap (the standard ones plus floats). */
#define USHMEM_AMO_EXT_TYPES_STD(X) X(float, float) X(double, double) USHMEM_AMO_TYPES_STD(X)
#define USHMEM_AMO_EXT_TYPES(X)     USHMEM_AMO_EXT_TYPES_STD(X) USHMEM_AMO_TYPES_FIXED(X)

/* Bitwise AMO types: and, or, xor and their fetching forms. */
#define USHMEM_AMO_BIT_TYPES_STD(X)                                           \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)

#define USHMEM_AMO_BIT_TYPES_FIXED(X)                                         \
    X(int32_t, int32)                                                         \
    X(int64_t, int64)                                                         \
    X(uint32_t, uint32)                                                       \
    X(uint64_t, uint64)

#define USHMEM_AMO_BIT_TYPES(X) USHMEM_AMO_BIT_TYPES_STD(X) USHMEM_AMO_BIT_TYPES_FIXED(X)

/* Deprecated (1.4) atomic names: shmem_int_finc, shmem_long_cswap, ... */
#define USHMEM_AMO_DEPR_TYPES(X)     X(int, int) X(long, long) X(long long, longlong)
#define USHMEM_AMO_DEPR_EXT_TYPES(X) USHMEM_AMO_DEPR_TYPES(X) X(float, float) X(double, double)

/* Point-to-point synchronisation types: wait_until, test and their forms. */
#define USHMEM_P2P_TYPES_STD(X)                                               \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)

#define USHMEM_P2P_TYPES_FIXED(X)                                             \
    X(int32_t, int32)                                                         \
    X(int64_t, int64)                                                         \
    X(uint32_t, uint32)                                                       \
    X(uint64_t, uint64)                                                       \
    X(size_t, size)                                                           \
    X(ptrdiff_t, ptrdiff)

#define USHMEM_P2P_TYPES(X) USHMEM_P2P_TYPES_STD(X) USHMEM_P2P_TYPES_FIXED(X)

/* ---- Collectives ---------------------------------------------------------
 * broadcast, collect, fcollect, alltoall and alltoalls (team-based) take the
 * standard RMA types: they expand from USHMEM_RMA_TYPES above. */

/* The spec's complex types for SUM and PROD. C99 and later spell them
 * float _Complex / double _Complex. C++ has no such types, but g++ and
 * clang++ accept them as an extension (with the layout of std::complex<T>),
 * and __extension__ keeps -pedantic quiet; another C++ compiler, or a C
 * compiler without complex support, gets no complex routines at all (the
 * spec allows that). USHMEM_HAVE_COMPLEX says which case applies. */
#if defined(__cplusplus)
#if defined(__GNUC__)
#define USHMEM_HAVE_COMPLEX 1
__extension__ typedef float _Complex  ush_complexf_t;
__extension__ typedef double _Complex ush_complexd_t;
#endif
#elif !defined(__STDC_NO_COMPLEX__)
#define USHMEM_HAVE_COMPLEX 1
typedef float _Complex  ush_complexf_t;
typedef double _Complex ush_complexd_t;
#endif

#ifdef USHMEM_HAVE_COMPLEX
#define USHMEM_COMPLEX_TYPES(X) X(ush_complexd_t, complexd) X(ush_complexf_t, complexf)
#else
#define USHMEM_COMPLEX_TYPES(X)
#endif

/* Team-based reductions (spec Table "Reduction Types, Names, and Supporting
 * Operations for Team-Based Reductions"), one list per operator group:
 * BIT for and/or/xor, MINMAX for max/min, ARITH for sum/prod and for the
 * 1.6 scans (sum_inscan, sum_exscan). */
#define USHMEM_REDUCE_BIT_TYPES_STD(X)                                        \
    X(unsigned char, uchar)                                                   \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)

#define USHMEM_REDUCE_BIT_TYPES_FIXED(X)                                      \
    X(int8_t, int8)                                                           \
    X(int16_t, int16)                                                         \
    X(int32_t, int32)                                                         \
    X(int64_t, int64)                                                         \
    X(uint8_t, uint8)                                                         \
    X(uint16_t, uint16)                                                       \
    X(uint32_t, uint32)                                                       \
    X(uint64_t, uint64)                                                       \
    X(size_t, size)

#define USHMEM_REDUCE_BIT_TYPES(X) USHMEM_REDUCE_BIT_TYPES_STD(X) USHMEM_REDUCE_BIT_TYPES_FIXED(X)

#define USHMEM_REDUCE_MINMAX_TYPES_STD(X)                                     \
    X(char, char)                                                             \
    X(signed char, schar)                                                     \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned char, uchar)                                                   \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)                                          \
    X(float, float)                                                           \
    X(double, double)                                                         \
    X(long double, longdouble)

#define USHMEM_REDUCE_MINMAX_TYPES_FIXED(X) X(ptrdiff_t, ptrdiff) USHMEM_REDUCE_BIT_TYPES_FIXED(X)

#define USHMEM_REDUCE_MINMAX_TYPES(X)                                         \
    USHMEM_REDUCE_MINMAX_TYPES_STD(X) USHMEM_REDUCE_MINMAX_TYPES_FIXED(X)

/* SUM and PROD: the MINMAX types plus the complex ones (both distinct C
 * types, so they belong to the _STD list). */
#define USHMEM_REDUCE_ARITH_TYPES_STD(X) USHMEM_REDUCE_MINMAX_TYPES_STD(X) USHMEM_COMPLEX_TYPES(X)
#define USHMEM_REDUCE_ARITH_TYPES_FIXED(X) USHMEM_REDUCE_MINMAX_TYPES_FIXED(X)
#define USHMEM_REDUCE_ARITH_TYPES(X)                                          \
    USHMEM_REDUCE_ARITH_TYPES_STD(X) USHMEM_REDUCE_ARITH_TYPES_FIXED(X)

/* Active-set reductions (deprecated *_to_all; spec Table "Reduction Types,
 * Names and Supporting Operations for Active-Set-Based Reductions"). All
 * distinct standard types. */
#define USHMEM_TO_ALL_BIT_TYPES(X)                                            \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)

#define USHMEM_TO_ALL_MINMAX_TYPES(X)                                         \
    USHMEM_TO_ALL_BIT_TYPES(X)                                                \
    X(float, float)                                                           \
    X(double, double)                                                         \
    X(long double, longdouble)

#define USHMEM_TO_ALL_ARITH_TYPES(X) USHMEM_TO_ALL_MINMAX_TYPES(X) USHMEM_COMPLEX_TYPES(X)

/* Sizes of the sized active-set collectives (shmem_broadcast32/64,
 * shmem_collect32/64, ...): X(BITS). */
#define USHMEM_COLL_SIZES(X) X(32) X(64)

#endif
