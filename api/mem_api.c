/*
 * Symmetric memory management. Every routine here is collective: all PEs
 * make the same calls in the same order, so the deterministic allocator
 * returns the same offsets everywhere; each ends with a barrier so no PE
 * touches a peer's new block before the peer has it.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_team.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "core/ush_symm.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* NULL is an answer the program is entitled to act on (a search for the
 * largest block that fits, a cache that shrinks): a line per failure would
 * flood stderr from every PE. The first failure of each PE says why, the
 * rest are silent unless SHMEM_DEBUG asks for every one. */
/* A SHMEM_SYMMETRIC_SIZE with room for `need` bytes and a quarter more
 * (the allocator's own blocks, and the next request), rounded up to whole
 * M, G or T. Integers only: a static link has no libm. */
static void ush_size_advice(char *buf, size_t len, size_t need)
{
    static const char units[] = "MGT";
    uint64_t v = (uint64_t)need + (uint64_t)need / 4;
    if (v < need) v = UINT64_MAX;
    v = v / (1u << 20) + (v % (1u << 20) != 0);
    int u = 0;
    while (v >= 10 * 1024 && u < 2) v = v / 1024 + (v % 1024 != 0), u++;
    snprintf(buf, len, "%llu%c", (unsigned long long)(v ? v : 1), units[u]);
}

static void ush_report_exhausted(const char *routine, size_t size)
{
    static int       reported;
    ush_heap_stats_t st;
    char             advice[32];

    if (__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED) && !ush_g.env.debug) return;
    if (size > PTRDIFF_MAX) {
        /* No heap can be raised that far: the size is a bug, not a limit. */
        ush_warn(routine,
                 "cannot allocate %zu bytes, returning NULL: the size looks negative (%td as "
                 "a signed number; a negative count or difference converted to size_t?)%s",
                 size, (ptrdiff_t)size,
                 ush_g.env.debug ? "" : " (said once; SHMEM_DEBUG=1 reports every failure)");
        return;
    }
    ush_heap_stats(ush_g.heap, &st);
    size_t need = st.used + size < size ? SIZE_MAX : st.used + size;
    ush_size_advice(advice, sizeof(advice), need);
    ush_warn(routine,
             "cannot allocate %zu bytes, returning NULL: the symmetric heap has %zu bytes "
             "(SHMEM_SYMMETRIC_SIZE), %zu in use, largest free block %zu; "
             "raise SHMEM_SYMMETRIC_SIZE (to SHMEM_SYMMETRIC_SIZE=%s or more for this "
             "request, if the node's memory allows)%s",
             size, st.size, st.used, st.largest_free, advice,
             ush_g.env.debug ? "" : " (said once; SHMEM_DEBUG=1 reports every failure)");
}

/* SHMEM_DEBUG: every PE must ask for the same size, or the heaps diverge
 * silently. Compare with PE 0's request before allocating. */
static void ush_check_same_size(const char *routine, size_t size, size_t align)
{
    ush_team_check(SHMEM_TEAM_WORLD, routine, -1, -1);
    static uint64_t *req; /* symmetric: [2], taken at the first check */
    if (!req) req = ush_symm_internal_alloc(2 * sizeof(uint64_t));
    req[0] = size;
    req[1] = align;
    ush_barrier_all();
    uint64_t root[2];
    ush_get(SHMEM_CTX_DEFAULT, root, req, sizeof(root), 0);
    if (root[0] != size || root[1] != align) {
        ush_fatal(routine,
                  "this PE asked for %zu bytes (alignment %zu) but PE 0 for %lu (alignment "
                  "%lu); symmetric allocations must be called with the same arguments on "
                  "every PE",
                  size, align, (unsigned long)root[0], (unsigned long)root[1]);
    }
    ush_barrier_all();
}

static void *ush_alloc(const char *routine, size_t size, size_t align)
{
    USH_CHECK_INIT(routine);
    ush_hang_enter_coll(routine);
    if (ush_g.env.debug) ush_check_same_size(routine, size, align);
    void *p = size ? ush_heap_alloc(ush_g.heap, size, align) : NULL;
    if (size && !p) ush_report_exhausted(routine, size);
    ush_barrier_all();
    return p;
}

USH_API(void *, shmem_malloc)(size_t size)
{
    USH_PROF_SCOPE("shmem_malloc");
    USH_PROF_BYTES(size);
    return ush_alloc("shmem_malloc", size, 1);
}

USH_API(void *, shmem_malloc_with_hints)(size_t size, long hints)
{
    USH_PROF_SCOPE("shmem_malloc_with_hints");
    USH_PROF_BYTES(size);
    /* Hints only allow optimisations; every block already suits atomics
     * and signals. */
    (void)hints;
    return ush_alloc("shmem_malloc_with_hints", size, 1);
}

USH_API(void *, shmem_align)(size_t alignment, size_t size)
{
    USH_PROF_SCOPE("shmem_align");
    USH_PROF_BYTES(size);
    if (alignment == 0 || (alignment & (alignment - 1))) {
        ush_warn("shmem_align", "alignment %zu is not a power of two; returning NULL",
                 alignment);
        ush_barrier_all();
        return NULL;
    }
    if (alignment > ush_symm_heap_align) {
        ush_warn("shmem_align",
                 "alignment %zu is more than this heap can give the same on every PE (%zu, "
                 "a sixteenth of SHMEM_SYMMETRIC_SIZE=%zu rounded down to a power of two, "
                 "at least %zu and at most %zu); returning NULL: raise SHMEM_SYMMETRIC_SIZE",
                 alignment, ush_symm_heap_align, ush_g.env.symmetric_size, USH_SYMM_MIN_ALIGN,
                 USH_SYMM_MAX_ALIGN);
        ush_barrier_all();
        return NULL;
    }
    return ush_alloc("shmem_align", size, alignment);
}

USH_API(void *, shmem_calloc)(size_t count, size_t size)
{
    USH_PROF_SCOPE("shmem_calloc");
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        ush_warn("shmem_calloc", "count %zu times size %zu overflows; returning NULL",
                 count, size);
        ush_barrier_all();
        return NULL;
    }
    USH_PROF_BYTES(bytes);
    USH_CHECK_INIT("shmem_calloc");
    ush_hang_enter_coll("shmem_calloc");
    if (ush_g.env.debug) ush_check_same_size("shmem_calloc", bytes, 1);
    void *p = bytes ? ush_heap_alloc(ush_g.heap, bytes, 1) : NULL;
    if (p) {
        memset(p, 0, bytes);
    } else if (bytes) {
        ush_report_exhausted("shmem_calloc", bytes);
    }
    ush_barrier_all();
    return p;
}

USH_API(void *, shmem_realloc)(void *ptr, size_t size)
{
    USH_PROF_SCOPE("shmem_realloc");
    USH_PROF_BYTES(size);
    USH_CHECK_INIT("shmem_realloc");
    ush_hang_enter_coll("shmem_realloc");
    if (ptr && !ush_heap_block_size(ush_g.heap, ptr)) ush_check_fail_heap_ptr("shmem_realloc", ptr);
    /* Peers may still read or write the old block until all agree (the
     * check's barriers do that too). */
    if (ush_g.env.debug) {
        ush_check_same_size("shmem_realloc", size, 1);
    } else {
        ush_barrier_all();
    }
    void *p = ush_heap_realloc(ush_g.heap, ptr, size);
    if (size && !p) ush_report_exhausted("shmem_realloc", size);
    ush_barrier_all();
    return p;
}

USH_API(void, shmem_free)(void *ptr)
{
    USH_PROF_SCOPE("shmem_free");
    USH_CHECK_INIT("shmem_free");
    ush_hang_enter_coll("shmem_free");
    USH_TEAM_CHECK(SHMEM_TEAM_WORLD, "shmem_free");
    /* No PE may free a block a peer is still writing: barrier first. */
    ush_barrier_all();
    if (ush_heap_free(ush_g.heap, ptr)) ush_check_fail_heap_ptr("shmem_free", ptr);
}

/* Legacy names (OpenSHMEM 1.2). */
USH_API(void *, shmalloc)(size_t size)
{
    USH_PROF_SCOPE("shmalloc");
    USH_PROF_BYTES(size);
    return ush_alloc("shmalloc", size, 1);
}

USH_API(void, shfree)(void *ptr)
{
    USH_PROF_SCOPE("shfree");
    pshmem_free(ptr);
}

USH_API(void *, shrealloc)(void *ptr, size_t size)
{
    USH_PROF_SCOPE("shrealloc");
    USH_PROF_BYTES(size);
    return pshmem_realloc(ptr, size);
}

USH_API(void *, shmemalign)(size_t alignment, size_t size)
{
    USH_PROF_SCOPE("shmemalign");
    USH_PROF_BYTES(size);
    return pshmem_align(alignment, size);
}

/* SOS's shmemx_ name (USHMEM_X_LIST_MEM of <shmemx.h>). */
USHMEM_X_LIST_MEM
