/*
 * The signaling routines of the API: put-with-signal (typed from the type
 * table, sized, untyped; blocking and _nbi; plain and ctx), the 1.6
 * signal_add/signal_set, and the local side, signal_fetch and
 * signal_wait_until. Arguments are checked here; the internal layer
 * (ush_put_signal, ush_amo_*) does the work.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"

/* ---- Checks shared by every routine ---------------------------------------- */

/* The signal is updated with 8-byte atomics, which need an aligned word
 * (UCX refuses others, and a CPU atomic across a cache line is not one). */
static inline void ush_sig_check_addr(const char *routine, const uint64_t *sig_addr)
{
    USH_CHECK_SYMM(routine, "sig_addr", sig_addr, sizeof(uint64_t));
    if (USH_UNLIKELY((uintptr_t)sig_addr % sizeof(uint64_t) != 0)) {
        ush_fatal(routine, "sig_addr = %p is not 8-byte aligned: declare the signal as a "
                  "uint64_t (static or from shmem_malloc)", (const void *)sig_addr);
    }
}

/* SHMEM_SIGNAL_SET / _ADD to the internal operation; anything else stops
 * the job (a guess would leave the receiver waiting for a value that never
 * comes). */
static inline ush_amo_op_t ush_sig_op(const char *routine, int sig_op)
{
    if (sig_op == SHMEM_SIGNAL_SET) return USH_AMO_SET;
    if (USH_UNLIKELY(sig_op != SHMEM_SIGNAL_ADD)) {
        ush_fatal(routine, "sig_op = %d is not a signal operation: use SHMEM_SIGNAL_SET (%d) "
                  "or SHMEM_SIGNAL_ADD (%d)", sig_op, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    }
    return USH_AMO_ADD;
}

/* Put-with-signal of nelems elements of elem bytes. The signal is sent even for an empty payload
 * (it still tells the receiver "done"); dest is then not checked, as for
 * an empty put. */
static inline __attribute__((always_inline)) void
ush_api_put_signal_do(const char *routine, shmem_ctx_t ctx, int nbi, void *dest,
                      const void *source, size_t nelems, size_t elem, uint64_t *sig_addr,
                      uint64_t signal, int sig_op, int pe)
{
    size_t nbytes;
    USH_CHECK_CTX(routine, ctx);
    USH_CHECK_CTX_PE(routine, ctx, pe);
    USH_CHECK_NBYTES(routine, "nelems", nelems, elem, &nbytes);
    /* the payload and the 8-byte signal */
    USH_PROF_PEER(nbytes + sizeof(uint64_t), ush_ctx_world_pe(ctx, pe));
    ush_amo_op_t op = ush_sig_op(routine, sig_op);
    ush_sig_check_addr(routine, sig_addr);
    if (nbytes) {
        USH_CHECK_SYMM(routine, "dest", dest, nbytes);
        const char *d = dest, *s = (const char *)sig_addr;
        if (USH_UNLIKELY(s + sizeof(uint64_t) > d && s < d + nbytes)) {
            ush_fatal(routine, "sig_addr = %p lies inside dest = %p (%zu bytes): the signal "
                      "must be a separate object", (const void *)sig_addr, dest, nbytes);
        }
    }
    ush_put_signal(ctx, dest, source, nbytes, sig_addr, signal, op, pe, !nbi);
}

USH_PROF_DISPATCH(ush_api_put_signal,
                  (const char *routine, shmem_ctx_t ctx, int nbi, void *dest,
                   const void *source, size_t nelems, size_t elem, uint64_t *sig_addr,
                   uint64_t signal, int sig_op, int pe),
                  (routine, ctx, nbi, dest, source, nelems, elem, sig_addr, signal, sig_op, pe))

static inline __attribute__((always_inline)) void
ush_api_signal_update_do(const char *routine, shmem_ctx_t ctx, ush_amo_op_t op,
                         uint64_t *sig_addr, uint64_t signal, int pe)
{
    USH_CHECK_CTX(routine, ctx);
    USH_CHECK_CTX_PE(routine, ctx, pe);
    ush_sig_check_addr(routine, sig_addr);
    USH_PROF_PEER(sizeof(uint64_t), ush_ctx_world_pe(ctx, pe));
    ush_amo_post(ctx, op, sig_addr, signal, sizeof(uint64_t), pe);
}

USH_PROF_DISPATCH(ush_api_signal_update,
                  (const char *routine, shmem_ctx_t ctx, ush_amo_op_t op, uint64_t *sig_addr,
                   uint64_t signal, int pe),
                  (routine, ctx, op, sig_addr, signal, pe))

/* ---- Put-with-signal -------------------------------------------------------------- */

#define USH_SIG_PUT_ARGS uint64_t *sig_addr, uint64_t signal, int sig_op, int pe
#define USH_SIG_PUT_PASS sig_addr, signal, sig_op, pe

#define USH_SIGNAL_TYPED(T, N)                                                                     \
    USH_API(void, shmem_##N##_put_signal)(T *dest, const T *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_" #N "_put_signal", SHMEM_CTX_DEFAULT, 0, dest, source, nelems, sizeof(T), USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_ctx_##N##_put_signal)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_ctx_" #N "_put_signal", ctx, 0, dest, source, nelems, sizeof(T), USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_##N##_put_signal_nbi)(T *dest, const T *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_" #N "_put_signal_nbi", SHMEM_CTX_DEFAULT, 1, dest, source, nelems, sizeof(T), USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_ctx_##N##_put_signal_nbi)(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_ctx_" #N "_put_signal_nbi", ctx, 1, dest, source, nelems, sizeof(T), USH_SIG_PUT_PASS); }

USHMEM_RMA_TYPES(USH_SIGNAL_TYPED)

#define USH_SIGNAL_SIZED(B)                                                                        \
    USH_API(void, shmem_put##B##_signal)(void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_put" #B "_signal", SHMEM_CTX_DEFAULT, 0, dest, source, nelems, B / 8, USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_ctx_put##B##_signal)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_ctx_put" #B "_signal", ctx, 0, dest, source, nelems, B / 8, USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_put##B##_signal_nbi)(void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_put" #B "_signal_nbi", SHMEM_CTX_DEFAULT, 1, dest, source, nelems, B / 8, USH_SIG_PUT_PASS); } \
    USH_API(void, shmem_ctx_put##B##_signal_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS) \
    { ush_api_put_signal("shmem_ctx_put" #B "_signal_nbi", ctx, 1, dest, source, nelems, B / 8, USH_SIG_PUT_PASS); }

USHMEM_RMA_SIZES(USH_SIGNAL_SIZED)

USH_API(void, shmem_putmem_signal)(void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS)
{ ush_api_put_signal("shmem_putmem_signal", SHMEM_CTX_DEFAULT, 0, dest, source, nelems, 1, USH_SIG_PUT_PASS); }
USH_API(void, shmem_ctx_putmem_signal)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS)
{ ush_api_put_signal("shmem_ctx_putmem_signal", ctx, 0, dest, source, nelems, 1, USH_SIG_PUT_PASS); }
USH_API(void, shmem_putmem_signal_nbi)(void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS)
{ ush_api_put_signal("shmem_putmem_signal_nbi", SHMEM_CTX_DEFAULT, 1, dest, source, nelems, 1, USH_SIG_PUT_PASS); }
USH_API(void, shmem_ctx_putmem_signal_nbi)(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, USH_SIG_PUT_ARGS)
{ ush_api_put_signal("shmem_ctx_putmem_signal_nbi", ctx, 1, dest, source, nelems, 1, USH_SIG_PUT_PASS); }

/* ---- Remote signal updates (1.6) ----------------------------------------------------- */

USH_API(void, shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe)
{ ush_api_signal_update("shmem_signal_add", SHMEM_CTX_DEFAULT, USH_AMO_ADD, sig_addr, signal, pe); }
USH_API(void, shmem_ctx_signal_add)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{ ush_api_signal_update("shmem_ctx_signal_add", ctx, USH_AMO_ADD, sig_addr, signal, pe); }
USH_API(void, shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe)
{ ush_api_signal_update("shmem_signal_set", SHMEM_CTX_DEFAULT, USH_AMO_SET, sig_addr, signal, pe); }
USH_API(void, shmem_ctx_signal_set)(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{ ush_api_signal_update("shmem_ctx_signal_set", ctx, USH_AMO_SET, sig_addr, signal, pe); }

/* ---- The local signal --------------------------------------------------------------- */

/* An atomic fetch on this PE's own word, through the atomics layer like
 * any other: the route (CPU or transport) is the one the peers' updates
 * take, so the read is atomic with respect to them. */
USH_API(uint64_t, shmem_signal_fetch)(const uint64_t *sig_addr)
{
    USH_PROF_SCOPE("shmem_signal_fetch");
    USH_CHECK_INIT("shmem_signal_fetch");
    ush_sig_check_addr("shmem_signal_fetch", sig_addr);
    return ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_FETCH, (void *)sig_addr, 0, 0,
                         sizeof(uint64_t), ush_g.my_pe);
}

static inline int ush_sig_holds(uint64_t v, int cmp, uint64_t ref)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return v == ref;
    case SHMEM_CMP_NE: return v != ref;
    case SHMEM_CMP_GT: return v > ref;
    case SHMEM_CMP_GE: return v >= ref;
    case SHMEM_CMP_LT: return v < ref;
    default:           return v <= ref; /* SHMEM_CMP_LE, validated on entry */
    }
}

/* The value is loaded once per test and that same value is returned, so
 * the caller gets the one that satisfied cmp even if the signal moves on.
 * The polling loads are relaxed; the acquire fence on success orders the
 * caller's reads of the payload after the signal. */
USH_API(uint64_t, shmem_signal_wait_until)(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    static const char routine[] = "shmem_signal_wait_until";
    USH_PROF_SCOPE(routine);
    USH_CHECK_INIT(routine);
    ush_hang_enter(routine);
    if (USH_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)) {
        ush_fatal(routine,
                  "cmp = %d is not a comparison: use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE",
                  cmp);
    }
    ush_sig_check_addr(routine, sig_addr);
    uint64_t v;
    USH_WAIT_UNTIL(ush_sig_holds(v = __atomic_load_n(sig_addr, __ATOMIC_RELAXED), cmp, cmp_value));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return v;
}

/* SOS's shmemx_ names of the signaling routines (<shmemx.h>). */
USHMEM_X_LIST_SIGNAL
