/*
 * Fortran symmetric heap: SHPALLOC, SHPDEALLC, SHPCLMOVE. addr is a Cray
 * pointer (POINTER (addr, A(1))): the address itself, pointer-sized.
 * Lengths count 32-bit words. Errors come back as the 1.4 codes, or end
 * the job with a message when `abort` is nonzero. Like shmem_malloc, all
 * three are collective: every PE must call them with the same arguments,
 * so every PE takes the same error path.
 */
#include "ush_fortran.h"
#include "core/ush_symm.h"

enum {
    USH_SHP_OK        = 0,
    USH_SHP_BADLEN    = -1, /* length is not an integer greater than 0 */
    USH_SHP_NOMEM     = -2, /* no block of that size on the symmetric heap */
    USH_SHP_OUTSIDE   = -3, /* address outside the symmetric heap */
    USH_SHP_FREE      = -4, /* block already free */
    USH_SHP_INTERIOR  = -5, /* address not at the start of a block */
};

/* Report err through *errcode, or stop the job if abort asks for that. */
static void ush_shp_error(const char *froutine, ush_fint_t err, ush_fint_t *errcode,
                          const ush_fint_t *abort_on_error, const void *addr, ush_fint_t length)
{
    *errcode = err;
    if (*abort_on_error == 0) return;
    ush_f_routine = NULL;
    switch (err) {
    case USH_SHP_BADLEN:
        ush_fatal(froutine, "length is %d; it counts 32-bit words and must be greater than 0 "
                  "(error -1)", (int)length);
    case USH_SHP_NOMEM:
        ush_fatal(froutine, "no room for %d 32-bit words on the symmetric heap (error -2): "
                  "raise SHMEM_SYMMETRIC_SIZE", (int)length);
    case USH_SHP_OUTSIDE:
        ush_fatal(froutine, "address %p is outside the symmetric heap (error -3): pass the "
                  "pointer SHPALLOC returned", addr);
    case USH_SHP_FREE:
        ush_fatal(froutine, "the block at %p is already free (error -4)", addr);
    default:
        ush_fatal(froutine, "address %p is not the start of a block (error -5): pass the "
                  "pointer SHPALLOC returned", addr);
    }
}

/* What a SHPDEALLC or SHPCLMOVE address is: 0 for a live block. */
static ush_fint_t ush_shp_classify(const char *froutine, void *addr)
{
    size_t into;
    ush_f_routine = NULL;
    USH_CHECK_INIT(froutine);
    switch (ush_heap_classify(ush_g.heap, addr, &into)) {
    case USH_HEAP_PTR_LIVE:     return USH_SHP_OK;
    case USH_HEAP_PTR_INTERIOR: return USH_SHP_INTERIOR;
    case USH_HEAP_PTR_FREE:     return USH_SHP_FREE;
    default:                    return USH_SHP_OUTSIDE;
    }
}

USH_F_DEF(void, shpalloc, (void **addr, const ush_fint_t *length, ush_fint_t *errcode,
                           const ush_fint_t *abort_on_error))
{
    if (*length <= 0) {
        ush_shp_error("SHPALLOC", USH_SHP_BADLEN, errcode, abort_on_error, NULL, *length);
        return;
    }
    void *p;
    USH_F_RUN("SHPALLOC", p = pshmem_malloc((size_t)*length * 4));
    if (!p) {
        ush_shp_error("SHPALLOC", USH_SHP_NOMEM, errcode, abort_on_error, NULL, *length);
        return;
    }
    *addr    = p;
    *errcode = USH_SHP_OK;
}
USH_F_BARE(shpalloc)

USH_F_DEF(void, shpdeallc, (void **addr, ush_fint_t *errcode, const ush_fint_t *abort_on_error))
{
    ush_fint_t err = ush_shp_classify("SHPDEALLC", *addr);
    if (err != USH_SHP_OK) {
        ush_shp_error("SHPDEALLC", err, errcode, abort_on_error, *addr, 0);
        return;
    }
    USH_F_RUN("SHPDEALLC", pshmem_free(*addr));
    *errcode = USH_SHP_OK;
}
USH_F_BARE(shpdeallc)

/* status: 0 extended (or shrunk) in place, 1 moved (contents copied). */
USH_F_DEF(void, shpclmove, (void **addr, const ush_fint_t *length, ush_fint_t *status,
                            const ush_fint_t *abort_on_error))
{
    if (*length <= 0) {
        ush_shp_error("SHPCLMOVE", USH_SHP_BADLEN, status, abort_on_error, *addr, *length);
        return;
    }
    ush_fint_t err = ush_shp_classify("SHPCLMOVE", *addr);
    if (err != USH_SHP_OK) {
        ush_shp_error("SHPCLMOVE", err, status, abort_on_error, *addr, *length);
        return;
    }
    void *p;
    USH_F_RUN("SHPCLMOVE", p = pshmem_realloc(*addr, (size_t)*length * 4));
    if (!p) {
        ush_shp_error("SHPCLMOVE", USH_SHP_NOMEM, status, abort_on_error, *addr, *length);
        return;
    }
    *status = p == *addr ? 0 : 1;
    *addr   = p;
}
USH_F_BARE(shpclmove)
