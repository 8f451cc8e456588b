/*
 * The symmetric-heap allocator (see ush_heap.h for the contract).
 *
 * The region is described by an address-ordered array of blocks, kept in
 * private memory, that tiles [0, size) exactly: every byte belongs to one
 * block, live or free. Invariants after every call:
 *   - blocks are sorted by offset and contiguous (b[i].off + b[i].size ==
 *     b[i+1].off), offsets and sizes are multiples of USH_HEAP_GRAIN;
 *   - no two free blocks are neighbours (free coalesces at once), so the
 *     largest free block is the largest hole the heap really has.
 * Allocation is first fit from the lowest address. Nothing depends on the
 * region's contents, the time or the process, so the same call sequence
 * gives the same offsets on every PE -- provided the bases agree modulo the
 * largest alignment requested, because alignment is of the address the
 * caller gets, not of the offset. The heap is mapped page-aligned on every
 * PE, so alignments up to a page are always symmetric.
 *
 * The array costs O(n) memmove per split or merge; shmem_malloc is
 * collective and ends in a barrier, so that is never what the user waits on.
 */
#include "ush_heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Minimum alignment and size granularity: any C type fits at any block. */
#define USH_HEAP_GRAIN ((size_t)16)

typedef struct {
    size_t off;   /* from the (grain-aligned) base */
    size_t size;  /* bytes, a multiple of USH_HEAP_GRAIN, never 0 */
    int    live;  /* 1: handed out, 0: free */
} ush_heap_block_t;

struct ush_heap {
    uintptr_t         base;  /* first grain-aligned address of the region */
    size_t            size;  /* managed bytes, a multiple of the grain */
    ush_heap_block_t *blk;   /* address-ordered, tiles [0, size) */
    size_t            n;     /* blocks in use */
    size_t            cap;   /* blocks allocated */
};

static int ush_heap_is_pow2(size_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

/* Make room for 'more' extra blocks before touching the array, so a failed
 * growth leaves the heap exactly as it was. */
static int ush_heap_reserve(ush_heap_t *heap, size_t more)
{
    size_t want = heap->n + more;
    if (want <= heap->cap) {
        return 0;
    }
    size_t cap = heap->cap * 2;
    if (cap < want) {
        cap = want;
    }
    ush_heap_block_t *blk = realloc(heap->blk, cap * sizeof(*blk));
    if (blk == NULL) {
        return -1;
    }
    heap->blk = blk;
    heap->cap = cap;
    return 0;
}

static void ush_heap_insert(ush_heap_t *heap, size_t i, size_t off, size_t size, int live)
{
    memmove(&heap->blk[i + 1], &heap->blk[i], (heap->n - i) * sizeof(heap->blk[0]));
    heap->blk[i] = (ush_heap_block_t){ .off = off, .size = size, .live = live };
    heap->n++;
}

static void ush_heap_remove(ush_heap_t *heap, size_t i)
{
    memmove(&heap->blk[i], &heap->blk[i + 1], (heap->n - i - 1) * sizeof(heap->blk[0]));
    heap->n--;
}

/* Index of the live block that starts at p, or -1 for anything else: a
 * pointer outside the region, inside a block, or to a free block. Binary
 * search, since blocks are sorted by offset. */
static long ush_heap_find_live(const ush_heap_t *heap, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a < heap->base || a - heap->base >= heap->size) {
        return -1;
    }
    size_t off = a - heap->base;
    size_t lo = 0, hi = heap->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (heap->blk[mid].off < off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < heap->n && heap->blk[lo].off == off && heap->blk[lo].live) {
        return (long)lo;
    }
    return -1;
}

/* Merge block i with its free neighbours; block i must be free. Returns the
 * index of the merged block. */
static size_t ush_heap_coalesce(ush_heap_t *heap, size_t i)
{
    if (i + 1 < heap->n && !heap->blk[i + 1].live) {
        heap->blk[i].size += heap->blk[i + 1].size;
        ush_heap_remove(heap, i + 1);
    }
    if (i > 0 && !heap->blk[i - 1].live) {
        heap->blk[i - 1].size += heap->blk[i].size;
        ush_heap_remove(heap, i);
        i--;
    }
    return i;
}

/* Give the tail of live block i beyond 'keep' bytes back to the free space
 * after it. The caller has reserved one block of room. */
static void ush_heap_trim(ush_heap_t *heap, size_t i, size_t keep)
{
    ush_heap_block_t *b = &heap->blk[i];
    if (b->size == keep) {
        return;
    }
    size_t tail_off = b->off + keep, tail_size = b->size - keep;
    b->size = keep;
    if (i + 1 < heap->n && !heap->blk[i + 1].live) {
        heap->blk[i + 1].off = tail_off;
        heap->blk[i + 1].size += tail_size;
    } else {
        ush_heap_insert(heap, i + 1, tail_off, tail_size, 0);
    }
}

/* Round a request up to the grain; 0 when it cannot fit any region. */
static size_t ush_heap_round(const ush_heap_t *heap, size_t size)
{
    if (size == 0 || size > heap->size) {
        return 0;
    }
    return (size + USH_HEAP_GRAIN - 1) & ~(USH_HEAP_GRAIN - 1);
}

ush_heap_t *ush_heap_create(void *base, size_t size)
{
    ush_heap_t *heap = calloc(1, sizeof(*heap));
    if (heap == NULL) {
        return NULL;
    }
    /* Trim to whole grains so every offset and size stays grain-aligned and
     * 16-byte alignment of addresses is alignment of offsets. */
    uintptr_t start = ((uintptr_t)base + USH_HEAP_GRAIN - 1) & ~(uintptr_t)(USH_HEAP_GRAIN - 1);
    size_t skip = start - (uintptr_t)base;
    heap->base = start;
    heap->size = size > skip ? (size - skip) & ~(USH_HEAP_GRAIN - 1) : 0;
    if (heap->size == 0) {
        return heap;  /* a valid, empty heap: every alloc returns NULL */
    }
    if (ush_heap_reserve(heap, 16) != 0) {
        free(heap);
        return NULL;
    }
    ush_heap_insert(heap, 0, 0, heap->size, 0);
    return heap;
}

void ush_heap_destroy(ush_heap_t *heap)
{
    if (heap == NULL) {
        return;
    }
    free(heap->blk);
    free(heap);
}

void *ush_heap_alloc(ush_heap_t *heap, size_t size, size_t align)
{
    size_t need = ush_heap_round(heap, size);
    if (need == 0 || !ush_heap_is_pow2(align) || align > heap->size) {
        return NULL;
    }
    if (align < USH_HEAP_GRAIN) {
        align = USH_HEAP_GRAIN;
    }
    /* At most two new blocks: the alignment gap before and the rest after. */
    if (ush_heap_reserve(heap, 2) != 0) {
        return NULL;
    }
    for (size_t i = 0; i < heap->n; i++) {
        ush_heap_block_t b = heap->blk[i];
        if (b.live || b.size < need) {
            continue;
        }
        /* Pad so the address, not just the offset, meets the alignment. */
        uintptr_t addr = heap->base + b.off;
        size_t pad = (size_t)(((addr + align - 1) & ~(uintptr_t)(align - 1)) - addr);
        if (pad > b.size || b.size - pad < need) {
            continue;
        }
        /* The gap stays a free block of its own: its left neighbour is live
         * (free blocks never touch), so there is nothing to merge it into. */
        if (pad > 0) {
            ush_heap_insert(heap, i, b.off, pad, 0);
            i++;
        }
        heap->blk[i] = (ush_heap_block_t){ .off = b.off + pad, .size = need, .live = 1 };
        if (b.size - pad > need) {
            ush_heap_insert(heap, i + 1, b.off + pad + need, b.size - pad - need, 0);
        }
        return (void *)(heap->base + heap->blk[i].off);
    }
    return NULL;
}

int ush_heap_free(ush_heap_t *heap, void *p)
{
    if (p == NULL) {
        return 0;
    }
    long i = ush_heap_find_live(heap, p);
    if (i < 0) {
        return -1;  /* foreign pointer, interior pointer or double free */
    }
    heap->blk[i].live = 0;
    ush_heap_coalesce(heap, (size_t)i);
    return 0;
}

void *ush_heap_realloc(ush_heap_t *heap, void *p, size_t size)
{
    if (p == NULL) {
        return ush_heap_alloc(heap, size, 1);
    }
    long li = ush_heap_find_live(heap, p);
    if (li < 0) {
        return NULL;
    }
    if (size == 0) {
        ush_heap_free(heap, p);
        return NULL;
    }
    size_t i = (size_t)li, need = ush_heap_round(heap, size);
    if (need == 0 || ush_heap_reserve(heap, 1) != 0) {
        return NULL;
    }
    ush_heap_block_t *b = &heap->blk[i];
    if (need <= b->size) {
        ush_heap_trim(heap, i, need);
        return p;
    }
    /* Grow in place into the free block that follows, if it is big enough. */
    if (i + 1 < heap->n && !heap->blk[i + 1].live &&
        b->size + heap->blk[i + 1].size >= need) {
        size_t avail = b->size + heap->blk[i + 1].size;
        b->size = avail;
        ush_heap_remove(heap, i + 1);
        ush_heap_trim(heap, i, need);
        return p;
    }
    /* Move: allocate before freeing so a failure leaves p untouched. */
    size_t old = b->size;
    void *q = ush_heap_alloc(heap, size, 1);
    if (q == NULL) {
        return NULL;
    }
    memcpy(q, p, old < need ? old : need);
    ush_heap_free(heap, p);
    return q;
}

size_t ush_heap_block_size(const ush_heap_t *heap, const void *p)
{
    long i = ush_heap_find_live(heap, p);
    return i < 0 ? 0 : heap->blk[i].size;
}

void ush_heap_stats(const ush_heap_t *heap, ush_heap_stats_t *stats)
{
    *stats = (ush_heap_stats_t){ .size = heap->size };
    for (size_t i = 0; i < heap->n; i++) {
        const ush_heap_block_t *b = &heap->blk[i];
        if (b->live) {
            stats->used += b->size;
            stats->nblocks++;
        } else if (b->size > stats->largest_free) {
            stats->largest_free = b->size;
        }
    }
}

ush_heap_ptr_t ush_heap_classify(const ush_heap_t *heap, const void *p, size_t *into)
{
    uintptr_t a = (uintptr_t)p;
    *into       = 0;
    if (a < heap->base || a - heap->base >= heap->size) {
        return USH_HEAP_PTR_OUTSIDE;
    }
    size_t off = a - heap->base;
    /* Blocks tile [0, size): the last one starting at or before off holds it. */
    size_t lo = 0, hi = heap->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (heap->blk[mid].off <= off) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    const ush_heap_block_t *b = &heap->blk[lo];
    if (!b->live) {
        return USH_HEAP_PTR_FREE;
    }
    *into = off - b->off;
    return *into ? USH_HEAP_PTR_INTERIOR : USH_HEAP_PTR_LIVE;
}
