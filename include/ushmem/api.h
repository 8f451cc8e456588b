/*
 * The OpenSHMEM 1.6 C prototypes, written once for two name sets.
 *
 * <shmem.h> includes this file with USHMEM_FN(name) defined as `name`, and
 * <pshmem.h> with `p##name` (shmem_long_put -> pshmem_long_put, start_pes ->
 * pstart_pes), so a public routine and its profiling twin cannot drift
 * apart. Typed families expand from the type table in ushmem/types.h.
 *
 * There is deliberately no include guard: the file is read once per name
 * set. Everything it defines except the shared type list below is #undef'd
 * at the end, so nothing leaks into user code.
 */
#ifndef USHMEM_FN
#error "ushmem/api.h is internal: include <shmem.h> or <pshmem.h> instead"
#endif

#ifndef USHMEM_API_LISTS_H
#define USHMEM_API_LISTS_H
/* The deprecated (1.4) shmem_TYPENAME_wait exists for exactly these types;
 * the spec names them in the shmem_wait_until synopsis, not in a table, so
 * types.h has no list for them. Read by p2p_api.c as well. */
#define USHMEM_P2P_WAIT_DEPR_TYPES(X)                                         \
    X(short, short)                                                           \
    X(int, int)                                                               \
    X(long, long)                                                             \
    X(long long, longlong)
#endif

/* ---- Setup, exit and query ------------------------------------------- */

void USHMEM_FN(shmem_init)(void);
int  USHMEM_FN(shmem_init_thread)(int requested, int *provided);
void USHMEM_FN(shmem_query_thread)(int *provided);
void USHMEM_FN(shmem_query_initialized)(int *initialized);
void USHMEM_FN(shmem_finalize)(void);
USHMEM_NORETURN void USHMEM_FN(shmem_global_exit)(int status);
int   USHMEM_FN(shmem_my_pe)(void);
int   USHMEM_FN(shmem_n_pes)(void);
int   USHMEM_FN(shmem_pe_accessible)(int pe);
int   USHMEM_FN(shmem_addr_accessible)(const void *addr, int pe);
void *USHMEM_FN(shmem_ptr)(const void *dest, int pe);
void *USHMEM_FN(shmem_team_ptr)(shmem_team_t team, const void *dest, int pe);
void  USHMEM_FN(shmem_info_get_version)(int *major, int *minor);
void  USHMEM_FN(shmem_info_get_name)(char *name);
void  USHMEM_FN(shmem_pcontrol)(int level, ...);

/* Deprecated (1.2) names. */
void USHMEM_FN(start_pes)(int npes);
int  USHMEM_FN(_my_pe)(void);
int  USHMEM_FN(_num_pes)(void);
/* Cache management of the Cray T3E era: coherent here, so no-ops. */
void USHMEM_FN(shmem_clear_cache_inv)(void);
void USHMEM_FN(shmem_set_cache_inv)(void);
void USHMEM_FN(shmem_clear_cache_line_inv)(void *dest);
void USHMEM_FN(shmem_set_cache_line_inv)(void *dest);
void USHMEM_FN(shmem_udcflush)(void);
void USHMEM_FN(shmem_udcflush_line)(void *dest);

/* ---- Symmetric memory ------------------------------------------------ */

void *USHMEM_FN(shmem_malloc)(size_t size);
void *USHMEM_FN(shmem_calloc)(size_t count, size_t size);
void *USHMEM_FN(shmem_align)(size_t alignment, size_t size);
void *USHMEM_FN(shmem_realloc)(void *ptr, size_t size);
void  USHMEM_FN(shmem_free)(void *ptr);
void *USHMEM_FN(shmem_malloc_with_hints)(size_t size, long hints);

/* Deprecated (1.2) names. */
void *USHMEM_FN(shmalloc)(size_t size);
void  USHMEM_FN(shfree)(void *ptr);
void *USHMEM_FN(shrealloc)(void *ptr, size_t size);
void *USHMEM_FN(shmemalign)(size_t alignment, size_t size);

/* ---- Teams, contexts, sessions ----------------------------------------- */

int  USHMEM_FN(shmem_team_my_pe)(shmem_team_t team);
int  USHMEM_FN(shmem_team_n_pes)(shmem_team_t team);
int  USHMEM_FN(shmem_team_get_config)(shmem_team_t team, long config_mask,
                                      shmem_team_config_t *config);
int  USHMEM_FN(shmem_team_translate_pe)(shmem_team_t src_team, int src_pe,
                                        shmem_team_t dest_team);
int  USHMEM_FN(shmem_team_split_strided)(shmem_team_t parent_team, int start, int stride,
                                         int size, const shmem_team_config_t *config,
                                         long config_mask, shmem_team_t *new_team);
int  USHMEM_FN(shmem_team_split_2d)(shmem_team_t parent_team, int xrange,
                                    const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                    shmem_team_t *xaxis_team,
                                    const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                    shmem_team_t *yaxis_team);
void USHMEM_FN(shmem_team_destroy)(shmem_team_t team);
int  USHMEM_FN(shmem_team_sync)(shmem_team_t team);

int  USHMEM_FN(shmem_ctx_create)(long options, shmem_ctx_t *ctx);
int  USHMEM_FN(shmem_team_create_ctx)(shmem_team_t team, long options, shmem_ctx_t *ctx);
void USHMEM_FN(shmem_ctx_destroy)(shmem_ctx_t ctx);
int  USHMEM_FN(shmem_ctx_get_team)(shmem_ctx_t ctx, shmem_team_t *team);

void USHMEM_FN(shmem_ctx_session_start)(shmem_ctx_t ctx, long options,
                                        const shmem_ctx_session_config_t *config,
                                        long config_mask);
void USHMEM_FN(shmem_ctx_session_stop)(shmem_ctx_t ctx);

/* ---- Whole-job synchronisation, locks ---------------------------------- */

void USHMEM_FN(shmem_barrier_all)(void);
void USHMEM_FN(shmem_sync_all)(void);

void USHMEM_FN(shmem_set_lock)(long *lock);
void USHMEM_FN(shmem_clear_lock)(long *lock);
int  USHMEM_FN(shmem_test_lock)(long *lock);

/* ---- Memory ordering ---------------------------------------------------- */

void USHMEM_FN(shmem_fence)(void);
void USHMEM_FN(shmem_ctx_fence)(shmem_ctx_t ctx);
void USHMEM_FN(shmem_quiet)(void);
void USHMEM_FN(shmem_ctx_quiet)(shmem_ctx_t ctx);
void USHMEM_FN(shmem_pe_quiet)(const int *target_pes, size_t npes);
void USHMEM_FN(shmem_ctx_pe_quiet)(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* ---- RMA ---------------------------------------------------------------- */

/* Typed: the plain form acts on the default context, the ctx form on ctx. */
#define USHMEM_PROTO_RMA_(T, N)                                                            \
    void USHMEM_FN(shmem_##N##_put)(T *dest, const T *source, size_t nelems, int pe);       \
    void USHMEM_FN(shmem_ctx_##N##_put)(shmem_ctx_t ctx, T *dest, const T *source,          \
                                        size_t nelems, int pe);                             \
    void USHMEM_FN(shmem_##N##_get)(T *dest, const T *source, size_t nelems, int pe);       \
    void USHMEM_FN(shmem_ctx_##N##_get)(shmem_ctx_t ctx, T *dest, const T *source,          \
                                        size_t nelems, int pe);                             \
    void USHMEM_FN(shmem_##N##_p)(T *dest, T value, int pe);                                \
    void USHMEM_FN(shmem_ctx_##N##_p)(shmem_ctx_t ctx, T *dest, T value, int pe);           \
    T    USHMEM_FN(shmem_##N##_g)(const T *source, int pe);                                 \
    T    USHMEM_FN(shmem_ctx_##N##_g)(shmem_ctx_t ctx, const T *source, int pe);            \
    void USHMEM_FN(shmem_##N##_iput)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,\
                                     size_t nelems, int pe);                                \
    void USHMEM_FN(shmem_ctx_##N##_iput)(shmem_ctx_t ctx, T *dest, const T *source,         \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void USHMEM_FN(shmem_##N##_iget)(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,\
                                     size_t nelems, int pe);                                \
    void USHMEM_FN(shmem_ctx_##N##_iget)(shmem_ctx_t ctx, T *dest, const T *source,         \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void USHMEM_FN(shmem_##N##_ibput)(T *dest, const T *source, ptrdiff_t dst,              \
                                      ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    void USHMEM_FN(shmem_ctx_##N##_ibput)(shmem_ctx_t ctx, T *dest, const T *source,        \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                                          size_t nblocks, int pe);                          \
    void USHMEM_FN(shmem_##N##_ibget)(T *dest, const T *source, ptrdiff_t dst,              \
                                      ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    void USHMEM_FN(shmem_ctx_##N##_ibget)(shmem_ctx_t ctx, T *dest, const T *source,        \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                                          size_t nblocks, int pe);                          \
    void USHMEM_FN(shmem_##N##_put_nbi)(T *dest, const T *source, size_t nelems, int pe);   \
    void USHMEM_FN(shmem_ctx_##N##_put_nbi)(shmem_ctx_t ctx, T *dest, const T *source,      \
                                            size_t nelems, int pe);                         \
    void USHMEM_FN(shmem_##N##_get_nbi)(T *dest, const T *source, size_t nelems, int pe);   \
    void USHMEM_FN(shmem_ctx_##N##_get_nbi)(shmem_ctx_t ctx, T *dest, const T *source,      \
                                            size_t nelems, int pe);
USHMEM_RMA_TYPES(USHMEM_PROTO_RMA_)

/* Sized: nelems elements of BITS bits each. */
#define USHMEM_PROTO_RMA_SIZED_(B)                                                         \
    void USHMEM_FN(shmem_put##B)(void *dest, const void *source, size_t nelems, int pe);    \
    void USHMEM_FN(shmem_ctx_put##B)(shmem_ctx_t ctx, void *dest, const void *source,       \
                                     size_t nelems, int pe);                                \
    void USHMEM_FN(shmem_get##B)(void *dest, const void *source, size_t nelems, int pe);    \
    void USHMEM_FN(shmem_ctx_get##B)(shmem_ctx_t ctx, void *dest, const void *source,       \
                                     size_t nelems, int pe);                                \
    void USHMEM_FN(shmem_iput##B)(void *dest, const void *source, ptrdiff_t dst,            \
                                  ptrdiff_t sst, size_t nelems, int pe);                    \
    void USHMEM_FN(shmem_ctx_iput##B)(shmem_ctx_t ctx, void *dest, const void *source,      \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void USHMEM_FN(shmem_iget##B)(void *dest, const void *source, ptrdiff_t dst,            \
                                  ptrdiff_t sst, size_t nelems, int pe);                    \
    void USHMEM_FN(shmem_ctx_iget##B)(shmem_ctx_t ctx, void *dest, const void *source,      \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void USHMEM_FN(shmem_ibput##B)(void *dest, const void *source, ptrdiff_t dst,           \
                                   ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);    \
    void USHMEM_FN(shmem_ctx_ibput##B)(shmem_ctx_t ctx, void *dest, const void *source,     \
                                       ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                                       size_t nblocks, int pe);                             \
    void USHMEM_FN(shmem_ibget##B)(void *dest, const void *source, ptrdiff_t dst,           \
                                   ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);    \
    void USHMEM_FN(shmem_ctx_ibget##B)(shmem_ctx_t ctx, void *dest, const void *source,     \
                                       ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                                       size_t nblocks, int pe);                             \
    void USHMEM_FN(shmem_put##B##_nbi)(void *dest, const void *source, size_t nelems,       \
                                       int pe);                                             \
    void USHMEM_FN(shmem_ctx_put##B##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, \
                                           size_t nelems, int pe);                          \
    void USHMEM_FN(shmem_get##B##_nbi)(void *dest, const void *source, size_t nelems,       \
                                       int pe);                                             \
    void USHMEM_FN(shmem_ctx_get##B##_nbi)(shmem_ctx_t ctx, void *dest, const void *source, \
                                           size_t nelems, int pe);
USHMEM_RMA_SIZES(USHMEM_PROTO_RMA_SIZED_)

/* Untyped: nelems bytes. */
void USHMEM_FN(shmem_putmem)(void *dest, const void *source, size_t nelems, int pe);
void USHMEM_FN(shmem_ctx_putmem)(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, int pe);
void USHMEM_FN(shmem_getmem)(void *dest, const void *source, size_t nelems, int pe);
void USHMEM_FN(shmem_ctx_getmem)(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, int pe);
void USHMEM_FN(shmem_putmem_nbi)(void *dest, const void *source, size_t nelems, int pe);
void USHMEM_FN(shmem_ctx_putmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source,
                                     size_t nelems, int pe);
void USHMEM_FN(shmem_getmem_nbi)(void *dest, const void *source, size_t nelems, int pe);
void USHMEM_FN(shmem_ctx_getmem_nbi)(shmem_ctx_t ctx, void *dest, const void *source,
                                     size_t nelems, int pe);

/* ---- Signaling (1.5; signal_add/set 1.6) --------------------------------
 * A put-with-signal copies nelems elements to dest on pe, then updates the
 * uint64_t at sig_addr on pe atomically (sig_op SHMEM_SIGNAL_SET or
 * SHMEM_SIGNAL_ADD with signal): whoever sees the signal sees the data. */
#define USHMEM_PROTO_SIGNAL_(T, N)                                                         \
    void USHMEM_FN(shmem_##N##_put_signal)(T *dest, const T *source, size_t nelems,         \
                                           uint64_t *sig_addr, uint64_t signal,             \
                                           int sig_op, int pe);                             \
    void USHMEM_FN(shmem_ctx_##N##_put_signal)(shmem_ctx_t ctx, T *dest, const T *source,   \
                                               size_t nelems, uint64_t *sig_addr,           \
                                               uint64_t signal, int sig_op, int pe);        \
    void USHMEM_FN(shmem_##N##_put_signal_nbi)(T *dest, const T *source, size_t nelems,     \
                                               uint64_t *sig_addr, uint64_t signal,         \
                                               int sig_op, int pe);                         \
    void USHMEM_FN(shmem_ctx_##N##_put_signal_nbi)(shmem_ctx_t ctx, T *dest,                \
                                                   const T *source, size_t nelems,          \
                                                   uint64_t *sig_addr, uint64_t signal,     \
                                                   int sig_op, int pe);
USHMEM_RMA_TYPES(USHMEM_PROTO_SIGNAL_)

/* Sized: nelems elements of BITS bits each. */
#define USHMEM_PROTO_SIGNAL_SIZED_(B)                                                      \
    void USHMEM_FN(shmem_put##B##_signal)(void *dest, const void *source, size_t nelems,    \
                                          uint64_t *sig_addr, uint64_t signal, int sig_op,  \
                                          int pe);                                          \
    void USHMEM_FN(shmem_ctx_put##B##_signal)(shmem_ctx_t ctx, void *dest,                  \
                                              const void *source, size_t nelems,            \
                                              uint64_t *sig_addr, uint64_t signal,          \
                                              int sig_op, int pe);                          \
    void USHMEM_FN(shmem_put##B##_signal_nbi)(void *dest, const void *source,               \
                                              size_t nelems, uint64_t *sig_addr,            \
                                              uint64_t signal, int sig_op, int pe);         \
    void USHMEM_FN(shmem_ctx_put##B##_signal_nbi)(shmem_ctx_t ctx, void *dest,              \
                                                  const void *source, size_t nelems,        \
                                                  uint64_t *sig_addr, uint64_t signal,      \
                                                  int sig_op, int pe);
USHMEM_RMA_SIZES(USHMEM_PROTO_SIGNAL_SIZED_)

/* Untyped: nelems bytes. */
void USHMEM_FN(shmem_putmem_signal)(void *dest, const void *source, size_t nelems,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void USHMEM_FN(shmem_ctx_putmem_signal)(shmem_ctx_t ctx, void *dest, const void *source,
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal,
                                        int sig_op, int pe);
void USHMEM_FN(shmem_putmem_signal_nbi)(void *dest, const void *source, size_t nelems,
                                        uint64_t *sig_addr, uint64_t signal, int sig_op,
                                        int pe);
void USHMEM_FN(shmem_ctx_putmem_signal_nbi)(shmem_ctx_t ctx, void *dest, const void *source,
                                            size_t nelems, uint64_t *sig_addr,
                                            uint64_t signal, int sig_op, int pe);

/* The local signal: its value now, or once it satisfies cmp (the value
 * that did). */
uint64_t USHMEM_FN(shmem_signal_fetch)(const uint64_t *sig_addr);
uint64_t USHMEM_FN(shmem_signal_wait_until)(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* A remote signal on its own (1.6): atomic add or set, ordered like a put. */
void USHMEM_FN(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe);
void USHMEM_FN(shmem_ctx_signal_add)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                     int pe);
void USHMEM_FN(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe);
void USHMEM_FN(shmem_ctx_signal_set)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                     int pe);

/* ---- Atomic memory operations ------------------------------------------ */

/* Standard AMO types: inc, fetch_inc, add, fetch_add, compare_swap. */
#define USHMEM_PROTO_AMO_STD_(T, N)                                                        \
    T    USHMEM_FN(shmem_##N##_atomic_fetch_inc)(T *dest, int pe);                          \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_fetch_inc)(shmem_ctx_t ctx, T *dest, int pe);     \
    void USHMEM_FN(shmem_##N##_atomic_inc)(T *dest, int pe);                                \
    void USHMEM_FN(shmem_ctx_##N##_atomic_inc)(shmem_ctx_t ctx, T *dest, int pe);           \
    T    USHMEM_FN(shmem_##N##_atomic_fetch_add)(T *dest, T value, int pe);                 \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_fetch_add)(shmem_ctx_t ctx, T *dest, T value,     \
                                                     int pe);                               \
    void USHMEM_FN(shmem_##N##_atomic_add)(T *dest, T value, int pe);                       \
    void USHMEM_FN(shmem_ctx_##N##_atomic_add)(shmem_ctx_t ctx, T *dest, T value, int pe);  \
    T    USHMEM_FN(shmem_##N##_atomic_compare_swap)(T *dest, T cond, T value, int pe);      \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_compare_swap)(shmem_ctx_t ctx, T *dest, T cond,   \
                                                        T value, int pe);                   \
    void USHMEM_FN(shmem_##N##_atomic_fetch_inc_nbi)(T *fetch, T *dest, int pe);            \
    void USHMEM_FN(shmem_ctx_##N##_atomic_fetch_inc_nbi)(shmem_ctx_t ctx, T *fetch,         \
                                                         T *dest, int pe);                  \
    void USHMEM_FN(shmem_##N##_atomic_fetch_add_nbi)(T *fetch, T *dest, T value, int pe);   \
    void USHMEM_FN(shmem_ctx_##N##_atomic_fetch_add_nbi)(shmem_ctx_t ctx, T *fetch,         \
                                                         T *dest, T value, int pe);         \
    void USHMEM_FN(shmem_##N##_atomic_compare_swap_nbi)(T *fetch, T *dest, T cond, T value, \
                                                        int pe);                            \
    void USHMEM_FN(shmem_ctx_##N##_atomic_compare_swap_nbi)(shmem_ctx_t ctx, T *fetch,      \
                                                            T *dest, T cond, T value,       \
                                                            int pe);
USHMEM_AMO_TYPES(USHMEM_PROTO_AMO_STD_)

/* Extended AMO types: fetch, set, swap. */
#define USHMEM_PROTO_AMO_EXT_(T, N)                                                        \
    T    USHMEM_FN(shmem_##N##_atomic_fetch)(const T *source, int pe);                      \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_fetch)(shmem_ctx_t ctx, const T *source, int pe); \
    void USHMEM_FN(shmem_##N##_atomic_set)(T *dest, T value, int pe);                       \
    void USHMEM_FN(shmem_ctx_##N##_atomic_set)(shmem_ctx_t ctx, T *dest, T value, int pe);  \
    T    USHMEM_FN(shmem_##N##_atomic_swap)(T *dest, T value, int pe);                      \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_swap)(shmem_ctx_t ctx, T *dest, T value, int pe); \
    void USHMEM_FN(shmem_##N##_atomic_fetch_nbi)(T *fetch, const T *source, int pe);        \
    void USHMEM_FN(shmem_ctx_##N##_atomic_fetch_nbi)(shmem_ctx_t ctx, T *fetch,             \
                                                     const T *source, int pe);              \
    void USHMEM_FN(shmem_##N##_atomic_swap_nbi)(T *fetch, T *dest, T value, int pe);        \
    void USHMEM_FN(shmem_ctx_##N##_atomic_swap_nbi)(shmem_ctx_t ctx, T *fetch, T *dest,     \
                                                    T value, int pe);
USHMEM_AMO_EXT_TYPES(USHMEM_PROTO_AMO_EXT_)

/* Bitwise AMO types: and, or, xor, plain, fetching and non-blocking fetching.
 * OP carries its leading underscore (_and) because and/or/xor are operator
 * tokens in C++ (and macros with <iso646.h>), so they cannot travel alone. */
#define USHMEM_PROTO_AMO_BIT_OP_(T, N, OP)                                                 \
    T    USHMEM_FN(shmem_##N##_atomic_fetch##OP)(T *dest, T value, int pe);                 \
    T    USHMEM_FN(shmem_ctx_##N##_atomic_fetch##OP)(shmem_ctx_t ctx, T *dest, T value,     \
                                                     int pe);                               \
    void USHMEM_FN(shmem_##N##_atomic##OP)(T *dest, T value, int pe);                       \
    void USHMEM_FN(shmem_ctx_##N##_atomic##OP)(shmem_ctx_t ctx, T *dest, T value, int pe);  \
    void USHMEM_FN(shmem_##N##_atomic_fetch##OP##_nbi)(T *fetch, T *dest, T value, int pe); \
    void USHMEM_FN(shmem_ctx_##N##_atomic_fetch##OP##_nbi)(shmem_ctx_t ctx, T *fetch,       \
                                                           T *dest, T value, int pe);
#define USHMEM_PROTO_AMO_BIT_(T, N)                                                        \
    USHMEM_PROTO_AMO_BIT_OP_(T, N, _and)                                                   \
    USHMEM_PROTO_AMO_BIT_OP_(T, N, _or)                                                    \
    USHMEM_PROTO_AMO_BIT_OP_(T, N, _xor)
USHMEM_AMO_BIT_TYPES(USHMEM_PROTO_AMO_BIT_)

/* Deprecated (1.4) names, default context only. */
#define USHMEM_PROTO_AMO_DEPR_(T, N)                                                       \
    T    USHMEM_FN(shmem_##N##_finc)(T *dest, int pe);                                      \
    void USHMEM_FN(shmem_##N##_inc)(T *dest, int pe);                                       \
    T    USHMEM_FN(shmem_##N##_fadd)(T *dest, T value, int pe);                             \
    void USHMEM_FN(shmem_##N##_add)(T *dest, T value, int pe);                              \
    T    USHMEM_FN(shmem_##N##_cswap)(T *dest, T cond, T value, int pe);
USHMEM_AMO_DEPR_TYPES(USHMEM_PROTO_AMO_DEPR_)

#define USHMEM_PROTO_AMO_DEPR_EXT_(T, N)                                                   \
    T    USHMEM_FN(shmem_##N##_fetch)(const T *source, int pe);                             \
    void USHMEM_FN(shmem_##N##_set)(T *dest, T value, int pe);                              \
    T    USHMEM_FN(shmem_##N##_swap)(T *dest, T value, int pe);
USHMEM_AMO_DEPR_EXT_TYPES(USHMEM_PROTO_AMO_DEPR_EXT_)

/* ---- Point-to-point synchronisation -------------------------------------- */

/* status (may be NULL) excludes element i from the set when status[i] != 0;
 * the _vector forms compare ivars[i] with cmp_values[i]. */
#define USHMEM_PROTO_P2P_(T, N)                                                            \
    void   USHMEM_FN(shmem_##N##_wait_until)(T *ivar, int cmp, T cmp_value);                \
    void   USHMEM_FN(shmem_##N##_wait_until_all)(T *ivars, size_t nelems, const int *status,\
                                                 int cmp, T cmp_value);                     \
    size_t USHMEM_FN(shmem_##N##_wait_until_any)(T *ivars, size_t nelems, const int *status,\
                                                 int cmp, T cmp_value);                     \
    size_t USHMEM_FN(shmem_##N##_wait_until_some)(T *ivars, size_t nelems, size_t *indices, \
                                                  const int *status, int cmp, T cmp_value); \
    void   USHMEM_FN(shmem_##N##_wait_until_all_vector)(T *ivars, size_t nelems,            \
                                                        const int *status, int cmp,         \
                                                        T *cmp_values);                     \
    size_t USHMEM_FN(shmem_##N##_wait_until_any_vector)(T *ivars, size_t nelems,            \
                                                        const int *status, int cmp,         \
                                                        T *cmp_values);                     \
    size_t USHMEM_FN(shmem_##N##_wait_until_some_vector)(T *ivars, size_t nelems,           \
                                                         size_t *indices, const int *status,\
                                                         int cmp, T *cmp_values);           \
    int    USHMEM_FN(shmem_##N##_test)(T *ivar, int cmp, T cmp_value);                      \
    int    USHMEM_FN(shmem_##N##_test_all)(T *ivars, size_t nelems, const int *status,      \
                                           int cmp, T cmp_value);                           \
    size_t USHMEM_FN(shmem_##N##_test_any)(T *ivars, size_t nelems, const int *status,      \
                                           int cmp, T cmp_value);                           \
    size_t USHMEM_FN(shmem_##N##_test_some)(T *ivars, size_t nelems, size_t *indices,       \
                                            const int *status, int cmp, T cmp_value);       \
    int    USHMEM_FN(shmem_##N##_test_all_vector)(T *ivars, size_t nelems,                  \
                                                  const int *status, int cmp,               \
                                                  T *cmp_values);                           \
    size_t USHMEM_FN(shmem_##N##_test_any_vector)(T *ivars, size_t nelems,                  \
                                                  const int *status, int cmp,               \
                                                  T *cmp_values);                           \
    size_t USHMEM_FN(shmem_##N##_test_some_vector)(T *ivars, size_t nelems, size_t *indices,\
                                                   const int *status, int cmp,              \
                                                   T *cmp_values);
USHMEM_P2P_TYPES(USHMEM_PROTO_P2P_)

/* Deprecated (1.4): shmem_wait is shmem_wait_until with SHMEM_CMP_NE. */
void USHMEM_FN(shmem_wait_until)(long *ivar, int cmp, long cmp_value);
void USHMEM_FN(shmem_wait)(long *ivar, long cmp_value);
#define USHMEM_PROTO_P2P_WAIT_DEPR_(T, N)                                                  \
    void USHMEM_FN(shmem_##N##_wait)(T *ivar, T cmp_value);
USHMEM_P2P_WAIT_DEPR_TYPES(USHMEM_PROTO_P2P_WAIT_DEPR_)

/* ---- Collectives, team-based (1.5, 1.6) ----------------------------------
 * All return 0 on success. PE_root is a PE number in team. */

#define USHMEM_PROTO_COLL_(T, N)                                                           \
    int USHMEM_FN(shmem_##N##_broadcast)(shmem_team_t team, T *dest, const T *source,       \
                                         size_t nelems, int PE_root);                       \
    int USHMEM_FN(shmem_##N##_collect)(shmem_team_t team, T *dest, const T *source,         \
                                       size_t nelems);                                      \
    int USHMEM_FN(shmem_##N##_fcollect)(shmem_team_t team, T *dest, const T *source,        \
                                        size_t nelems);                                     \
    int USHMEM_FN(shmem_##N##_alltoall)(shmem_team_t team, T *dest, const T *source,        \
                                        size_t nelems);                                     \
    int USHMEM_FN(shmem_##N##_alltoalls)(shmem_team_t team, T *dest, const T *source,       \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
USHMEM_RMA_TYPES(USHMEM_PROTO_COLL_)

/* Untyped: nelems bytes. */
int USHMEM_FN(shmem_broadcastmem)(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems, int PE_root);
int USHMEM_FN(shmem_collectmem)(shmem_team_t team, void *dest, const void *source,
                                size_t nelems);
int USHMEM_FN(shmem_fcollectmem)(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems);
int USHMEM_FN(shmem_alltoallmem)(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems);
int USHMEM_FN(shmem_alltoallsmem)(shmem_team_t team, void *dest, const void *source,
                                  ptrdiff_t dst, ptrdiff_t sst, size_t nelems);

/* Reductions: one prototype shape, instantiated per operator over that
 * operator's type list. OP carries its leading underscore, as for the
 * bitwise AMOs (and/or/xor are operator tokens in C++). */
#define USHMEM_PROTO_REDUCE_OP_(T, N, OP)                                                  \
    int USHMEM_FN(shmem_##N##OP##_reduce)(shmem_team_t team, T *dest, const T *source,      \
                                          size_t nreduce);
#define USHMEM_PROTO_REDUCE_BIT_(T, N)                                                     \
    USHMEM_PROTO_REDUCE_OP_(T, N, _and)                                                    \
    USHMEM_PROTO_REDUCE_OP_(T, N, _or)                                                     \
    USHMEM_PROTO_REDUCE_OP_(T, N, _xor)
#define USHMEM_PROTO_REDUCE_MINMAX_(T, N)                                                  \
    USHMEM_PROTO_REDUCE_OP_(T, N, _max)                                                    \
    USHMEM_PROTO_REDUCE_OP_(T, N, _min)
/* SUM and PROD, and the 1.6 prefix sums over the same types: dest on team
 * PE i gets source summed over PEs 0..i (inscan) or 0..i-1 (exscan, 0 on
 * PE 0). */
#define USHMEM_PROTO_REDUCE_ARITH_(T, N)                                                   \
    USHMEM_PROTO_REDUCE_OP_(T, N, _sum)                                                    \
    USHMEM_PROTO_REDUCE_OP_(T, N, _prod)                                                   \
    int USHMEM_FN(shmem_##N##_sum_inscan)(shmem_team_t team, T *dest, const T *source,      \
                                          size_t nelems);                                   \
    int USHMEM_FN(shmem_##N##_sum_exscan)(shmem_team_t team, T *dest, const T *source,      \
                                          size_t nelems);
USHMEM_REDUCE_BIT_TYPES(USHMEM_PROTO_REDUCE_BIT_)
USHMEM_REDUCE_MINMAX_TYPES(USHMEM_PROTO_REDUCE_MINMAX_)
USHMEM_REDUCE_ARITH_TYPES(USHMEM_PROTO_REDUCE_ARITH_)

/* ---- Collectives, active-set (deprecated 1.5) -----------------------------
 * The set is PE_start, PE_start + 2^logPE_stride, ... (PE_size PEs); PE_root
 * is relative to it. pSync (SHMEM_*_SYNC_SIZE longs, every element
 * SHMEM_SYNC_VALUE before the first call) names the call's state, which the
 * library keeps; it is SHMEM_SYNC_VALUE again on return. pWrk (reductions)
 * holds at least max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE)
 * elements. A PE outside the set returns at once (SHMEM_DEBUG=1: an error). */

void USHMEM_FN(shmem_barrier)(int PE_start, int logPE_stride, int PE_size, long *pSync);
void USHMEM_FN(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* Sized: nelems elements of BITS bits each. */
#define USHMEM_PROTO_COLL_SIZED_(B)                                                        \
    void USHMEM_FN(shmem_broadcast##B)(void *dest, const void *source, size_t nelems,       \
                                       int PE_root, int PE_start, int logPE_stride,         \
                                       int PE_size, long *pSync);                           \
    void USHMEM_FN(shmem_collect##B)(void *dest, const void *source, size_t nelems,         \
                                     int PE_start, int logPE_stride, int PE_size,           \
                                     long *pSync);                                          \
    void USHMEM_FN(shmem_fcollect##B)(void *dest, const void *source, size_t nelems,        \
                                      int PE_start, int logPE_stride, int PE_size,          \
                                      long *pSync);                                         \
    void USHMEM_FN(shmem_alltoall##B)(void *dest, const void *source, size_t nelems,        \
                                      int PE_start, int logPE_stride, int PE_size,          \
                                      long *pSync);                                         \
    void USHMEM_FN(shmem_alltoalls##B)(void *dest, const void *source, ptrdiff_t dst,       \
                                       ptrdiff_t sst, size_t nelems, int PE_start,          \
                                       int logPE_stride, int PE_size, long *pSync);
USHMEM_COLL_SIZES(USHMEM_PROTO_COLL_SIZED_)

/* Reductions: nreduce is an int here, unlike the team-based forms. */
#define USHMEM_PROTO_TO_ALL_OP_(T, N, OP)                                                  \
    void USHMEM_FN(shmem_##N##OP##_to_all)(T *dest, const T *source, int nreduce,           \
                                           int PE_start, int logPE_stride, int PE_size,     \
                                           T *pWrk, long *pSync);
#define USHMEM_PROTO_TO_ALL_BIT_(T, N)                                                     \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _and)                                                    \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _or)                                                     \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _xor)
#define USHMEM_PROTO_TO_ALL_MINMAX_(T, N)                                                  \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _max)                                                    \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _min)
#define USHMEM_PROTO_TO_ALL_ARITH_(T, N)                                                   \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _sum)                                                    \
    USHMEM_PROTO_TO_ALL_OP_(T, N, _prod)
USHMEM_TO_ALL_BIT_TYPES(USHMEM_PROTO_TO_ALL_BIT_)
USHMEM_TO_ALL_MINMAX_TYPES(USHMEM_PROTO_TO_ALL_MINMAX_)
USHMEM_TO_ALL_ARITH_TYPES(USHMEM_PROTO_TO_ALL_ARITH_)

#undef USHMEM_PROTO_RMA_
#undef USHMEM_PROTO_RMA_SIZED_
#undef USHMEM_PROTO_SIGNAL_
#undef USHMEM_PROTO_SIGNAL_SIZED_
#undef USHMEM_PROTO_AMO_STD_
#undef USHMEM_PROTO_AMO_EXT_
#undef USHMEM_PROTO_AMO_BIT_OP_
#undef USHMEM_PROTO_AMO_BIT_
#undef USHMEM_PROTO_AMO_DEPR_
#undef USHMEM_PROTO_AMO_DEPR_EXT_
#undef USHMEM_PROTO_P2P_
#undef USHMEM_PROTO_P2P_WAIT_DEPR_
#undef USHMEM_PROTO_COLL_
#undef USHMEM_PROTO_REDUCE_OP_
#undef USHMEM_PROTO_REDUCE_BIT_
#undef USHMEM_PROTO_REDUCE_MINMAX_
#undef USHMEM_PROTO_REDUCE_ARITH_
#undef USHMEM_PROTO_COLL_SIZED_
#undef USHMEM_PROTO_TO_ALL_OP_
#undef USHMEM_PROTO_TO_ALL_BIT_
#undef USHMEM_PROTO_TO_ALL_MINMAX_
#undef USHMEM_PROTO_TO_ALL_ARITH_
