/*
 * Dispatch check of the C11 generic macros in <shmem.h>: compile-only, no
 * library needed. Every function chk__<SYMBOL>__<variant> calls one generic
 * macro with arguments of one type; check-headers.sh compiles this file to
 * assembly and verifies that each such function calls exactly <SYMBOL>.
 * A wrong association (or a missing one, which does not compile) fails.
 */
#include <shmem.h>

#define CHK(sym, variant, params, call) void chk__##sym##__##variant params { call; }

/* RMA: every standard RMA type, plain and ctx. */
#define RMA(T, N)                                                                               \
    CHK(shmem_##N##_put, a, (T *d, const T *s), shmem_put(d, s, 4, 1))                           \
    CHK(shmem_ctx_##N##_put, a, (shmem_ctx_t c, T *d, const T *s), shmem_put(c, d, s, 4, 1))     \
    CHK(shmem_##N##_get, a, (T *d, const T *s), shmem_get(d, s, 4, 1))                           \
    CHK(shmem_ctx_##N##_get, a, (shmem_ctx_t c, T *d, const T *s), shmem_get(c, d, s, 4, 1))     \
    CHK(shmem_##N##_put_nbi, a, (T *d, const T *s), shmem_put_nbi(d, s, 4, 1))                   \
    CHK(shmem_ctx_##N##_put_nbi, a, (shmem_ctx_t c, T *d, const T *s), shmem_put_nbi(c, d, s, 4, 1)) \
    CHK(shmem_##N##_get_nbi, a, (T *d, const T *s), shmem_get_nbi(d, s, 4, 1))                   \
    CHK(shmem_ctx_##N##_get_nbi, a, (shmem_ctx_t c, T *d, const T *s), shmem_get_nbi(c, d, s, 4, 1)) \
    CHK(shmem_##N##_p, a, (T *d, T v), shmem_p(d, v, 1))                                          \
    CHK(shmem_ctx_##N##_p, a, (shmem_ctx_t c, T *d, T v), shmem_p(c, d, v, 1))                    \
    CHK(shmem_##N##_g, a, (const T *s, T *r), *r = shmem_g(s, 1))                                \
    CHK(shmem_##N##_g, b, (T *s, T *r), *r = shmem_g(s, 1))                                      \
    CHK(shmem_ctx_##N##_g, a, (shmem_ctx_t c, const T *s, T *r), *r = shmem_g(c, s, 1))          \
    CHK(shmem_ctx_##N##_g, b, (shmem_ctx_t c, T *s, T *r), *r = shmem_g(c, s, 1))                \
    CHK(shmem_##N##_iput, a, (T *d, const T *s), shmem_iput(d, s, 2, 3, 4, 1))                   \
    CHK(shmem_ctx_##N##_iput, a, (shmem_ctx_t c, T *d, const T *s), shmem_iput(c, d, s, 2, 3, 4, 1)) \
    CHK(shmem_##N##_iget, a, (T *d, const T *s), shmem_iget(d, s, 2, 3, 4, 1))                   \
    CHK(shmem_ctx_##N##_iget, a, (shmem_ctx_t c, T *d, const T *s), shmem_iget(c, d, s, 2, 3, 4, 1)) \
    CHK(shmem_##N##_ibput, a, (T *d, const T *s), shmem_ibput(d, s, 2, 3, 2, 4, 1))              \
    CHK(shmem_ctx_##N##_ibput, a, (shmem_ctx_t c, T *d, const T *s), shmem_ibput(c, d, s, 2, 3, 2, 4, 1)) \
    CHK(shmem_##N##_ibget, a, (T *d, const T *s), shmem_ibget(d, s, 2, 3, 2, 4, 1))              \
    CHK(shmem_ctx_##N##_ibget, a, (shmem_ctx_t c, T *d, const T *s), shmem_ibget(c, d, s, 2, 3, 2, 4, 1)) \
    /* arrays decay as in a call */                                                             \
    CHK(shmem_##N##_put, arr, (const T *s), static T arr_[4]; shmem_put(arr_, s, 4, 1))
USHMEM_RMA_TYPES_STD(RMA)

/* AMO on the standard AMO types. */
#define AMO_STD(T, N)                                                                           \
    CHK(shmem_##N##_atomic_compare_swap, a, (T *d, T *r), *r = shmem_atomic_compare_swap(d, 1, 2, 1)) \
    CHK(shmem_ctx_##N##_atomic_compare_swap, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_compare_swap(c, d, 1, 2, 1)) \
    CHK(shmem_##N##_atomic_fetch_inc, a, (T *d, T *r), *r = shmem_atomic_fetch_inc(d, 1))        \
    CHK(shmem_ctx_##N##_atomic_fetch_inc, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_fetch_inc(c, d, 1)) \
    CHK(shmem_##N##_atomic_inc, a, (T *d), shmem_atomic_inc(d, 1))                               \
    CHK(shmem_ctx_##N##_atomic_inc, a, (shmem_ctx_t c, T *d), shmem_atomic_inc(c, d, 1))         \
    CHK(shmem_##N##_atomic_fetch_add, a, (T *d, T *r), *r = shmem_atomic_fetch_add(d, 3, 1))     \
    CHK(shmem_ctx_##N##_atomic_fetch_add, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_fetch_add(c, d, 3, 1)) \
    CHK(shmem_##N##_atomic_add, a, (T *d), shmem_atomic_add(d, 3, 1))                            \
    CHK(shmem_ctx_##N##_atomic_add, a, (shmem_ctx_t c, T *d), shmem_atomic_add(c, d, 3, 1))      \
    CHK(shmem_##N##_atomic_compare_swap_nbi, a, (T *f, T *d), shmem_atomic_compare_swap_nbi(f, d, 1, 2, 1)) \
    CHK(shmem_ctx_##N##_atomic_compare_swap_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_compare_swap_nbi(c, f, d, 1, 2, 1)) \
    CHK(shmem_##N##_atomic_fetch_inc_nbi, a, (T *f, T *d), shmem_atomic_fetch_inc_nbi(f, d, 1))  \
    CHK(shmem_ctx_##N##_atomic_fetch_inc_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_fetch_inc_nbi(c, f, d, 1)) \
    CHK(shmem_##N##_atomic_fetch_add_nbi, a, (T *f, T *d), shmem_atomic_fetch_add_nbi(f, d, 3, 1)) \
    CHK(shmem_ctx_##N##_atomic_fetch_add_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_fetch_add_nbi(c, f, d, 3, 1))
USHMEM_AMO_TYPES_STD(AMO_STD)

/* AMO on the extended types (adds float and double). */
#define AMO_EXT(T, N)                                                                           \
    CHK(shmem_##N##_atomic_fetch, a, (const T *s, T *r), *r = shmem_atomic_fetch(s, 1))          \
    CHK(shmem_##N##_atomic_fetch, b, (T *s, T *r), *r = shmem_atomic_fetch(s, 1))                \
    CHK(shmem_ctx_##N##_atomic_fetch, a, (shmem_ctx_t c, const T *s, T *r), *r = shmem_atomic_fetch(c, s, 1)) \
    CHK(shmem_##N##_atomic_set, a, (T *d), shmem_atomic_set(d, 5, 1))                            \
    CHK(shmem_ctx_##N##_atomic_set, a, (shmem_ctx_t c, T *d), shmem_atomic_set(c, d, 5, 1))      \
    CHK(shmem_##N##_atomic_swap, a, (T *d, T *r), *r = shmem_atomic_swap(d, 5, 1))               \
    CHK(shmem_ctx_##N##_atomic_swap, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_swap(c, d, 5, 1)) \
    CHK(shmem_##N##_atomic_fetch_nbi, a, (T *f, const T *s), shmem_atomic_fetch_nbi(f, s, 1))    \
    CHK(shmem_ctx_##N##_atomic_fetch_nbi, a, (shmem_ctx_t c, T *f, const T *s), shmem_atomic_fetch_nbi(c, f, s, 1)) \
    CHK(shmem_##N##_atomic_swap_nbi, a, (T *f, T *d), shmem_atomic_swap_nbi(f, d, 5, 1))         \
    CHK(shmem_ctx_##N##_atomic_swap_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_swap_nbi(c, f, d, 5, 1))
USHMEM_AMO_EXT_TYPES_STD(AMO_EXT)

/* AMO on the bitwise types, including the signed fixed-width ones that
 * alias no unsigned standard type. */
#define AMO_BIT(T, N)                                                                           \
    CHK(shmem_##N##_atomic_fetch_and, a, (T *d, T *r), *r = shmem_atomic_fetch_and(d, 6, 1))     \
    CHK(shmem_ctx_##N##_atomic_fetch_and, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_fetch_and(c, d, 6, 1)) \
    CHK(shmem_##N##_atomic_fetch_or, a, (T *d, T *r), *r = shmem_atomic_fetch_or(d, 6, 1))       \
    CHK(shmem_ctx_##N##_atomic_fetch_or, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_fetch_or(c, d, 6, 1)) \
    CHK(shmem_##N##_atomic_fetch_xor, a, (T *d, T *r), *r = shmem_atomic_fetch_xor(d, 6, 1))     \
    CHK(shmem_ctx_##N##_atomic_fetch_xor, a, (shmem_ctx_t c, T *d, T *r), *r = shmem_atomic_fetch_xor(c, d, 6, 1)) \
    CHK(shmem_##N##_atomic_and, a, (T *d), shmem_atomic_and(d, 6, 1))                            \
    CHK(shmem_ctx_##N##_atomic_and, a, (shmem_ctx_t c, T *d), shmem_atomic_and(c, d, 6, 1))      \
    CHK(shmem_##N##_atomic_or, a, (T *d), shmem_atomic_or(d, 6, 1))                              \
    CHK(shmem_ctx_##N##_atomic_or, a, (shmem_ctx_t c, T *d), shmem_atomic_or(c, d, 6, 1))        \
    CHK(shmem_##N##_atomic_xor, a, (T *d), shmem_atomic_xor(d, 6, 1))                            \
    CHK(shmem_ctx_##N##_atomic_xor, a, (shmem_ctx_t c, T *d), shmem_atomic_xor(c, d, 6, 1))      \
    CHK(shmem_##N##_atomic_fetch_and_nbi, a, (T *f, T *d), shmem_atomic_fetch_and_nbi(f, d, 6, 1)) \
    CHK(shmem_ctx_##N##_atomic_fetch_and_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_fetch_and_nbi(c, f, d, 6, 1)) \
    CHK(shmem_##N##_atomic_fetch_or_nbi, a, (T *f, T *d), shmem_atomic_fetch_or_nbi(f, d, 6, 1)) \
    CHK(shmem_ctx_##N##_atomic_fetch_or_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_fetch_or_nbi(c, f, d, 6, 1)) \
    CHK(shmem_##N##_atomic_fetch_xor_nbi, a, (T *f, T *d), shmem_atomic_fetch_xor_nbi(f, d, 6, 1)) \
    CHK(shmem_ctx_##N##_atomic_fetch_xor_nbi, a, (shmem_ctx_t c, T *f, T *d), shmem_atomic_fetch_xor_nbi(c, f, d, 6, 1))
USHMEM_AMO_BIT_TYPES_STD(AMO_BIT)
AMO_BIT(int32_t, int32)
AMO_BIT(int64_t, int64)

/* Point-to-point synchronisation (no ctx forms). */
#define P2P(T, N)                                                                               \
    CHK(shmem_##N##_wait_until, a, (T *v), shmem_wait_until(v, SHMEM_CMP_EQ, 1))                 \
    CHK(shmem_##N##_wait_until_all, a, (T *v, const int *st), shmem_wait_until_all(v, 4, st, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_wait_until_any, a, (T *v, size_t *r), *r = shmem_wait_until_any(v, 4, NULL, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_wait_until_some, a, (T *v, size_t *ix, size_t *r), *r = shmem_wait_until_some(v, 4, ix, NULL, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_wait_until_all_vector, a, (T *v, T *cv), shmem_wait_until_all_vector(v, 4, NULL, SHMEM_CMP_EQ, cv)) \
    CHK(shmem_##N##_wait_until_any_vector, a, (T *v, T *cv, size_t *r), *r = shmem_wait_until_any_vector(v, 4, NULL, SHMEM_CMP_EQ, cv)) \
    CHK(shmem_##N##_wait_until_some_vector, a, (T *v, size_t *ix, T *cv, size_t *r), *r = shmem_wait_until_some_vector(v, 4, ix, NULL, SHMEM_CMP_EQ, cv)) \
    CHK(shmem_##N##_test, a, (T *v, int *r), *r = shmem_test(v, SHMEM_CMP_NE, 0))                \
    CHK(shmem_##N##_test_all, a, (T *v, int *r), *r = shmem_test_all(v, 4, NULL, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_test_any, a, (T *v, size_t *r), *r = shmem_test_any(v, 4, NULL, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_test_some, a, (T *v, size_t *ix, size_t *r), *r = shmem_test_some(v, 4, ix, NULL, SHMEM_CMP_EQ, 1)) \
    CHK(shmem_##N##_test_all_vector, a, (T *v, T *cv, int *r), *r = shmem_test_all_vector(v, 4, NULL, SHMEM_CMP_EQ, cv)) \
    CHK(shmem_##N##_test_any_vector, a, (T *v, T *cv, size_t *r), *r = shmem_test_any_vector(v, 4, NULL, SHMEM_CMP_EQ, cv)) \
    CHK(shmem_##N##_test_some_vector, a, (T *v, size_t *ix, T *cv, size_t *r), *r = shmem_test_some_vector(v, 4, ix, NULL, SHMEM_CMP_EQ, cv))
USHMEM_P2P_TYPES_STD(P2P)

/* Team-based collectives on every standard RMA type: the type of dest
 * (the second argument) picks the routine. */
#define COLL(T, N)                                                                              \
    CHK(shmem_##N##_broadcast, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_broadcast(t, d, s, 4, 0)) \
    CHK(shmem_##N##_collect, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_collect(t, d, s, 4)) \
    CHK(shmem_##N##_fcollect, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_fcollect(t, d, s, 4)) \
    CHK(shmem_##N##_alltoall, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_alltoall(t, d, s, 4)) \
    CHK(shmem_##N##_alltoalls, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_alltoalls(t, d, s, 2, 3, 4)) \
    /* non-const source, a predefined team, an array dest */                                    \
    CHK(shmem_##N##_broadcast, b, (T *d, T *s), (void)shmem_broadcast(SHMEM_TEAM_WORLD, d, s, 4, 1)) \
    CHK(shmem_##N##_fcollect, arr, (const T *s), static T arr_[8]; (void)shmem_fcollect(SHMEM_TEAM_SHARED, arr_, s, 4))
USHMEM_RMA_TYPES_STD(COLL)

/* Reductions, one operator group per type list of the table. */
#define RED_BIT(T, N)                                                                           \
    CHK(shmem_##N##_and_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_and_reduce(t, d, s, 3)) \
    CHK(shmem_##N##_or_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_or_reduce(t, d, s, 3)) \
    CHK(shmem_##N##_xor_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_xor_reduce(t, d, s, 3))
USHMEM_REDUCE_BIT_TYPES_STD(RED_BIT)
/* The signed fixed-width bitwise types alias no unsigned standard type. */
RED_BIT(int8_t, int8)
RED_BIT(int16_t, int16)
RED_BIT(int32_t, int32)
RED_BIT(int64_t, int64)

#define RED_MINMAX(T, N)                                                                        \
    CHK(shmem_##N##_max_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_max_reduce(t, d, s, 3)) \
    CHK(shmem_##N##_min_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_min_reduce(t, d, s, 3))
USHMEM_REDUCE_MINMAX_TYPES_STD(RED_MINMAX)

/* SUM, PROD and the 1.6 scans, complex types included; in place too. */
#define RED_ARITH(T, N)                                                                         \
    CHK(shmem_##N##_sum_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_sum_reduce(t, d, s, 3)) \
    CHK(shmem_##N##_prod_reduce, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_prod_reduce(t, d, s, 3)) \
    CHK(shmem_##N##_sum_inscan, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_sum_inscan(t, d, s, 3)) \
    CHK(shmem_##N##_sum_exscan, a, (shmem_team_t t, T *d, const T *s, int *r), *r = shmem_sum_exscan(t, d, s, 3)) \
    CHK(shmem_##N##_sum_reduce, inplace, (T *d), (void)shmem_sum_reduce(SHMEM_TEAM_WORLD, d, d, 3))
USHMEM_REDUCE_ARITH_TYPES_STD(RED_ARITH)

/* shmem_sync: a team selects shmem_team_sync, the active-set arguments the
 * deprecated routine of the same name. */
CHK(shmem_team_sync, a, (shmem_team_t t, int *r), *r = shmem_sync(t))
CHK(shmem_team_sync, dflt, (int *r), *r = shmem_sync(SHMEM_TEAM_WORLD))
CHK(shmem_sync, a, (long *ps), shmem_sync(0, 1, 4, ps))

/* Signaling: put-with-signal on every standard RMA type, plain and ctx;
 * signal_add/set pick their ctx form from a leading context. */
#define SIG(T, N)                                                                               \
    CHK(shmem_##N##_put_signal, a, (T *d, const T *s, uint64_t *g), shmem_put_signal(d, s, 4, g, 1, SHMEM_SIGNAL_SET, 1)) \
    CHK(shmem_ctx_##N##_put_signal, a, (shmem_ctx_t c, T *d, const T *s, uint64_t *g), shmem_put_signal(c, d, s, 4, g, 1, SHMEM_SIGNAL_ADD, 1)) \
    CHK(shmem_##N##_put_signal_nbi, a, (T *d, const T *s, uint64_t *g), shmem_put_signal_nbi(d, s, 4, g, 1, SHMEM_SIGNAL_SET, 1)) \
    CHK(shmem_ctx_##N##_put_signal_nbi, a, (shmem_ctx_t c, T *d, const T *s, uint64_t *g), shmem_put_signal_nbi(c, d, s, 4, g, 1, SHMEM_SIGNAL_ADD, 1))
USHMEM_RMA_TYPES_STD(SIG)
CHK(shmem_signal_add, a, (uint64_t *g), shmem_signal_add(g, 2, 1))
CHK(shmem_ctx_signal_add, a, (shmem_ctx_t c, uint64_t *g), shmem_signal_add(c, g, 2, 1))
CHK(shmem_signal_set, a, (uint64_t *g), shmem_signal_set(g, 2, 1))
CHK(shmem_ctx_signal_set, a, (shmem_ctx_t c, uint64_t *g), shmem_signal_set(c, g, 2, 1))

/* SHMEM_CTX_DEFAULT is a shmem_ctx_t like any other. */
CHK(shmem_ctx_long_put, dflt, (long *d, const long *s), shmem_put(SHMEM_CTX_DEFAULT, d, s, 4, 1))
/* A generic call nested in another one's arguments (the checker wants the
 * outer routine to be the last call for the "nested" variant). */
CHK(shmem_int_p, nested, (int *d, const int *s), shmem_p(d, shmem_g(s, 1), 1))
