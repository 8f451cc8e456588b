/*
 * Symmetric segments: the heap (allocated by UCX so node-local peers can map
 * it) and the executable's static data and bss, registered in place.
 */
#include "ush.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

#include <stdint.h>

ush_seg_t ush_seg[USH_SEG_COUNT];

/* The linker marks where the executable's writable data starts and where
 * its bss ends (glibc's crt defines __data_start; ld defines _end). */
extern char __data_start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

_Static_assert(USH_SEG_COUNT <= USH_TP_MAX_SEGS, "transport segment table too small");

void ush_symm_init(void)
{
    size_t size = ush_g.env.symmetric_size < 4096 ? 4096 : ush_g.env.symmetric_size;
    void  *base;

    ush_tp_status_t st = ush_tp_seg_alloc(USH_SEG_HEAP, size, USH_SYMM_MAX_ALIGN, &base);
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
