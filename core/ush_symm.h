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

/* The heap segment is two parts:
 *
 *   [base, base + USH_SYMM_LIB_BYTES)     the library's own symmetric
 *                                         objects (ush_symm_internal_alloc)
 *   [ush_symm_user.base,                  the user's heap: all of
 *    ush_symm_user.base + .size)          SHMEM_SYMMETRIC_SIZE, in whole
 *                                         pages, for shmem_malloc & co.
 *
 * so a user who sets SHMEM_SYMMETRIC_SIZE gets all of it, and the user's
 * part ends the segment: a transfer running past the last block is caught
 * by the address check instead of landing in the library's sync words.
 *
 * The library's part is bump-allocated in the same order on every PE (the
 * same offsets everywhere) and never freed until finalize. Its size is a
 * constant, the sum of what init takes (about 11.2 MiB: team sync words
 * and scratch, barrier flags, active-set scratch and channels, the wait
 * beacon) with room to spare; raise it when adding internal objects (init stops with a
 * message naming it if they do not fit; symm.c's static assertion lists
 * the documents that state the size). Untouched pages of the heap's
 * memfd cost nothing. */
#define USH_SYMM_LIB_BYTES ((size_t)12 << 20)

/* What ush_symm_check_limits counts of the library's part for each PE:
 * the pages a job with a few teams and active sets touches. Start-up and
 * the world's barriers touch about 20 KiB; each team in use up to 93 KiB
 * of sync words and scratch, each active set's channel 86 KiB. The whole
 * part is touched only by a PE that uses all 64 teams and 64 channels:
 * counting it for every PE would refuse jobs that fit (2048 PEs with 1
 * MiB heaps need 26 GB that way, 4 GB this way). Beyond this, the
 * library's pages are backed as they are touched, as malloc's are. */
#define USH_SYMM_LIB_COUNTED ((size_t)1 << 20)

/* The allocator aligns addresses, yet must give the same offsets on every
 * PE: so the user heap's base is aligned to the largest alignment
 * shmem_align accepts, ush_symm_heap_align: a sixteenth of
 * SHMEM_SYMMETRIC_SIZE rounded down to a power of two, at least
 * USH_SYMM_MIN_ALIGN (huge pages) and at most USH_SYMM_MAX_ALIGN. The
 * heap's mapping is that much longer (address space only: the memfd's
 * pages are backed when touched). */
#define USH_SYMM_MIN_ALIGN ((size_t)2 << 20)
#define USH_SYMM_MAX_ALIGN ((size_t)1 << 30)
extern size_t ush_symm_heap_align;

/* Stops the job (ush_fatal) when this node cannot back the heap segment
 * (SHMEM_SYMMETRIC_SIZE plus USH_SYMM_LIB_BYTES) for each of its PEs
 * (memory and swap, and the job's memory cgroup). Called before the
 * transport exists, so a refusal leaves no UCX state behind.
 * (ush_symm_init itself is declared in ush.h.) */
void ush_symm_check_limits(void);

extern ush_seg_t ush_seg[USH_SEG_COUNT];
/* The user's part of ush_seg[USH_SEG_HEAP], which the allocator manages. */
extern ush_seg_t ush_symm_user;

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
