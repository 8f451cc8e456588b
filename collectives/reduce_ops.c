/*
 * The reduction operators, one small loop per (operator, type), expanded
 * from the type table in <ushmem/types.h>: the team-based lists and the
 * active-set ones (whose bitwise types, short/int/long/long long, the
 * team-based lists lack).
 *
 * Integer sums and products wrap, as the hardware does; max and min
 * compare with < and > (a NaN operand yields whichever the comparison
 * keeps).
 */
#include "ush_coll.h"

/* inout and in never overlap (in is a receive buffer: scratch, pWrk or a
 * slot's copy), and restrict says so: without it the vectoriser would
 * have to check for overlap on every call. */
#define USH_OP_LOOP_(T, N, OP, EXPR)                                          \
    void ush_coll_op_##OP##_##N(void *inout, const void *in, size_t n)        \
    {                                                                         \
        T *restrict       a = inout;                                          \
        const T *restrict b = in;                                             \
        for (size_t i = 0; i < n; i++) a[i] = (T)(EXPR);                      \
    }

#define USH_OP_BIT_(T, N)                                                     \
    USH_OP_LOOP_(T, N, and, a[i] & b[i])                                      \
    USH_OP_LOOP_(T, N, or, a[i] | b[i])                                       \
    USH_OP_LOOP_(T, N, xor, a[i] ^ b[i])
#define USH_OP_MINMAX_(T, N)                                                  \
    USH_OP_LOOP_(T, N, max, b[i] > a[i] ? b[i] : a[i])                        \
    USH_OP_LOOP_(T, N, min, b[i] < a[i] ? b[i] : a[i])
#define USH_OP_ARITH_(T, N)                                                   \
    USH_OP_LOOP_(T, N, sum, a[i] + b[i])                                      \
    USH_OP_LOOP_(T, N, prod, a[i] * b[i])

USHMEM_REDUCE_BIT_TYPES(USH_OP_BIT_)
USHMEM_TO_ALL_BIT_TYPES(USH_OP_BIT_)
USHMEM_REDUCE_MINMAX_TYPES(USH_OP_MINMAX_)
USHMEM_REDUCE_ARITH_TYPES(USH_OP_ARITH_)
USH_COLL_REAL16_TYPES(USH_OP_MINMAX_)
USH_COLL_REAL16_TYPES(USH_OP_ARITH_)
