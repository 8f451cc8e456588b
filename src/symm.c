/*
 * Symmetric segments: the heap (allocated by UCX so node-local peers can map
 * it) and the executable's static data and bss, registered in place.
 */
#include "ush.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

ush_seg_t ush_seg[USH_SEG_COUNT];
size_t    ush_symm_heap_align = USH_SYMM_MIN_ALIGN;

/* The linker marks where the executable's writable data starts and where
 * its bss ends (glibc's crt defines __data_start; ld defines _end). */
extern char __data_start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

_Static_assert(USH_SEG_COUNT <= USH_TP_MAX_SEGS, "transport segment table too small");

/* A kernel limit from /proc/sys/kernel, or UINT64_MAX when unreadable. */
static uint64_t ush_symm_proc_limit(const char *path)
{
    FILE    *f = fopen(path, "r");
    uint64_t v = UINT64_MAX;
    if (f != NULL) {
        if (fscanf(f, "%" SCNu64, &v) != 1) v = UINT64_MAX;
        fclose(f);
    }
    return v;
}

/* The heap's size: SHMEM_SYMMETRIC_SIZE, at least a page. */
static size_t ush_symm_heap_size(void)
{
    return ush_g.env.symmetric_size < 4096 ? 4096 : ush_g.env.symmetric_size;
}

/* Refuse, at init, a heap this node cannot back. UCX maps its pages
 * lazily: a heap larger than memory (or than /dev/shm, where UCX's posix
 * segments live) would "succeed" here and end later with SIGBUS or the
 * OOM killer when touched - and a killed PE leaves its /dev/shm file. Every
 * PE on the node allocates its own heap, so the node needs
 * local_size * size. */
void ush_symm_check_limits(void)
{
    const size_t   size = ush_symm_heap_size();
    const uint64_t npe  = ush_g.local_size > 0 ? (uint64_t)ush_g.local_size : 1;
    const uint64_t need = (uint64_t)size > UINT64_MAX / npe ? UINT64_MAX : size * npe;
    struct sysinfo si;

    /* Shared memory can be swapped, never more. */
    if (sysinfo(&si) == 0) {
        uint64_t mem = ((uint64_t)si.totalram + si.totalswap) * si.mem_unit;
        if (need > mem) {
            ush_fatal("shmem_init",
                      "SHMEM_SYMMETRIC_SIZE=%zu bytes for each of the %" PRIu64 " PEs on this "
                      "node needs %" PRIu64 " bytes, more than its memory and swap (%" PRIu64
                      " bytes); lower SHMEM_SYMMETRIC_SIZE to at most %" PRIu64 " or run fewer "
                      "PEs per node",
                      size, npe, need, mem, mem / npe);
        }
    }

    /* UCX tries System V shared memory first, which does not use /dev/shm;
     * it falls back to /dev/shm files (posix) when a segment exceeds the
     * System V limits. Only then must /dev/shm hold every heap. */
    uint64_t shmmax = ush_symm_proc_limit("/proc/sys/kernel/shmmax");
    uint64_t shmall = ush_symm_proc_limit("/proc/sys/kernel/shmall");
    long     page   = sysconf(_SC_PAGESIZE);
    uint64_t sysv_total = page > 0 && shmall <= UINT64_MAX / (uint64_t)page
                        ? shmall * (uint64_t)page : UINT64_MAX;
    const char    *dir = getenv("UCX_POSIX_DIR"); /* where UCX puts them */
    struct statvfs vfs;
    if (dir == NULL || *dir == '\0') dir = "/dev/shm";
    if ((size > shmmax || need > sysv_total) && statvfs(dir, &vfs) == 0) {
        uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        if (need > avail) {
            ush_fatal("shmem_init",
                      "SHMEM_SYMMETRIC_SIZE=%zu bytes for each of the %" PRIu64 " PEs on this "
                      "node needs %" PRIu64 " bytes in %s (above the System V limits "
                      "kernel.shmmax=%" PRIu64 ", kernel.shmall=%" PRIu64 " pages), which has "
                      "%" PRIu64 " free; lower SHMEM_SYMMETRIC_SIZE to at most %" PRIu64 ", "
                      "free or enlarge %s (mount -o remount,size=...), or raise "
                      "kernel.shmmax",
                      size, npe, need, dir, shmmax, shmall, avail, avail / npe, dir);
        }
    }
}

/* See ush_symm.h. */
static size_t ush_symm_align_for(size_t size)
{
    size_t align = USH_SYMM_MIN_ALIGN;
    while (align < USH_SYMM_MAX_ALIGN && 2 * align <= size / 16) align *= 2;
    return align;
}

void ush_symm_init(void)
{
    size_t size = ush_symm_heap_size();
    void  *base;

    ush_symm_heap_align = ush_symm_align_for(size);
    ush_tp_status_t st = ush_tp_seg_alloc(USH_SEG_HEAP, size, ush_symm_heap_align, &base);
    if (st != USH_TP_OK) {
        ush_fatal("shmem_init",
                  "cannot allocate the symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE): %s; "
                  "lower SHMEM_SYMMETRIC_SIZE or free shared memory (/dev/shm)",
                  size, ush_tp_strerror());
    }
    ush_seg[USH_SEG_HEAP] = (ush_seg_t){ .base = (uintptr_t)base, .size = size };

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

    ush_g.heap = ush_heap_create(base, size);
    if (!ush_g.heap) ush_fatal("shmem_init", "out of memory creating the heap allocator");
}

void *ush_symm_internal_alloc(size_t size)
{
    void *p = ush_heap_alloc(ush_g.heap, size, 64);
    if (!p) {
        ush_fatal("shmem_init",
                  "the symmetric heap (SHMEM_SYMMETRIC_SIZE=%zu bytes) cannot hold the "
                  "library's own %zu bytes; raise SHMEM_SYMMETRIC_SIZE",
                  ush_g.env.symmetric_size, size);
    }
    return p;
}

void ush_symm_fini(void)
{
    ush_heap_destroy(ush_g.heap);
    ush_g.heap = NULL;
    for (int s = 0; s < USH_SEG_COUNT; s++) ush_seg[s] = (ush_seg_t){ 0 };
}
