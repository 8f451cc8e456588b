/*
 * Symmetric segments: the heap and the executable's static data. Each PE
 * knows its own bases; peers' bases are exchanged at wire-up because
 * position-independent executables put static data at a different address
 * in every process.
 */
#ifndef USH_SYMM_H
#define USH_SYMM_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    USH_SEG_HEAP,
    USH_SEG_DATA,
    USH_SEG_COUNT
} ush_seg_id_t;

typedef struct {
    uintptr_t base;
    size_t    size;
} ush_seg_t;

/* The allocator aligns addresses, yet must give the same offsets on every
 * PE: so the heap's base is aligned to the largest alignment shmem_align
 * accepts, ush_symm_heap_align: a sixteenth of the heap rounded down to a
 * power of two, at least USH_SYMM_MIN_ALIGN (huge pages) and at most
 * USH_SYMM_MAX_ALIGN. The heap's mapping is that much longer (address
 * space only: pages are backed when touched). */
#define USH_SYMM_MIN_ALIGN ((size_t)2 << 20)
#define USH_SYMM_MAX_ALIGN ((size_t)1 << 30)
extern size_t ush_symm_heap_align;

/* Stops the job (ush_fatal) when this node cannot back SHMEM_SYMMETRIC_SIZE
 * for each of its PEs (memory and swap; /dev/shm when UCX must use it).
 * Called before the transport exists, so a refusal leaves no UCX segment
 * behind. (ush_symm_init itself is declared in ush.h.) */
void ush_symm_check_limits(void);

extern ush_seg_t ush_seg[USH_SEG_COUNT];

/* Which segment holds [addr, addr+len): two range compares, no search.
 * Returns the segment id and its offset, or -1 when addr is not symmetric. */
static inline int ush_seg_find(const void *addr, size_t len, size_t *offset)
{
    uintptr_t a = (uintptr_t)addr;
    for (int s = 0; s < USH_SEG_COUNT; s++) {
        if (a - ush_seg[s].base < ush_seg[s].size &&
            len <= ush_seg[s].size - (a - ush_seg[s].base)) {
            *offset = a - ush_seg[s].base;
            return s;
        }
    }
    return -1;
}

#endif
