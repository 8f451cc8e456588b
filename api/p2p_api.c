/*
 * Point-to-point synchronisation: wait_until and test, on one variable or a
 * set of them (all / any / some, one comparison value or a vector of them),
 * plus the deprecated shmem_wait names.
 *
 * The set logic is written once, type-blind; the only typed piece is a
 * small per-type predicate that loads ivars[i] and compares it, in the
 * variable's own type so signedness is honoured. Every typed routine is one
 * line that passes its predicate.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"

/* Does ivars[i] satisfy cmp against cmp_values[j]? (j is i for the vector
 * forms and 0 for the single-value ones.) */
typedef int (*ush_p2p_pred_t)(const void *ivars, size_t i, int cmp, const void *cmp_values,
                              size_t j);

/* cmp has been validated on entry, so the last arm is SHMEM_CMP_LE. */
#define USH_CMP_HOLDS(a, cmp, b)                                                   \
    ((cmp) == SHMEM_CMP_EQ   ? (a) == (b)                                          \
     : (cmp) == SHMEM_CMP_NE ? (a) != (b)                                          \
     : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                           \
     : (cmp) == SHMEM_CMP_GE ? (a) >= (b)                                          \
     : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                           \
                             : (a) <= (b))

/* The variable changes under us (a peer's put or atomic, another thread),
 * so it is read with an atomic load: never cached in a register, never torn.
 * Relaxed is enough for the polling; the acquire fence on success orders
 * the caller's later loads. */
#define USH_P2P_PRED(T, N)                                                             \
    static int ush_p2p_pred_##N(const void *ivars, size_t i, int cmp,                  \
                                const void *cmp_values, size_t j)                      \
    {                                                                                  \
        T cur = __atomic_load_n((const T *)ivars + i, __ATOMIC_RELAXED);               \
        T ref = ((const T *)cmp_values)[j];                                            \
        return USH_CMP_HOLDS(cur, cmp, ref);                                           \
    }
USHMEM_P2P_TYPES(USH_P2P_PRED)

/* ---- Entry checks --------------------------------------------------------- */

/* Waiting drives the transport, so the library must be up; a bad cmp would
 * otherwise wait forever; the variables must be symmetric, or no peer can
 * ever change them. */
static void ush_p2p_enter(const char *routine, int cmp, const void *ivars, size_t nelems,
                          size_t size)
{
    size_t nbytes;
    USH_CHECK_INIT(routine);
    ush_hang_enter(routine);
    if (USH_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)) {
        ush_fatal(routine,
                  "cmp = %d is not a comparison: use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE",
                  cmp);
    }
    USH_CHECK_NBYTES(routine, "nelems", nelems, size, &nbytes);
    if (nbytes) USH_CHECK_SYMM(routine, "ivars", ivars, nbytes);
}

/* After a satisfied wait or test: data the peer delivered before updating
 * the variable is visible to the caller's next loads. */
static inline void ush_p2p_acquire(void)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline int ush_in_set(const int *status, size_t i)
{
    return status == NULL || status[i] == 0;
}

static size_t ush_set_size(const int *status, size_t nelems)
{
    size_t n = 0;
    for (size_t i = 0; i < nelems; i++) n += ush_in_set(status, i);
    return n;
}

/* ---- The set algorithms ------------------------------------------------------ */

/* wait_any and test_any start each scan where the last one stopped, so an
 * element that stays satisfied cannot hide the others forever (the spec:
 * "a series of calls must eventually return i"). Per thread, because
 * threads scan independently. */
static _Thread_local size_t ush_any_start;

/* One scan for any satisfied element, from the rotating start. */
static size_t ush_scan_any(ush_p2p_pred_t pred, const void *ivars, size_t nelems,
                           const int *status, int cmp, const void *cv, int vec)
{
    size_t start = ush_any_start % nelems;
    for (size_t k = 0; k < nelems; k++) {
        size_t i = start + k < nelems ? start + k : start + k - nelems;
        if (ush_in_set(status, i) && pred(ivars, i, cmp, cv, vec ? i : 0)) {
            ush_any_start = i + 1;
            return i;
        }
    }
    return SIZE_MAX;
}

/* One scan collecting every satisfied element into indices. */
static size_t ush_scan_some(ush_p2p_pred_t pred, const void *ivars, size_t nelems,
                            size_t *indices, const int *status, int cmp, const void *cv, int vec)
{
    size_t n = 0;
    for (size_t i = 0; i < nelems; i++) {
        if (ush_in_set(status, i) && pred(ivars, i, cmp, cv, vec ? i : 0)) indices[n++] = i;
    }
    return n;
}

static void ush_wait_until(const char *routine, ush_p2p_pred_t pred, void *ivar, size_t size,
                           int cmp, const void *value)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivar, 1, size);
    USH_WAIT_UNTIL(pred(ivar, 0, cmp, value, 0));
    ush_p2p_acquire();
}

static void ush_wait_all(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                         size_t nelems, const int *status, int cmp, const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    for (size_t i = 0; i < nelems; i++) {
        if (!ush_in_set(status, i)) continue;
        USH_WAIT_UNTIL(pred(ivars, i, cmp, cv, vec ? i : 0));
    }
    ush_p2p_acquire();
}

static size_t ush_wait_any(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                           size_t nelems, const int *status, int cmp, const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    if (ush_set_size(status, nelems) == 0) return SIZE_MAX;
    size_t i;
    USH_WAIT_UNTIL((i = ush_scan_any(pred, ivars, nelems, status, cmp, cv, vec)) != SIZE_MAX);
    ush_p2p_acquire();
    return i;
}

static size_t ush_wait_some(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                            size_t nelems, size_t *indices, const int *status, int cmp,
                            const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    if (ush_set_size(status, nelems) == 0) return 0;
    size_t n;
    USH_WAIT_UNTIL((n = ush_scan_some(pred, ivars, nelems, indices, status, cmp, cv, vec)) != 0);
    ush_p2p_acquire();
    return n;
}

/* The tests never block, but a failed one drives progress once: a program
 * that polls with shmem_test must still serve the remote operations (on
 * software-emulated transports) that will eventually satisfy it. */
static int ush_test(const char *routine, ush_p2p_pred_t pred, void *ivar, size_t size, int cmp,
                    const void *value)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivar, 1, size);
    if (pred(ivar, 0, cmp, value, 0)) {
        ush_p2p_acquire();
        ush_poll_hit();
        return 1;
    }
    ush_poll_step();
    return 0;
}

/* An empty set is vacuously all satisfied: 1 (the spec's return-value
 * text for nelems == 0; it applies the same to a fully masked set). */
static int ush_test_all(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                        size_t nelems, const int *status, int cmp, const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    for (size_t i = 0; i < nelems; i++) {
        if (ush_in_set(status, i) && !pred(ivars, i, cmp, cv, vec ? i : 0)) {
            ush_poll_step();
            return 0;
        }
    }
    ush_p2p_acquire();
    ush_poll_hit();
    return 1;
}

static size_t ush_test_any(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                           size_t nelems, const int *status, int cmp, const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    if (nelems == 0) return SIZE_MAX;
    size_t i = ush_scan_any(pred, ivars, nelems, status, cmp, cv, vec);
    if (i == SIZE_MAX) {
        ush_poll_step();
    } else {
        ush_p2p_acquire();
        ush_poll_hit();
    }
    return i;
}

static size_t ush_test_some(const char *routine, ush_p2p_pred_t pred, void *ivars, size_t size,
                            size_t nelems, size_t *indices, const int *status, int cmp,
                            const void *cv, int vec)
{
    USH_PROF_SCOPE(routine);
    ush_p2p_enter(routine, cmp, ivars, nelems, size);
    size_t n = ush_scan_some(pred, ivars, nelems, indices, status, cmp, cv, vec);
    if (n == 0) {
        ush_poll_step();
    } else {
        ush_p2p_acquire();
        ush_poll_hit();
    }
    return n;
}

/* ---- Typed routines ------------------------------------------------------------ */

#define USH_P2P(T, N)                                                                              \
    USH_API(void, shmem_##N##_wait_until)(T *ivar, int cmp, T cmp_value)                           \
    { ush_wait_until("shmem_" #N "_wait_until", ush_p2p_pred_##N, ivar, sizeof(T), cmp, &cmp_value); } \
    USH_API(void, shmem_##N##_wait_until_all)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    { ush_wait_all("shmem_" #N "_wait_until_all", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, &cmp_value, 0); } \
    USH_API(size_t, shmem_##N##_wait_until_any)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    { return ush_wait_any("shmem_" #N "_wait_until_any", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, &cmp_value, 0); } \
    USH_API(size_t, shmem_##N##_wait_until_some)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value) \
    { return ush_wait_some("shmem_" #N "_wait_until_some", ush_p2p_pred_##N, ivars, sizeof(T), nelems, indices, status, cmp, &cmp_value, 0); } \
    USH_API(void, shmem_##N##_wait_until_all_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    { ush_wait_all("shmem_" #N "_wait_until_all_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, cmp_values, 1); } \
    USH_API(size_t, shmem_##N##_wait_until_any_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    { return ush_wait_any("shmem_" #N "_wait_until_any_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, cmp_values, 1); } \
    USH_API(size_t, shmem_##N##_wait_until_some_vector)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values) \
    { return ush_wait_some("shmem_" #N "_wait_until_some_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, indices, status, cmp, cmp_values, 1); } \
    USH_API(int, shmem_##N##_test)(T *ivar, int cmp, T cmp_value)                                  \
    { return ush_test("shmem_" #N "_test", ush_p2p_pred_##N, ivar, sizeof(T), cmp, &cmp_value); }  \
    USH_API(int, shmem_##N##_test_all)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    { return ush_test_all("shmem_" #N "_test_all", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, &cmp_value, 0); } \
    USH_API(size_t, shmem_##N##_test_any)(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    { return ush_test_any("shmem_" #N "_test_any", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, &cmp_value, 0); } \
    USH_API(size_t, shmem_##N##_test_some)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value) \
    { return ush_test_some("shmem_" #N "_test_some", ush_p2p_pred_##N, ivars, sizeof(T), nelems, indices, status, cmp, &cmp_value, 0); } \
    USH_API(int, shmem_##N##_test_all_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    { return ush_test_all("shmem_" #N "_test_all_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, cmp_values, 1); } \
    USH_API(size_t, shmem_##N##_test_any_vector)(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    { return ush_test_any("shmem_" #N "_test_any_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, status, cmp, cmp_values, 1); } \
    USH_API(size_t, shmem_##N##_test_some_vector)(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values) \
    { return ush_test_some("shmem_" #N "_test_some_vector", ush_p2p_pred_##N, ivars, sizeof(T), nelems, indices, status, cmp, cmp_values, 1); }

USHMEM_P2P_TYPES(USH_P2P)

/* ---- Deprecated (1.4) names ---------------------------------------------------- */

USH_API(void, shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
    ush_wait_until("shmem_wait_until", ush_p2p_pred_long, ivar, sizeof(long), cmp, &cmp_value);
}

/* shmem_wait(ivar, v) waits until *ivar != v. */
USH_API(void, shmem_wait)(long *ivar, long cmp_value)
{
    ush_wait_until("shmem_wait", ush_p2p_pred_long, ivar, sizeof(long), SHMEM_CMP_NE, &cmp_value);
}

#define USH_P2P_WAIT_DEPR(T, N)                                                                    \
    USH_API(void, shmem_##N##_wait)(T *ivar, T cmp_value)                                          \
    { ush_wait_until("shmem_" #N "_wait", ush_p2p_pred_##N, ivar, sizeof(T), SHMEM_CMP_NE, &cmp_value); }

USHMEM_P2P_WAIT_DEPR_TYPES(USH_P2P_WAIT_DEPR)

/* SOS's shmemx_ names of the _all/_any/_some routines (<shmemx.h>). */
USHMEM_X_LIST_P2P
