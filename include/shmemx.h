/*
 * ushmem: extensions to the OpenSHMEM API (shmemx_* names).
 *
 * Sandia OpenSHMEM (SOS) shipped many routines as shmemx_* before
 * OpenSHMEM 1.4, 1.5 and 1.6 standardised them as shmem_*: block-strided
 * RMA, put-with-signal, signal_add/set, the non-blocking fetching atomics,
 * the bitwise atomics, the _all/_any/_some point-to-point routines, teams
 * and the team-based collectives, the prefix sums. Programs written for SOS
 * still call those names; this header declares them so such programs build
 * and link unchanged. docs/compatibility.md lists every name, the standard
 * routine behind it, and the SOS extensions that have no standard
 * counterpart and are not provided.
 *
 * Nothing here adds behaviour. A name whose SOS signature is the standard
 * one is exported by libushmem as an alias of the standard routine's code
 * (the same checks, the same error messages, which name the standard
 * routine); it is declared below with the standard routine's own type, so
 * the two cannot drift apart. The few whose SOS signature differs are thin
 * wrappers, declared with SOS's signature and described where they are
 * declared. The shmemx names are not profiling names: a tool that
 * interposes shmem_X or pshmem_X does not see calls made as shmemx_X.
 *
 * Names this header adds besides SOS's all start with USHMEM_.
 */
#ifndef USHMEM_SHMEMX_H
#define USHMEM_SHMEMX_H

#include "shmem.h"

/* ---- SOS's constants and types, as the standard ones ---------------------
 * SOS declared SHMEMX_TEAM_WORLD/SHARED as variables; here they are the
 * standard handles, which serve every use a program makes of them except
 * taking their address. */

#define SHMEMX_THREAD_SINGLE     SHMEM_THREAD_SINGLE
#define SHMEMX_THREAD_FUNNELED   SHMEM_THREAD_FUNNELED
#define SHMEMX_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define SHMEMX_THREAD_MULTIPLE   SHMEM_THREAD_MULTIPLE

#define SHMEMX_SIGNAL_SET SHMEM_SIGNAL_SET
#define SHMEMX_SIGNAL_ADD SHMEM_SIGNAL_ADD

#define SHMEMX_TEAM_WORLD        SHMEM_TEAM_WORLD
#define SHMEMX_TEAM_SHARED       SHMEM_TEAM_SHARED
#define SHMEMX_TEAM_INVALID      SHMEM_TEAM_INVALID
#define SHMEMX_CTX_INVALID       SHMEM_CTX_INVALID
#define SHMEMX_TEAM_NUM_CONTEXTS SHMEM_TEAM_NUM_CONTEXTS

#define SHMEMX_MALLOC_ATOMICS_REMOTE SHMEM_MALLOC_ATOMICS_REMOTE
#define SHMEMX_MALLOC_SIGNAL_REMOTE  SHMEM_MALLOC_SIGNAL_REMOTE

typedef shmem_team_t        shmemx_team_t;
typedef shmem_team_config_t shmemx_team_config_t;

/* ---- The aliases, as lists --------------------------------------------------
 * Each list applies USHMEM_X_ALIAS(S) to every suffix S such that shmemx_S
 * is shmem_S under SOS's name; USHMEM_X_ALIAS must be defined where a list
 * is expanded. This header expands them into declarations, the library
 * (api/ush_profiling.h) into aliases of pshmem_S, and test/headers into the
 * check that libushmem exports every one. Typed families expand from the
 * type table of ushmem/types.h, so each covers every type of its standard
 * routine (SOS's lists were the same or a subset). The lists follow the
 * sections of ushmem/api.h; a list that is defined in one source file of
 * the library is expanded there whole. */

/* Setup, query, whole-job synchronisation. */
#define USHMEM_X_LIST_SETUP                                                                    \
    USHMEM_X_ALIAS(query_initialized)                                                          \
    USHMEM_X_ALIAS(pcontrol)                                                                   \
    USHMEM_X_ALIAS(sync_all)

/* Symmetric allocation with hints (1.5). */
#define USHMEM_X_LIST_MEM USHMEM_X_ALIAS(malloc_with_hints)

/* Teams and their contexts (SOS's team preview, before 1.5). */
#define USHMEM_X_LIST_TEAM                                                                     \
    USHMEM_X_ALIAS(team_my_pe)                                                                 \
    USHMEM_X_ALIAS(team_n_pes)                                                                 \
    USHMEM_X_ALIAS(team_translate_pe)                                                          \
    USHMEM_X_ALIAS(team_split_strided)                                                         \
    USHMEM_X_ALIAS(team_split_2d)                                                              \
    USHMEM_X_ALIAS(team_sync)                                                                  \
    USHMEM_X_ALIAS(team_create_ctx)                                                            \
    USHMEM_X_ALIAS(ctx_get_team)

/* Block-strided RMA (1.6): typed and sized, plain and ctx. */
#define USHMEM_X_RMA_T_(T, N)                                                                  \
    USHMEM_X_ALIAS(N##_ibput) USHMEM_X_ALIAS(ctx_##N##_ibput)                                  \
    USHMEM_X_ALIAS(N##_ibget) USHMEM_X_ALIAS(ctx_##N##_ibget)
#define USHMEM_X_RMA_B_(B)                                                                     \
    USHMEM_X_ALIAS(ibput##B) USHMEM_X_ALIAS(ctx_ibput##B)                                      \
    USHMEM_X_ALIAS(ibget##B) USHMEM_X_ALIAS(ctx_ibget##B)
#define USHMEM_X_LIST_RMA USHMEM_RMA_TYPES(USHMEM_X_RMA_T_) USHMEM_RMA_SIZES(USHMEM_X_RMA_B_)

/* Put-with-signal (1.5) in its typed, sized and mem forms, blocking and
 * _nbi, plain and ctx; signal_fetch (1.5); signal_add/set (1.6). */
#define USHMEM_X_SIGNAL_T_(T, N)                                                               \
    USHMEM_X_ALIAS(N##_put_signal) USHMEM_X_ALIAS(ctx_##N##_put_signal)                        \
    USHMEM_X_ALIAS(N##_put_signal_nbi) USHMEM_X_ALIAS(ctx_##N##_put_signal_nbi)
#define USHMEM_X_SIGNAL_B_(B)                                                                  \
    USHMEM_X_ALIAS(put##B##_signal) USHMEM_X_ALIAS(ctx_put##B##_signal)                        \
    USHMEM_X_ALIAS(put##B##_signal_nbi) USHMEM_X_ALIAS(ctx_put##B##_signal_nbi)
#define USHMEM_X_LIST_SIGNAL                                                                   \
    USHMEM_RMA_TYPES(USHMEM_X_SIGNAL_T_)                                                       \
    USHMEM_RMA_SIZES(USHMEM_X_SIGNAL_B_)                                                       \
    USHMEM_X_SIGNAL_B_(mem)                                                                    \
    USHMEM_X_ALIAS(signal_add) USHMEM_X_ALIAS(ctx_signal_add)                                  \
    USHMEM_X_ALIAS(signal_set) USHMEM_X_ALIAS(ctx_signal_set)                                  \
    USHMEM_X_ALIAS(signal_fetch)

/* Atomics: the non-blocking fetching forms (1.5), plain and ctx, and the
 * bitwise atomics (1.4), which SOS had with the default context only. OP
 * carries its leading underscore, as in ushmem/api.h. */
#define USHMEM_X_AMO_NBI_(N, OP)                                                               \
    USHMEM_X_ALIAS(N##_atomic##OP##_nbi) USHMEM_X_ALIAS(ctx_##N##_atomic##OP##_nbi)
#define USHMEM_X_AMO_EXT_(T, N) USHMEM_X_AMO_NBI_(N, _fetch) USHMEM_X_AMO_NBI_(N, _swap)
#define USHMEM_X_AMO_STD_(T, N)                                                                \
    USHMEM_X_AMO_NBI_(N, _compare_swap) USHMEM_X_AMO_NBI_(N, _fetch_inc)                       \
    USHMEM_X_AMO_NBI_(N, _fetch_add)
#define USHMEM_X_AMO_BIT_OP_(N, OP)                                                            \
    USHMEM_X_ALIAS(N##_atomic##OP) USHMEM_X_ALIAS(N##_atomic_fetch##OP)                        \
    USHMEM_X_AMO_NBI_(N, _fetch##OP)
#define USHMEM_X_AMO_BIT_(T, N)                                                                \
    USHMEM_X_AMO_BIT_OP_(N, _and) USHMEM_X_AMO_BIT_OP_(N, _or) USHMEM_X_AMO_BIT_OP_(N, _xor)
#define USHMEM_X_LIST_AMO                                                                      \
    USHMEM_AMO_EXT_TYPES(USHMEM_X_AMO_EXT_)                                                    \
    USHMEM_AMO_TYPES(USHMEM_X_AMO_STD_)                                                        \
    USHMEM_AMO_BIT_TYPES(USHMEM_X_AMO_BIT_)

/* Point-to-point synchronisation on sets of variables (1.5). */
#define USHMEM_X_P2P_FORMS_(N, OP)                                                             \
    USHMEM_X_ALIAS(N##OP##_all) USHMEM_X_ALIAS(N##OP##_any) USHMEM_X_ALIAS(N##OP##_some)        \
    USHMEM_X_ALIAS(N##OP##_all_vector) USHMEM_X_ALIAS(N##OP##_any_vector)                      \
    USHMEM_X_ALIAS(N##OP##_some_vector)
#define USHMEM_X_P2P_(T, N) USHMEM_X_P2P_FORMS_(N, _wait_until) USHMEM_X_P2P_FORMS_(N, _test)
#define USHMEM_X_LIST_P2P USHMEM_P2P_TYPES(USHMEM_X_P2P_)

/* Team-based collectives (1.5) and the prefix sums (1.6). */
#define USHMEM_X_COLL_(T, N)                                                                   \
    USHMEM_X_ALIAS(N##_broadcast) USHMEM_X_ALIAS(N##_collect) USHMEM_X_ALIAS(N##_fcollect)     \
    USHMEM_X_ALIAS(N##_alltoall) USHMEM_X_ALIAS(N##_alltoalls)
#define USHMEM_X_REDUCE_BIT_(T, N)                                                             \
    USHMEM_X_ALIAS(N##_and_reduce) USHMEM_X_ALIAS(N##_or_reduce) USHMEM_X_ALIAS(N##_xor_reduce)
#define USHMEM_X_REDUCE_MINMAX_(T, N) USHMEM_X_ALIAS(N##_max_reduce) USHMEM_X_ALIAS(N##_min_reduce)
#define USHMEM_X_REDUCE_ARITH_(T, N)                                                           \
    USHMEM_X_ALIAS(N##_sum_reduce) USHMEM_X_ALIAS(N##_prod_reduce)                             \
    USHMEM_X_ALIAS(N##_sum_inscan) USHMEM_X_ALIAS(N##_sum_exscan)
#define USHMEM_X_LIST_COLL                                                                     \
    USHMEM_RMA_TYPES(USHMEM_X_COLL_)                                                           \
    USHMEM_X_ALIAS(broadcastmem) USHMEM_X_ALIAS(collectmem) USHMEM_X_ALIAS(fcollectmem)        \
    USHMEM_X_ALIAS(alltoallmem) USHMEM_X_ALIAS(alltoallsmem)                                   \
    USHMEM_REDUCE_BIT_TYPES(USHMEM_X_REDUCE_BIT_)                                              \
    USHMEM_REDUCE_MINMAX_TYPES(USHMEM_X_REDUCE_MINMAX_)                                        \
    USHMEM_REDUCE_ARITH_TYPES(USHMEM_X_REDUCE_ARITH_)

#define USHMEM_X_LIST_ALL                                                                      \
    USHMEM_X_LIST_SETUP USHMEM_X_LIST_MEM USHMEM_X_LIST_TEAM USHMEM_X_LIST_RMA                \
    USHMEM_X_LIST_SIGNAL USHMEM_X_LIST_AMO USHMEM_X_LIST_P2P USHMEM_X_LIST_COLL

#ifdef __cplusplus
extern "C" {
#endif

/* shmemx_S has shmem_S's type. __typeof__ is a GNU spelling every compiler
 * that builds ushmem programs accepts (gcc, clang, icx, nvc), in C and C++. */
#define USHMEM_X_ALIAS(S) extern __typeof__(shmem_##S) shmemx_##S;
USHMEM_X_LIST_ALL
#undef USHMEM_X_ALIAS

/* ---- Wrappers: SOS's signature differs from the standard one ------------- */

/* SOS's form returns nothing; ushmem's shmem_init_thread returns 0 or stops
 * the job with a message, so nothing is lost. */
void shmemx_init_thread(int requested, int *provided);

/* SOS's team preview: get_config had no mask and copied the whole
 * configuration (num_contexts, its only member); team_destroy returned 0. */
void shmemx_team_get_config(shmemx_team_t team, shmemx_team_config_t *config);
int  shmemx_team_destroy(shmemx_team_t team);

/* SOS's team-based and/or/xor reductions also took the signed types of the
 * active-set ones (short, int, long, long long), which 1.5 dropped from the
 * team-based table. A bitwise result does not depend on signedness, so each
 * is the reduction of its unsigned counterpart over the same bits. */
#define USHMEM_X_PROTO_SIGNED_BIT_(T, N)                                                       \
    int shmemx_##N##_and_reduce(shmemx_team_t team, T *dest, const T *source, size_t nreduce); \
    int shmemx_##N##_or_reduce(shmemx_team_t team, T *dest, const T *source, size_t nreduce);  \
    int shmemx_##N##_xor_reduce(shmemx_team_t team, T *dest, const T *source, size_t nreduce);
USHMEM_TO_ALL_BIT_TYPES(USHMEM_X_PROTO_SIGNED_BIT_)
#undef USHMEM_X_PROTO_SIGNED_BIT_

#ifdef __cplusplus
}
#endif

/* ---- C11 type-generic names ------------------------------------------------
 * The generic shmemx_ macros of SOS's header, as the standard generics
 * under SOS's name (C11 and later, not C++, as in <shmem.h>). The call
 * reaches the standard typed routine directly. shmemx_signal_add and
 * shmemx_signal_set are both a generic macro and a function, as in SOS;
 * (shmemx_signal_set)(...) names the function. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define shmemx_ibput(...)                   shmem_ibput(__VA_ARGS__)
#define shmemx_ibget(...)                   shmem_ibget(__VA_ARGS__)
#define shmemx_put_signal(...)              shmem_put_signal(__VA_ARGS__)
#define shmemx_put_signal_nbi(...)          shmem_put_signal_nbi(__VA_ARGS__)
#define shmemx_signal_add(...)              shmem_signal_add(__VA_ARGS__)
#define shmemx_signal_set(...)              shmem_signal_set(__VA_ARGS__)
#define shmemx_atomic_fetch_nbi(...)        shmem_atomic_fetch_nbi(__VA_ARGS__)
#define shmemx_atomic_swap_nbi(...)         shmem_atomic_swap_nbi(__VA_ARGS__)
#define shmemx_atomic_compare_swap_nbi(...) shmem_atomic_compare_swap_nbi(__VA_ARGS__)
#define shmemx_atomic_fetch_inc_nbi(...)    shmem_atomic_fetch_inc_nbi(__VA_ARGS__)
#define shmemx_atomic_fetch_add_nbi(...)    shmem_atomic_fetch_add_nbi(__VA_ARGS__)
#define shmemx_atomic_fetch_and_nbi(...)    shmem_atomic_fetch_and_nbi(__VA_ARGS__)
#define shmemx_atomic_fetch_or_nbi(...)     shmem_atomic_fetch_or_nbi(__VA_ARGS__)
#define shmemx_atomic_fetch_xor_nbi(...)    shmem_atomic_fetch_xor_nbi(__VA_ARGS__)
#define shmemx_wait_until_all(...)          shmem_wait_until_all(__VA_ARGS__)
#define shmemx_wait_until_any(...)          shmem_wait_until_any(__VA_ARGS__)
#define shmemx_wait_until_some(...)         shmem_wait_until_some(__VA_ARGS__)
#define shmemx_test_all(...)                shmem_test_all(__VA_ARGS__)
#define shmemx_test_any(...)                shmem_test_any(__VA_ARGS__)
#define shmemx_test_some(...)               shmem_test_some(__VA_ARGS__)
#define shmemx_wait_until_all_vector(...)   shmem_wait_until_all_vector(__VA_ARGS__)
#define shmemx_wait_until_any_vector(...)   shmem_wait_until_any_vector(__VA_ARGS__)
#define shmemx_wait_until_some_vector(...)  shmem_wait_until_some_vector(__VA_ARGS__)
#define shmemx_test_all_vector(...)         shmem_test_all_vector(__VA_ARGS__)
#define shmemx_test_any_vector(...)         shmem_test_any_vector(__VA_ARGS__)
#define shmemx_test_some_vector(...)        shmem_test_some_vector(__VA_ARGS__)
#define shmemx_max_reduce(...)              shmem_max_reduce(__VA_ARGS__)
#define shmemx_min_reduce(...)              shmem_min_reduce(__VA_ARGS__)
#define shmemx_sum_reduce(...)              shmem_sum_reduce(__VA_ARGS__)
#define shmemx_prod_reduce(...)             shmem_prod_reduce(__VA_ARGS__)
#define shmemx_sum_inscan(...)              shmem_sum_inscan(__VA_ARGS__)
#define shmemx_sum_exscan(...)              shmem_sum_exscan(__VA_ARGS__)

/* SOS had shmemx_sync in both forms, the active-set one and later (team);
 * no one symbol can be both, but a generic can, as shmem_sync is. */
#define shmemx_sync(...)                    shmem_sync(__VA_ARGS__)

/* The bitwise team reductions also take SOS's signed types: short, int,
 * long and long long reach the signed wrappers above, signed char the
 * standard int8 routine (int8_t is signed char everywhere). The signed
 * fixed-width names are left out: each is one of these types. */
#define USHMEM_X_C11_RBIT_(T, N, OP) T *: shmemx_##N##OP,
#define USHMEM_X_C11_RBIT(LIST_OP, OP, ...)                                                   \
    _Generic(USHMEM_C11_ARG1(__VA_ARGS__),                                                    \
        USHMEM_C11_REDUCE_BIT_TYPES(LIST_OP)                                                  \
        signed char *: shmem_int8##OP,                                                        \
        USHMEM_X_C11_RBIT_(short, short, OP)                                                  \
        USHMEM_X_C11_RBIT_(int, int, OP)                                                      \
        USHMEM_X_C11_RBIT_(long, long, OP)                                                    \
        USHMEM_X_C11_RBIT_(long long, longlong, OP)                                           \
        default: ush_c11_no_routine_for_these_argument_types)(__VA_ARGS__)
#define shmemx_and_reduce(...) USHMEM_X_C11_RBIT(USHMEM_C11_rand, _and_reduce, __VA_ARGS__)
#define shmemx_or_reduce(...)  USHMEM_X_C11_RBIT(USHMEM_C11_ror, _or_reduce, __VA_ARGS__)
#define shmemx_xor_reduce(...) USHMEM_X_C11_RBIT(USHMEM_C11_rxor, _xor_reduce, __VA_ARGS__)
#endif

#endif /* USHMEM_SHMEMX_H */
