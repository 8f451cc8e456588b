/*
 * ushmem: the OpenSHMEM 1.6 C API.
 *
 * Constants and handles first, then the prototypes (ushmem/api.h, shared
 * with pshmem.h), then the C11 type-generic macros. The header compiles as
 * C99, C11 and C++; the generic macros exist only in C11 and later.
 *
 * Names this header adds besides the spec's all start with USHMEM_ or ush_.
 */
#ifndef USHMEM_SHMEM_H
#define USHMEM_SHMEM_H

#ifdef USHMEM_HPVM_H
#error "<shmem.h> and <ushmem/hpvm.h> declare shmem_get, shmem_put and shmem_broadcast differently: include one of them in a translation unit (docs/hpvm.md)"
#endif

#include <stddef.h>
#include <stdint.h>

#include "ushmem/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define USHMEM_NORETURN __attribute__((noreturn))
#else
#define USHMEM_NORETURN
#endif

/* ---- Library version and identity ------------------------------------- */

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN  256
#define SHMEM_VENDOR_STRING "ushmem"

/* ---- Thread support levels (ordered: each allows more than the last) -- */

#define SHMEM_THREAD_SINGLE     0
#define SHMEM_THREAD_FUNNELED   1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE   3

/* ---- Comparison operators of point-to-point synchronisation ----------- */

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

/* ---- Bit flags: context options, malloc hints, config masks ----------- */

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE    (1L << 1)
#define SHMEM_CTX_NOSTORE    (1L << 2)

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE  (1L << 1)

#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* Session options and configuration mask (shmem_ctx_session_start). */
#define SHMEM_CTX_SESSION_BATCH     (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
/* The names of the 1.6 drafts, for programs written against them. */
#define SHMEM_SESSION_BATCH     SHMEM_CTX_SESSION_BATCH
#define SHMEM_SESSION_TOTAL_OPS SHMEM_CTX_SESSION_TOTAL_OPS

/* ---- Signal update operations (put-with-signal) ------------------------ */

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* ---- Work arrays of the active-set collectives ------------------------- *
 * In elements (long for pSync). Every routine uses at most the first three
 * words of pSync, and only on the first call with a given (pSync, active
 * set): they agree there on a block of the library's own symmetric memory
 * that holds the call's state from then on (see docs/collectives.md). So
 * all the sizes are equal, and a pSync declared with any of them serves
 * every routine. pWrk for a *_to_all reduction needs
 * max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements. */
#define SHMEM_BARRIER_SYNC_SIZE        4
#define SHMEM_BCAST_SYNC_SIZE          4
#define SHMEM_REDUCE_SYNC_SIZE         4
#define SHMEM_COLLECT_SYNC_SIZE        4
#define SHMEM_ALLTOALL_SYNC_SIZE       4
#define SHMEM_ALLTOALLS_SYNC_SIZE      4
#define SHMEM_SYNC_SIZE                4
#define SHMEM_SYNC_VALUE               0L
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE  16

/* ---- Deprecated constant names (_SHMEM_*) ------------------------------ */

#define _SHMEM_MAJOR_VERSION           SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION           SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN            SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING           SHMEM_VENDOR_STRING
#define _SHMEM_CMP_EQ                  SHMEM_CMP_EQ
#define _SHMEM_CMP_NE                  SHMEM_CMP_NE
#define _SHMEM_CMP_GT                  SHMEM_CMP_GT
#define _SHMEM_CMP_GE                  SHMEM_CMP_GE
#define _SHMEM_CMP_LT                  SHMEM_CMP_LT
#define _SHMEM_CMP_LE                  SHMEM_CMP_LE
#define _SHMEM_BARRIER_SYNC_SIZE       SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE         SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE        SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE       SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_SYNC_VALUE              SHMEM_SYNC_VALUE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- Handles ------------------------------------------------------------ *
 * A context or team handle is a pointer to the library's own object, so the
 * predefined handles are link-time constants: using one costs no load, and
 * SHMEM_CTX_DEFAULT can appear in static initialisers. The structures stay
 * opaque to programs. */
typedef struct ush_ctx *shmem_ctx_t;
extern struct ush_ctx   ush_ctx_default;
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)&ush_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

typedef struct ush_team *shmem_team_t;
extern struct ush_team   ush_team_world, ush_team_shared;
#define SHMEM_TEAM_WORLD   ((shmem_team_t)&ush_team_world)
#define SHMEM_TEAM_SHARED  ((shmem_team_t)&ush_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

/* ---- Configuration structures ------------------------------------------ */

typedef struct {
    int num_contexts;
} shmem_team_config_t;

typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;
/* The name of the 1.6 drafts. */
typedef shmem_ctx_session_config_t shmem_session_config_t;

/* ---- Routines ------------------------------------------------------------ */

#define USHMEM_FN(name) name
#include "ushmem/api.h"
#undef USHMEM_FN

#ifdef __cplusplus
}
#endif

/* ---- C11 type-generic routines ------------------------------------------ *
 * Each macro picks the typed routine from the type of its first argument;
 * when that is a shmem_ctx_t, from the second one, and the ctx form is
 * called. The team-based collectives pick it from dest, their second
 * argument (the first is the team). Only standard types appear in the selections: the fixed-width
 * types are typedefs of them, so they already have their association (and
 * a second one for the same type would not compile). An argument type with
 * no routine is a compile-time error, never a silent conversion. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

/* First and second argument of a call (the 0 keeps "..." non-empty). */
#define USHMEM_C11_ARG0_(a, ...)    a
#define USHMEM_C11_ARG0(...)        USHMEM_C11_ARG0_(__VA_ARGS__, 0)
#define USHMEM_C11_ARG1_(a, b, ...) b
#define USHMEM_C11_ARG1(...)        USHMEM_C11_ARG1_(__VA_ARGS__, 0)

/* Chosen for a type that has no routine; never defined, and calling it does
 * not compile ("called object ... is not a function"). Its name is the
 * diagnostic. */
extern struct ush_c11_no_routine_for_these_argument_types
    ush_c11_no_routine_for_these_argument_types;

/* Dispatch on ARG0, or on ARG1 after a leading shmem_ctx_t. PLAIN and CTX
 * are X-macros that turn (TYPE, TYPENAME) into "TYPE *: routine,". */
#define USHMEM_C11_CTX_GENERIC(LIST, PLAIN, CTX, ...)                                   \
    _Generic(USHMEM_C11_ARG0(__VA_ARGS__),                                              \
        LIST(PLAIN)                                                                     \
        shmem_ctx_t: _Generic(USHMEM_C11_ARG1(__VA_ARGS__),                             \
            LIST(CTX)                                                                   \
            default: ush_c11_no_routine_for_these_argument_types))(__VA_ARGS__)
/* Dispatch on ARG0 only (routines without a ctx form). */
#define USHMEM_C11_GENERIC(LIST, PLAIN, ...)                                            \
    _Generic(USHMEM_C11_ARG0(__VA_ARGS__),                                              \
        LIST(PLAIN)                                                                     \
        default: ush_c11_no_routine_for_these_argument_types)(__VA_ARGS__)

/* Dispatch on ARG1 only: the team-based collectives, whose first argument
 * is the team and whose second (dest) carries the type. */
#define USHMEM_C11_TEAM_GENERIC(LIST, PLAIN, ...)                                       \
    _Generic(USHMEM_C11_ARG1(__VA_ARGS__),                                              \
        LIST(PLAIN)                                                                     \
        default: ush_c11_no_routine_for_these_argument_types)(__VA_ARGS__)

/* The type lists of the generic macros. They are the *_STD lists of
 * ushmem/types.h, written out again on purpose: a generic macro called
 * inside an expansion of a table list (a test that does
 * USHMEM_RMA_TYPES_STD(X) with X calling shmem_put, say) could not expand
 * that same list again, since the preprocessor never re-expands a macro
 * inside its own expansion. test/headers/check-headers.sh fails if these
 * drift from the table.
 * The bitwise list adds int32_t and int64_t, which the spec's bitwise table
 * has and which alias no *unsigned* standard type (they are signed and of
 * different sizes, so they collide with nothing here). */
#define USHMEM_C11_RMA_TYPES(X)                                               \
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
#define USHMEM_C11_AMO_TYPES(X)                                               \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)
#define USHMEM_C11_AMO_EXT_TYPES(X) X(float, float) X(double, double) USHMEM_C11_AMO_TYPES(X)
/* The deprecated (1.3) atomics exist for these types only. */
#define USHMEM_C11_AMO_DEPR_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define USHMEM_C11_AMO_DEPR_EXT_TYPES(X) USHMEM_C11_AMO_DEPR_TYPES(X) X(float, float) X(double, double)
#define USHMEM_C11_AMO_BIT_TYPES(X)                                           \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)
#define USHMEM_C11_BIT_TYPES(X) USHMEM_C11_AMO_BIT_TYPES(X) X(int32_t, int32) X(int64_t, int64)
#define USHMEM_C11_P2P_TYPES(X)                                               \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)                                                    \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)
/* Team-based collectives (broadcast ... alltoalls) take the RMA list.
 * Reductions: one list per operator group, as in the table. The bitwise
 * one adds the signed fixed-width types of the spec's reduction table,
 * which alias no unsigned standard type (as for USHMEM_C11_BIT_TYPES). */
#define USHMEM_C11_REDUCE_BIT_TYPES(X)                                        \
    X(unsigned char, uchar)                                                   \
    X(unsigned short, ushort)                                                 \
    X(unsigned int, uint)                                                     \
    X(unsigned long, ulong)                                                   \
    X(unsigned long long, ulonglong)
#define USHMEM_C11_RBIT_TYPES(X)                                              \
    USHMEM_C11_REDUCE_BIT_TYPES(X)                                            \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)
#define USHMEM_C11_REDUCE_MINMAX_TYPES(X)                                     \
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
#ifdef USHMEM_HAVE_COMPLEX
#define USHMEM_C11_REDUCE_ARITH_TYPES(X)                                      \
    USHMEM_C11_REDUCE_MINMAX_TYPES(X) X(ush_complexd_t, complexd) X(ush_complexf_t, complexf)
#else
#define USHMEM_C11_REDUCE_ARITH_TYPES(X) USHMEM_C11_REDUCE_MINMAX_TYPES(X)
#endif

/* Associations: TYPE * selects shmem_[ctx_]TYPENAME_<op>. Routines whose
 * pointer argument is const (g, atomic_fetch) take TYPE * too. */
#define USHMEM_C11_A_(T, N, OP)   T *: shmem_##N##OP,
#define USHMEM_C11_C_(T, N, OP)   T *: shmem_ctx_##N##OP,
#define USHMEM_C11_AK_(T, N, OP)  T *: shmem_##N##OP, const T *: shmem_##N##OP,
#define USHMEM_C11_CK_(T, N, OP)  T *: shmem_ctx_##N##OP, const T *: shmem_ctx_##N##OP,

#define USHMEM_C11_put(T, N)      USHMEM_C11_A_(T, N, _put)
#define USHMEM_C11_cput(T, N)     USHMEM_C11_C_(T, N, _put)
#define USHMEM_C11_get(T, N)      USHMEM_C11_A_(T, N, _get)
#define USHMEM_C11_cget(T, N)     USHMEM_C11_C_(T, N, _get)
#define USHMEM_C11_p(T, N)        USHMEM_C11_A_(T, N, _p)
#define USHMEM_C11_cp(T, N)       USHMEM_C11_C_(T, N, _p)
#define USHMEM_C11_g(T, N)        USHMEM_C11_AK_(T, N, _g)
#define USHMEM_C11_cg(T, N)       USHMEM_C11_CK_(T, N, _g)
#define USHMEM_C11_iput(T, N)     USHMEM_C11_A_(T, N, _iput)
#define USHMEM_C11_ciput(T, N)    USHMEM_C11_C_(T, N, _iput)
#define USHMEM_C11_iget(T, N)     USHMEM_C11_A_(T, N, _iget)
#define USHMEM_C11_ciget(T, N)    USHMEM_C11_C_(T, N, _iget)
#define USHMEM_C11_ibput(T, N)    USHMEM_C11_A_(T, N, _ibput)
#define USHMEM_C11_cibput(T, N)   USHMEM_C11_C_(T, N, _ibput)
#define USHMEM_C11_ibget(T, N)    USHMEM_C11_A_(T, N, _ibget)
#define USHMEM_C11_cibget(T, N)   USHMEM_C11_C_(T, N, _ibget)
#define USHMEM_C11_putnbi(T, N)   USHMEM_C11_A_(T, N, _put_nbi)
#define USHMEM_C11_cputnbi(T, N)  USHMEM_C11_C_(T, N, _put_nbi)
#define USHMEM_C11_getnbi(T, N)   USHMEM_C11_A_(T, N, _get_nbi)
#define USHMEM_C11_cgetnbi(T, N)  USHMEM_C11_C_(T, N, _get_nbi)
#define USHMEM_C11_putsig(T, N)     USHMEM_C11_A_(T, N, _put_signal)
#define USHMEM_C11_cputsig(T, N)    USHMEM_C11_C_(T, N, _put_signal)
#define USHMEM_C11_putsignbi(T, N)  USHMEM_C11_A_(T, N, _put_signal_nbi)
#define USHMEM_C11_cputsignbi(T, N) USHMEM_C11_C_(T, N, _put_signal_nbi)

#define USHMEM_C11_fetch(T, N)    USHMEM_C11_AK_(T, N, _atomic_fetch)
#define USHMEM_C11_cfetch(T, N)   USHMEM_C11_CK_(T, N, _atomic_fetch)
#define USHMEM_C11_set(T, N)      USHMEM_C11_A_(T, N, _atomic_set)
#define USHMEM_C11_cset(T, N)     USHMEM_C11_C_(T, N, _atomic_set)
#define USHMEM_C11_swap(T, N)     USHMEM_C11_A_(T, N, _atomic_swap)
#define USHMEM_C11_cswap(T, N)    USHMEM_C11_C_(T, N, _atomic_swap)
#define USHMEM_C11_cas(T, N)      USHMEM_C11_A_(T, N, _atomic_compare_swap)
#define USHMEM_C11_ccas(T, N)     USHMEM_C11_C_(T, N, _atomic_compare_swap)
#define USHMEM_C11_finc(T, N)     USHMEM_C11_A_(T, N, _atomic_fetch_inc)
#define USHMEM_C11_cfinc(T, N)    USHMEM_C11_C_(T, N, _atomic_fetch_inc)
#define USHMEM_C11_inc(T, N)      USHMEM_C11_A_(T, N, _atomic_inc)
#define USHMEM_C11_cinc(T, N)     USHMEM_C11_C_(T, N, _atomic_inc)
#define USHMEM_C11_fadd(T, N)     USHMEM_C11_A_(T, N, _atomic_fetch_add)
#define USHMEM_C11_cfadd(T, N)    USHMEM_C11_C_(T, N, _atomic_fetch_add)
#define USHMEM_C11_add(T, N)      USHMEM_C11_A_(T, N, _atomic_add)
#define USHMEM_C11_cadd(T, N)     USHMEM_C11_C_(T, N, _atomic_add)
#define USHMEM_C11_fand(T, N)     USHMEM_C11_A_(T, N, _atomic_fetch_and)
#define USHMEM_C11_cfand(T, N)    USHMEM_C11_C_(T, N, _atomic_fetch_and)
#define USHMEM_C11_for(T, N)      USHMEM_C11_A_(T, N, _atomic_fetch_or)
#define USHMEM_C11_cfor(T, N)     USHMEM_C11_C_(T, N, _atomic_fetch_or)
#define USHMEM_C11_fxor(T, N)     USHMEM_C11_A_(T, N, _atomic_fetch_xor)
#define USHMEM_C11_cfxor(T, N)    USHMEM_C11_C_(T, N, _atomic_fetch_xor)
#define USHMEM_C11_band(T, N)     USHMEM_C11_A_(T, N, _atomic_and)
#define USHMEM_C11_cband(T, N)    USHMEM_C11_C_(T, N, _atomic_and)
#define USHMEM_C11_bor(T, N)      USHMEM_C11_A_(T, N, _atomic_or)
#define USHMEM_C11_cbor(T, N)     USHMEM_C11_C_(T, N, _atomic_or)
#define USHMEM_C11_bxor(T, N)     USHMEM_C11_A_(T, N, _atomic_xor)
#define USHMEM_C11_cbxor(T, N)    USHMEM_C11_C_(T, N, _atomic_xor)

#define USHMEM_C11_fetchnbi(T, N)  USHMEM_C11_A_(T, N, _atomic_fetch_nbi)
#define USHMEM_C11_cfetchnbi(T, N) USHMEM_C11_C_(T, N, _atomic_fetch_nbi)
#define USHMEM_C11_swapnbi(T, N)   USHMEM_C11_A_(T, N, _atomic_swap_nbi)
#define USHMEM_C11_cswapnbi(T, N)  USHMEM_C11_C_(T, N, _atomic_swap_nbi)
#define USHMEM_C11_casnbi(T, N)    USHMEM_C11_A_(T, N, _atomic_compare_swap_nbi)
#define USHMEM_C11_ccasnbi(T, N)   USHMEM_C11_C_(T, N, _atomic_compare_swap_nbi)
#define USHMEM_C11_fincnbi(T, N)   USHMEM_C11_A_(T, N, _atomic_fetch_inc_nbi)
#define USHMEM_C11_cfincnbi(T, N)  USHMEM_C11_C_(T, N, _atomic_fetch_inc_nbi)
#define USHMEM_C11_faddnbi(T, N)   USHMEM_C11_A_(T, N, _atomic_fetch_add_nbi)
#define USHMEM_C11_cfaddnbi(T, N)  USHMEM_C11_C_(T, N, _atomic_fetch_add_nbi)
#define USHMEM_C11_fandnbi(T, N)   USHMEM_C11_A_(T, N, _atomic_fetch_and_nbi)
#define USHMEM_C11_cfandnbi(T, N)  USHMEM_C11_C_(T, N, _atomic_fetch_and_nbi)
#define USHMEM_C11_fornbi(T, N)    USHMEM_C11_A_(T, N, _atomic_fetch_or_nbi)
#define USHMEM_C11_cfornbi(T, N)   USHMEM_C11_C_(T, N, _atomic_fetch_or_nbi)
#define USHMEM_C11_fxornbi(T, N)   USHMEM_C11_A_(T, N, _atomic_fetch_xor_nbi)
#define USHMEM_C11_cfxornbi(T, N)  USHMEM_C11_C_(T, N, _atomic_fetch_xor_nbi)

#define USHMEM_C11_wait(T, N)      USHMEM_C11_A_(T, N, _wait_until)
#define USHMEM_C11_waitall(T, N)   USHMEM_C11_A_(T, N, _wait_until_all)
#define USHMEM_C11_waitany(T, N)   USHMEM_C11_A_(T, N, _wait_until_any)
#define USHMEM_C11_waitsome(T, N)  USHMEM_C11_A_(T, N, _wait_until_some)
#define USHMEM_C11_waitallv(T, N)  USHMEM_C11_A_(T, N, _wait_until_all_vector)
#define USHMEM_C11_waitanyv(T, N)  USHMEM_C11_A_(T, N, _wait_until_any_vector)
#define USHMEM_C11_waitsomev(T, N) USHMEM_C11_A_(T, N, _wait_until_some_vector)
#define USHMEM_C11_test(T, N)      USHMEM_C11_A_(T, N, _test)
#define USHMEM_C11_testall(T, N)   USHMEM_C11_A_(T, N, _test_all)
#define USHMEM_C11_testany(T, N)   USHMEM_C11_A_(T, N, _test_any)
#define USHMEM_C11_testsome(T, N)  USHMEM_C11_A_(T, N, _test_some)
#define USHMEM_C11_testallv(T, N)  USHMEM_C11_A_(T, N, _test_all_vector)
#define USHMEM_C11_testanyv(T, N)  USHMEM_C11_A_(T, N, _test_any_vector)
#define USHMEM_C11_testsomev(T, N) USHMEM_C11_A_(T, N, _test_some_vector)

#define USHMEM_C11_bcast(T, N)     USHMEM_C11_A_(T, N, _broadcast)
#define USHMEM_C11_collect(T, N)   USHMEM_C11_A_(T, N, _collect)
#define USHMEM_C11_fcollect(T, N)  USHMEM_C11_A_(T, N, _fcollect)
#define USHMEM_C11_a2a(T, N)       USHMEM_C11_A_(T, N, _alltoall)
#define USHMEM_C11_a2as(T, N)      USHMEM_C11_A_(T, N, _alltoalls)
#define USHMEM_C11_rand(T, N)      USHMEM_C11_A_(T, N, _and_reduce)
#define USHMEM_C11_ror(T, N)       USHMEM_C11_A_(T, N, _or_reduce)
#define USHMEM_C11_rxor(T, N)      USHMEM_C11_A_(T, N, _xor_reduce)
#define USHMEM_C11_rmax(T, N)      USHMEM_C11_A_(T, N, _max_reduce)
#define USHMEM_C11_rmin(T, N)      USHMEM_C11_A_(T, N, _min_reduce)
#define USHMEM_C11_rsum(T, N)      USHMEM_C11_A_(T, N, _sum_reduce)
#define USHMEM_C11_rprod(T, N)     USHMEM_C11_A_(T, N, _prod_reduce)
#define USHMEM_C11_inscan(T, N)    USHMEM_C11_A_(T, N, _sum_inscan)
#define USHMEM_C11_exscan(T, N)    USHMEM_C11_A_(T, N, _sum_exscan)

/* RMA: [ctx,] then as the typed routine. */
#define shmem_put(...)     USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_put, USHMEM_C11_cput, __VA_ARGS__)
#define shmem_get(...)     USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_get, USHMEM_C11_cget, __VA_ARGS__)
#define shmem_p(...)       USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_p, USHMEM_C11_cp, __VA_ARGS__)
#define shmem_g(...)       USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_g, USHMEM_C11_cg, __VA_ARGS__)
#define shmem_iput(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_iput, USHMEM_C11_ciput, __VA_ARGS__)
#define shmem_iget(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_iget, USHMEM_C11_ciget, __VA_ARGS__)
#define shmem_ibput(...)   USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_ibput, USHMEM_C11_cibput, __VA_ARGS__)
#define shmem_ibget(...)   USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_ibget, USHMEM_C11_cibget, __VA_ARGS__)
#define shmem_put_nbi(...) USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_putnbi, USHMEM_C11_cputnbi, __VA_ARGS__)
#define shmem_get_nbi(...) USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_getnbi, USHMEM_C11_cgetnbi, __VA_ARGS__)

/* Signaling: [ctx,] dest, source, nelems, sig_addr, signal, sig_op, pe.
 * signal_add and signal_set have no type to choose; the generic form only
 * adds the ctx overload (as shmem_sync adds the team one). */
#define shmem_put_signal(...)     USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_putsig, USHMEM_C11_cputsig, __VA_ARGS__)
#define shmem_put_signal_nbi(...) USHMEM_C11_CTX_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_putsignbi, USHMEM_C11_cputsignbi, __VA_ARGS__)
#define shmem_signal_add(...)                                                           \
    _Generic(USHMEM_C11_ARG0(__VA_ARGS__),                                              \
        shmem_ctx_t: shmem_ctx_signal_add,                                              \
        default: shmem_signal_add)(__VA_ARGS__)
#define shmem_signal_set(...)                                                           \
    _Generic(USHMEM_C11_ARG0(__VA_ARGS__),                                              \
        shmem_ctx_t: shmem_ctx_signal_set,                                              \
        default: shmem_signal_set)(__VA_ARGS__)

/* AMO, blocking. */
#define shmem_atomic_fetch(...)        USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_EXT_TYPES, USHMEM_C11_fetch, USHMEM_C11_cfetch, __VA_ARGS__)
#define shmem_atomic_set(...)          USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_EXT_TYPES, USHMEM_C11_set, USHMEM_C11_cset, __VA_ARGS__)
#define shmem_atomic_swap(...)         USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_EXT_TYPES, USHMEM_C11_swap, USHMEM_C11_cswap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_cas, USHMEM_C11_ccas, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_finc, USHMEM_C11_cfinc, __VA_ARGS__)
#define shmem_atomic_inc(...)          USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_inc, USHMEM_C11_cinc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_fadd, USHMEM_C11_cfadd, __VA_ARGS__)
#define shmem_atomic_add(...)          USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_add, USHMEM_C11_cadd, __VA_ARGS__)
#define shmem_atomic_fetch_and(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_fand, USHMEM_C11_cfand, __VA_ARGS__)
#define shmem_atomic_fetch_or(...)     USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_for, USHMEM_C11_cfor, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_fxor, USHMEM_C11_cfxor, __VA_ARGS__)
#define shmem_atomic_and(...)          USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_band, USHMEM_C11_cband, __VA_ARGS__)
#define shmem_atomic_or(...)           USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_bor, USHMEM_C11_cbor, __VA_ARGS__)
#define shmem_atomic_xor(...)          USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_bxor, USHMEM_C11_cbxor, __VA_ARGS__)

/* AMO, non-blocking fetching: [ctx,] fetch, dest, ... */
#define shmem_atomic_fetch_nbi(...)        USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_EXT_TYPES, USHMEM_C11_fetchnbi, USHMEM_C11_cfetchnbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...)         USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_EXT_TYPES, USHMEM_C11_swapnbi, USHMEM_C11_cswapnbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_casnbi, USHMEM_C11_ccasnbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_fincnbi, USHMEM_C11_cfincnbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_AMO_TYPES, USHMEM_C11_faddnbi, USHMEM_C11_cfaddnbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_fandnbi, USHMEM_C11_cfandnbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...)     USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_fornbi, USHMEM_C11_cfornbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...)    USHMEM_C11_CTX_GENERIC(USHMEM_C11_BIT_TYPES, USHMEM_C11_fxornbi, USHMEM_C11_cfxornbi, __VA_ARGS__)

/* AMO, deprecated (the OpenSHMEM 1.3 generic names, default context only),
 * so programs of that era still build. */
#define USHMEM_C11_dswap(T, N)  USHMEM_C11_A_(T, N, _swap)
#define USHMEM_C11_dcswap(T, N) USHMEM_C11_A_(T, N, _cswap)
#define USHMEM_C11_dfadd(T, N)  USHMEM_C11_A_(T, N, _fadd)
#define USHMEM_C11_dfinc(T, N)  USHMEM_C11_A_(T, N, _finc)
#define USHMEM_C11_dadd(T, N)   USHMEM_C11_A_(T, N, _add)
#define USHMEM_C11_dinc(T, N)   USHMEM_C11_A_(T, N, _inc)
#define USHMEM_C11_dfetch(T, N) USHMEM_C11_AK_(T, N, _fetch)
#define USHMEM_C11_dset(T, N)   USHMEM_C11_A_(T, N, _set)
#define shmem_swap(...)  USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_EXT_TYPES, USHMEM_C11_dswap, __VA_ARGS__)
#define shmem_cswap(...) USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_TYPES, USHMEM_C11_dcswap, __VA_ARGS__)
#define shmem_fadd(...)  USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_TYPES, USHMEM_C11_dfadd, __VA_ARGS__)
#define shmem_finc(...)  USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_TYPES, USHMEM_C11_dfinc, __VA_ARGS__)
#define shmem_add(...)   USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_TYPES, USHMEM_C11_dadd, __VA_ARGS__)
#define shmem_inc(...)   USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_TYPES, USHMEM_C11_dinc, __VA_ARGS__)
#define shmem_fetch(...) USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_EXT_TYPES, USHMEM_C11_dfetch, __VA_ARGS__)
#define shmem_set(...)   USHMEM_C11_GENERIC(USHMEM_C11_AMO_DEPR_EXT_TYPES, USHMEM_C11_dset, __VA_ARGS__)

/* Point-to-point synchronisation (no ctx forms). shmem_wait_until also
 * names the deprecated long-only function declared above; the function is
 * still reachable as (shmem_wait_until)(...). */
#define shmem_wait_until(...)             USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_wait, __VA_ARGS__)
#define shmem_wait_until_all(...)         USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitall, __VA_ARGS__)
#define shmem_wait_until_any(...)         USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitany, __VA_ARGS__)
#define shmem_wait_until_some(...)        USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitsome, __VA_ARGS__)
#define shmem_wait_until_all_vector(...)  USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitallv, __VA_ARGS__)
#define shmem_wait_until_any_vector(...)  USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitanyv, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_waitsomev, __VA_ARGS__)
#define shmem_test(...)                   USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_test, __VA_ARGS__)
#define shmem_test_all(...)               USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testall, __VA_ARGS__)
#define shmem_test_any(...)               USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testany, __VA_ARGS__)
#define shmem_test_some(...)              USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testsome, __VA_ARGS__)
#define shmem_test_all_vector(...)        USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testallv, __VA_ARGS__)
#define shmem_test_any_vector(...)        USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testanyv, __VA_ARGS__)
#define shmem_test_some_vector(...)       USHMEM_C11_GENERIC(USHMEM_C11_P2P_TYPES, USHMEM_C11_testsomev, __VA_ARGS__)

/* Team-based collectives: team, dest, source, ...; the type of dest picks
 * the routine. */
#define shmem_broadcast(...)   USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_bcast, __VA_ARGS__)
#define shmem_collect(...)     USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_collect, __VA_ARGS__)
#define shmem_fcollect(...)    USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_fcollect, __VA_ARGS__)
#define shmem_alltoall(...)    USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_a2a, __VA_ARGS__)
#define shmem_alltoalls(...)   USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RMA_TYPES, USHMEM_C11_a2as, __VA_ARGS__)
#define shmem_and_reduce(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RBIT_TYPES, USHMEM_C11_rand, __VA_ARGS__)
#define shmem_or_reduce(...)   USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RBIT_TYPES, USHMEM_C11_ror, __VA_ARGS__)
#define shmem_xor_reduce(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_RBIT_TYPES, USHMEM_C11_rxor, __VA_ARGS__)
#define shmem_max_reduce(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_MINMAX_TYPES, USHMEM_C11_rmax, __VA_ARGS__)
#define shmem_min_reduce(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_MINMAX_TYPES, USHMEM_C11_rmin, __VA_ARGS__)
#define shmem_sum_reduce(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_ARITH_TYPES, USHMEM_C11_rsum, __VA_ARGS__)
#define shmem_prod_reduce(...) USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_ARITH_TYPES, USHMEM_C11_rprod, __VA_ARGS__)
#define shmem_sum_inscan(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_ARITH_TYPES, USHMEM_C11_inscan, __VA_ARGS__)
#define shmem_sum_exscan(...)  USHMEM_C11_TEAM_GENERIC(USHMEM_C11_REDUCE_ARITH_TYPES, USHMEM_C11_exscan, __VA_ARGS__)

/* shmem_sync(team) is shmem_team_sync; shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) stays the deprecated active-set routine declared above
 * (a macro never re-expands its own name, so the default branch names the
 * function). */
#define shmem_sync(...)                                                                 \
    _Generic(USHMEM_C11_ARG0(__VA_ARGS__),                                              \
        shmem_team_t: shmem_team_sync,                                                  \
        default: shmem_sync)(__VA_ARGS__)

#endif /* C11 generics */

#endif /* USHMEM_SHMEM_H */
