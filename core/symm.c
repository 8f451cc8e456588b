/*
 * Symmetric segments: the heap (a memfd that node-local peers map, see
 * transport/shared.c) and the executable's static data and bss, registered
 * in place. The
 * heap segment holds the library's own objects, then the user's heap (see
 * ush_symm.h for the layout).
 */
#include "ush.h"
#include "ush_cgroup.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

ush_seg_t ush_seg[USH_SEG_COUNT];
ush_seg_t ush_symm_user;
size_t    ush_symm_heap_align = USH_SYMM_MIN_ALIGN;

/* Bytes of the library's part handed out so far (a bump allocator: the
 * library's objects live until finalize). */
static size_t ush_symm_lib_used;

/* Internal objects start on cache lines of their own. The library's part
 * is a whole number of huge pages, so the segment starts as aligned as the
 * user's base (which the transport aligns) and so do the objects. */
#define USH_SYMM_LIB_ALIGN 64
_Static_assert(USH_SYMM_LIB_BYTES % USH_SYMM_MIN_ALIGN == 0,
               "the library's part must be a whole number of huge pages");
/* The size is stated to users: SHMEM_SYMMETRIC_SIZE's help (ush_env.h,
 * printed by oshinfo) and docs/environment.md say so many MiB. */
_Static_assert(USH_SYMM_LIB_BYTES == (size_t)12 << 20,
               "USH_SYMM_LIB_BYTES changed: update the MiB in SHMEM_SYMMETRIC_SIZE's help "
               "(core/ush_env.h), docs/environment.md and docs/design.md, then this line");

/* The linker marks where the executable's writable data starts and where
 * its bss ends (glibc's crt defines __data_start; ld defines _end). */
extern char __data_start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

_Static_assert(USH_SEG_COUNT <= USH_TP_MAX_SEGS, "transport segment table too small");

/* The user's heap: SHMEM_SYMMETRIC_SIZE rounded up to whole pages (at
 * least one), so a single block of exactly that size always fits whatever
 * the allocator's granularity. Saturates instead of wrapping: a size that
 * large is refused by ush_symm_check_limits. */
static size_t ush_symm_user_size(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), size = ush_g.env.symmetric_size;
    if (size > SIZE_MAX - USH_SYMM_LIB_BYTES - page) return SIZE_MAX - USH_SYMM_LIB_BYTES;
    return size == 0 ? page : (size + page - 1) / page * page;
}

/* The whole segment: the library's part, then the user's. */
static size_t ush_symm_seg_size(void)
{
    return USH_SYMM_LIB_BYTES + ush_symm_user_size();
}

/* See ush_symm.h. */
static size_t ush_symm_align_for(size_t size)
{
    size_t align = USH_SYMM_MIN_ALIGN;
    while (align < USH_SYMM_MAX_ALIGN && 2 * align <= size / 16) align *= 2;
    return align;
}

/* The largest SHMEM_SYMMETRIC_SIZE that fits avail bytes for npe PEs when
 * each PE needs extra bytes besides it. */
static uint64_t ush_symm_fits(uint64_t avail, uint64_t npe, uint64_t extra)
{
    return avail / npe > extra ? avail / npe - extra : 0;
}

/* Refuse, at init, a heap this node cannot back. The heap's memfd is
 * backed lazily: a heap larger than memory would "succeed" here and end
 * later with SIGBUS or the OOM killer when touched. Every PE on the
 * node allocates its own heap segment (SHMEM_SYMMETRIC_SIZE plus the
 * library's part, of which USH_SYMM_LIB_COUNTED is counted), so the node
 * needs local_size times that. */
void ush_symm_check_limits(void)
{
    const size_t   size = ush_symm_user_size() + USH_SYMM_LIB_COUNTED;
    const uint64_t npe  = ush_g.local_size > 0 ? (uint64_t)ush_g.local_size : 1;
    const uint64_t need = (uint64_t)size > UINT64_MAX / npe ? UINT64_MAX : size * npe;
    struct sysinfo si;
    ush_cgroup_mem_t cg;

    /* Shared memory can be swapped, never more. */
    if (sysinfo(&si) == 0) {
        uint64_t mem = ((uint64_t)si.totalram + si.totalswap) * si.mem_unit;
        if (need > mem) {
            ush_fatal("shmem_init",
                      "SHMEM_SYMMETRIC_SIZE=%zu bytes for each of the %" PRIu64 " PEs on this "
                      "node, plus %zu for the library's own objects, needs %" PRIu64 " bytes, more than "
                      "its memory and swap (%" PRIu64 " bytes); lower SHMEM_SYMMETRIC_SIZE to "
                      "at most %" PRIu64 " or run fewer PEs per node",
                      ush_g.env.symmetric_size, npe, USH_SYMM_LIB_COUNTED, need, mem,
                      ush_symm_fits(mem, npe, USH_SYMM_LIB_COUNTED));
        }
        /* A batch system's memory request (Slurm's --mem) is a cgroup
         * limit, often far below the node's memory. Shared memory is
         * charged to the cgroup of the PE that touches it, and the PEs of
         * a node share the job's cgroup. */
        if (ush_cgroup_mem_read("", &cg) == 0 && cg.mem != USH_CGROUP_UNLIMITED) {
            uint64_t swap  = (uint64_t)si.totalswap * si.mem_unit;
            uint64_t limit = cg.mem + (cg.swap < swap ? cg.swap : swap);
            if (need > limit) {
                ush_fatal("shmem_init",
                          "SHMEM_SYMMETRIC_SIZE=%zu bytes for each of the %" PRIu64 " PEs on "
                          "this node, plus %zu for the library's own objects, needs %" PRIu64 " bytes, "
                          "more than the job's memory cgroup allows (%" PRIu64 " bytes of "
                          "memory and swap, set by %s); lower SHMEM_SYMMETRIC_SIZE to at most "
                          "%" PRIu64 ", run fewer PEs per node or ask the batch system for more memory "
                          "(Slurm: --mem)",
                          ush_g.env.symmetric_size, npe, USH_SYMM_LIB_COUNTED, need, limit,
                          cg.limit_file, ush_symm_fits(limit, npe, USH_SYMM_LIB_COUNTED));
            }
        }
    }
}

void ush_symm_init(void)
{
    size_t user = ush_symm_user_size(), size = ush_symm_seg_size();
    void  *base;

    /* What shmem_align can promise depends on the user's size alone; the
     * transport aligns the user's base, USH_SYMM_LIB_BYTES into the
     * segment. */
    ush_symm_heap_align = ush_symm_align_for(user);
    ush_tp_status_t st = ush_tp_seg_alloc(USH_SEG_HEAP, size, ush_symm_heap_align,
                                          USH_SYMM_LIB_BYTES, &base);
    if (st != USH_TP_OK) {
        ush_fatal("shmem_init",
                  "cannot allocate the symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE=%zu "
                  "plus the library's own %zu): %s; lower SHMEM_SYMMETRIC_SIZE",
                  size, ush_g.env.symmetric_size, USH_SYMM_LIB_BYTES, ush_tp_strerror());
    }
    ush_seg[USH_SEG_HEAP] = (ush_seg_t){ .base = (uintptr_t)base, .size = size };
    ush_symm_user = (ush_seg_t){ .base = (uintptr_t)base + USH_SYMM_LIB_BYTES, .size = user };
    ush_symm_lib_used = 0;

    if ((uintptr_t)__data_start && (uintptr_t)_end > (uintptr_t)__data_start) {
        size_t dsize = (size_t)(_end - __data_start);
        if (ush_g.env.share_static && ush_tp_seg_share(USH_SEG_DATA, __data_start, dsize)) {
            ush_warn("shmem_init", "%s; static data is reached through UCX instead",
                     ush_tp_strerror());
        }
        st = ush_tp_seg_register(USH_SEG_DATA, __data_start, dsize);
        if (st != USH_TP_OK) {
            ush_fatal("shmem_init", "cannot register the program's static data (%zu bytes): %s",
                      dsize, ush_tp_strerror());
        }
        ush_seg[USH_SEG_DATA] = (ush_seg_t){ .base = (uintptr_t)__data_start, .size = dsize };
    }

    ush_g.heap = ush_heap_create((void *)ush_symm_user.base, ush_symm_user.size);
    if (!ush_g.heap) ush_fatal("shmem_init", "out of memory creating the heap allocator");
}

void *ush_symm_internal_alloc(size_t size)
{
    size_t off = (ush_symm_lib_used + USH_SYMM_LIB_ALIGN - 1) & ~(size_t)(USH_SYMM_LIB_ALIGN - 1);
    if (off > USH_SYMM_LIB_BYTES || size > USH_SYMM_LIB_BYTES - off) {
        /* Not the user's to fix: the constant is too small for this build. */
        ush_fatal("shmem_init",
                  "internal error: the library's own symmetric objects need more than "
                  "USH_SYMM_LIB_BYTES=%zu bytes (%zu taken, %zu more asked); raise "
                  "USH_SYMM_LIB_BYTES in core/ush_symm.h",
                  USH_SYMM_LIB_BYTES, ush_symm_lib_used, size);
    }
    ush_symm_lib_used = off + size;
    return (void *)(ush_seg[USH_SEG_HEAP].base + off);
}

void ush_symm_fini(void)
{
    ush_heap_destroy(ush_g.heap);
    ush_g.heap = NULL;
    for (int s = 0; s < USH_SEG_COUNT; s++) ush_seg[s] = (ush_seg_t){ 0 };
    ush_symm_user     = (ush_seg_t){ 0 };
    ush_symm_lib_used = 0;
}
