/*
 * The symmetric-heap allocator: a deterministic allocator over one region.
 * The same sequence of calls gives the same offsets on every PE, which is
 * what makes shmem_malloc's results symmetric. All bookkeeping lives in
 * private memory, never inside the region, so a stray remote put into the
 * heap cannot corrupt the allocator and peers never see its metadata.
 * Not thread-safe: shmem_malloc & co. are collective and called by one
 * thread per PE.
 */
#ifndef USH_HEAP_H
#define USH_HEAP_H

#include <stddef.h>

typedef struct ush_heap ush_heap_t;

typedef struct {
    size_t size;          /* bytes in the region */
    size_t used;          /* bytes in live blocks (after rounding) */
    size_t largest_free;  /* largest single free block */
    size_t nblocks;       /* live blocks */
} ush_heap_stats_t;

/* Manage [base, base + size). Returns NULL on failure (out of private memory). */
ush_heap_t *ush_heap_create(void *base, size_t size);
void        ush_heap_destroy(ush_heap_t *heap);

/* size 0 returns NULL. align is a power of two (>= 1); every block is at
 * least 16-byte aligned so any C type fits. NULL when no free block fits. */
void *ush_heap_alloc(ush_heap_t *heap, size_t size, size_t align);
/* p is NULL (no-op) or a live block; anything else returns -1, else 0. */
int   ush_heap_free(ush_heap_t *heap, void *p);
/* realloc semantics: grows in place when the following space is free,
 * otherwise allocates, copies min(old, new) bytes and frees the old block.
 * NULL p acts as alloc; size 0 frees and returns NULL. On failure returns
 * NULL and leaves p untouched. */
void *ush_heap_realloc(ush_heap_t *heap, void *p, size_t size);
/* Size of the live block at p, or 0 when p is not one. */
size_t ush_heap_block_size(const ush_heap_t *heap, const void *p);

/* What p is, for error messages (a lookup, not a fast path). */
typedef enum {
    USH_HEAP_PTR_LIVE,     /* start of a live block */
    USH_HEAP_PTR_INTERIOR, /* inside a live block, *into bytes past its start */
    USH_HEAP_PTR_FREE,     /* in free space: freed already, or never handed out */
    USH_HEAP_PTR_OUTSIDE   /* not in the region at all */
} ush_heap_ptr_t;
ush_heap_ptr_t ush_heap_classify(const ush_heap_t *heap, const void *p, size_t *into);

void ush_heap_stats(const ush_heap_t *heap, ush_heap_stats_t *stats);

#endif
