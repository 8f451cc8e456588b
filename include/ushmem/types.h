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

#endif
