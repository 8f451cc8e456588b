/*
 * The symmetric-heap allocator on its own: alignment, coalescing,
 * exhaustion, determinism across bases, realloc and bad frees.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ush_heap.h"

#define REGION (1u << 20)  /* 1 MiB per test heap */

/* A real region (realloc copies into it), page-aligned like the mapping
 * the library makes. */
static void *region_new(size_t size)
{
    void *p = aligned_alloc(4096, size);
    cr_assert_not_null(p, "aligned_alloc(%zu) failed", size);
    memset(p, 0xee, size);
    return p;
}

static ush_heap_t *heap_new(void *base, size_t size)
{
    ush_heap_t *h = ush_heap_create(base, size);
    cr_assert_not_null(h, "ush_heap_create failed");
    return h;
}

static ush_heap_stats_t stats_of(const ush_heap_t *h)
{
    ush_heap_stats_t s;
    memset(&s, 0x5a, sizeof(s));  /* every field must be written */
    ush_heap_stats(h, &s);
    return s;
}

static int inside(const void *p, size_t len, const void *base, size_t size)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
    return a >= b && a - b <= size && len <= size - (a - b);
}

Test(heap, every_result_is_aligned)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    size_t      sizes[] = { 1, 7, 15, 16, 17, 33, 100, 1000, 4097 };

    for (size_t align = 1; align <= 8192; align <<= 1) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            void  *p    = ush_heap_alloc(h, sizes[i], align);
            size_t need = align < 16 ? 16 : align;
            cr_assert_not_null(p, "alloc(%zu, %zu) failed", sizes[i], align);
            cr_assert_eq((uintptr_t)p % need, 0, "alloc(%zu, %zu) = %p is not %zu-aligned",
                         sizes[i], align, p, need);
            cr_assert(inside(p, sizes[i], base, REGION), "block %p outside the region", p);
            size_t bs = ush_heap_block_size(h, p);
            cr_assert(bs >= sizes[i] && bs % 16 == 0 && bs - sizes[i] < 16,
                      "block size %zu for a request of %zu", bs, sizes[i]);
            /* Write the whole block: overlapping blocks would show up below. */
            memset(p, (int)(i + 1), sizes[i]);
        }
    }
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.nblocks, 14 * 9, "nblocks %zu", s.nblocks);
    ush_heap_destroy(h);
    free(base);
}

Test(heap, unaligned_base_still_gives_16_byte_blocks)
{
    char       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base + 3, REGION - 3);
    ush_heap_stats_t s = stats_of(h);

    cr_assert(s.size <= REGION - 3 && s.size % 16 == 0 && s.size >= REGION - 32,
              "managed size %zu", s.size);
    for (int i = 0; i < 50; i++) {
        void *p = ush_heap_alloc(h, (size_t)i * 3 + 1, 1);
        cr_assert_not_null(p);
        cr_assert_eq((uintptr_t)p % 16, 0, "%p not 16-aligned", p);
        cr_assert(inside(p, (size_t)i * 3 + 1, base + 3, REGION - 3));
    }
    ush_heap_destroy(h);
    free(base);
}

Test(heap, alignment_is_of_the_address_not_the_offset)
{
    /* A base that is 16- but not 32-aligned: aligning offsets would be
     * wrong by 16 bytes for every alignment above 16. */
    char       *region = aligned_alloc(8192, 4 * 8192);
    cr_assert_not_null(region);
    ush_heap_t *h = heap_new(region + 16, 4 * 8192 - 16);

    for (size_t align = 32; align <= 8192; align <<= 1) {
        void *p = ush_heap_alloc(h, 16, align);
        cr_assert_not_null(p, "align %zu", align);
        cr_assert_eq((uintptr_t)p % align, 0, "align %zu gave %p", align, p);
    }
    ush_heap_destroy(h);
    free(region);
}

Test(heap, bad_requests_return_null)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);

    cr_assert_null(ush_heap_alloc(h, 0, 16), "size 0 must give NULL");
    cr_assert_null(ush_heap_alloc(h, 64, 0), "align 0 is not a power of two");
    cr_assert_null(ush_heap_alloc(h, 64, 24), "align 24 is not a power of two");
    cr_assert_null(ush_heap_alloc(h, 64, (size_t)REGION * 2), "align beyond the heap");
    cr_assert_null(ush_heap_alloc(h, SIZE_MAX, 16), "SIZE_MAX must not wrap");
    cr_assert_null(ush_heap_alloc(h, SIZE_MAX - 8, 16), "SIZE_MAX-8 must not wrap");
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.used, 0);
    cr_assert_eq(s.nblocks, 0);
    cr_assert_eq(s.largest_free, REGION);
    ush_heap_destroy(h);
    free(base);
}

Test(heap, fragmentation_then_coalescing)
{
    enum { N = 64 };
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    const size_t blk = REGION / N;
    void       *p[N];

    /* Fill the heap exactly with N blocks; first fit packs them in order. */
    for (int i = 0; i < N; i++) {
        p[i] = ush_heap_alloc(h, blk, 16);
        cr_assert_not_null(p[i], "block %d of %d", i, N);
        cr_assert_eq((char *)p[i], (char *)base + (size_t)i * blk, "block %d misplaced", i);
    }
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.used, REGION);
    cr_assert_eq(s.largest_free, 0);
    cr_assert_null(ush_heap_alloc(h, 16, 16), "a full heap must refuse");

    /* Free every other block: half the heap is free, but in pieces. */
    for (int i = 0; i < N; i += 2) {
        cr_assert_eq(ush_heap_free(h, p[i]), 0);
    }
    s = stats_of(h);
    cr_assert_eq(s.used, REGION / 2);
    cr_assert_eq(s.nblocks, N / 2);
    cr_assert_eq(s.largest_free, blk, "largest free %zu, expected %zu", s.largest_free, blk);
    cr_assert_null(ush_heap_alloc(h, blk + 16, 16), "no hole is bigger than one block");

    /* Free the rest in a scrambled order: each free merges with both sides. */
    for (int k = 0; k < N / 2; k++) {
        int i = ((k * 7) % (N / 2)) * 2 + 1;  /* 7 is coprime with 32 */
        cr_assert_eq(ush_heap_free(h, p[i]), 0, "free of block %d", i);
    }
    s = stats_of(h);
    cr_assert_eq(s.used, 0);
    cr_assert_eq(s.nblocks, 0);
    cr_assert_eq(s.largest_free, REGION, "heap did not coalesce back to one block");

    void *all = ush_heap_alloc(h, REGION, 16);
    cr_assert_eq(all, base, "the whole heap must be one block again");
    ush_heap_destroy(h);
    free(base);
}

Test(heap, alignment_gap_is_reused)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);

    void *a = ush_heap_alloc(h, 16, 16);          /* offset 0 */
    void *b = ush_heap_alloc(h, 64, 4096);        /* offset 4096: gap 16..4096 */
    cr_assert_eq(a, base);
    cr_assert_eq(b, (char *)base + 4096);
    void *c = ush_heap_alloc(h, 100, 16);         /* first fit lands in the gap */
    cr_assert_eq(c, (char *)base + 16, "gap before an aligned block not reused");
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.used, 16 + 64 + 112);
    cr_assert_eq(s.nblocks, 3);
    ush_heap_destroy(h);
    free(base);
}

Test(heap, exhaustion_returns_null_and_stats_report_sizes)
{
    const size_t size = 64 * 1024;
    void        *base = region_new(size);
    ush_heap_t  *h    = heap_new(base, size);

    cr_assert_null(ush_heap_alloc(h, size + 1, 16), "bigger than the heap");
    void *a = ush_heap_alloc(h, 1, 16);
    void *b = ush_heap_alloc(h, 1000, 16);
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.size, size);
    cr_assert_eq(s.used, 16 + 1008, "used %zu: sizes are rounded to 16", s.used);
    cr_assert_eq(s.nblocks, 2);
    cr_assert_eq(s.largest_free, size - 16 - 1008);

    cr_assert_null(ush_heap_alloc(h, s.largest_free + 1, 16), "one byte too many");
    void *rest = ush_heap_alloc(h, s.largest_free, 16);
    cr_assert_not_null(rest, "exactly the free space must fit");
    cr_assert_null(ush_heap_alloc(h, 1, 1), "nothing left");
    s = stats_of(h);
    cr_assert_eq(s.used, size);
    cr_assert_eq(s.largest_free, 0);
    cr_assert_eq(s.nblocks, 3);
    ush_heap_destroy(h);
    free(base);
}

Test(heap, tiny_region_is_empty_not_broken)
{
    char        buf[64];
    ush_heap_t *h = heap_new(buf, 8);  /* less than one grain */
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.size, 0);
    cr_assert_null(ush_heap_alloc(h, 1, 1));
    cr_assert_eq(ush_heap_free(h, buf), -1);
    cr_assert_null(ush_heap_realloc(h, NULL, 16));
    ush_heap_destroy(h);
    ush_heap_destroy(NULL);  /* must be harmless */
}

/* --- determinism ------------------------------------------------------- */

/* A private generator so the sequence does not depend on libc's rand(). */
static uint64_t lcg(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

#define OPS   4000
#define SLOTS 128

/* Check the live blocks do not overlap and lie inside the region, and that
 * the stats agree with them. */
static void check_invariants(ush_heap_t *h, void *base, size_t size, void *const *live)
{
    ush_heap_stats_t s = stats_of(h);
    size_t used = 0, n = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (live[i] == NULL) {
            continue;
        }
        size_t bi = ush_heap_block_size(h, live[i]);
        cr_assert(bi > 0, "live block %p unknown to the heap", live[i]);
        cr_assert(inside(live[i], bi, base, size));
        used += bi;
        n++;
        for (int j = i + 1; j < SLOTS; j++) {
            if (live[j] == NULL) {
                continue;
            }
            uintptr_t a = (uintptr_t)live[i], b = (uintptr_t)live[j];
            size_t    bj = ush_heap_block_size(h, live[j]);
            cr_assert(a + bi <= b || b + bj <= a, "blocks %p+%zu and %p+%zu overlap",
                      live[i], bi, live[j], bj);
        }
    }
    cr_assert_eq(s.used, used, "stats.used %zu, live blocks add up to %zu", s.used, used);
    cr_assert_eq(s.nblocks, n);
    cr_assert(s.largest_free <= size - used);
}

/* Run a seeded random mix of alloc, aligned alloc, free and realloc on a
 * heap at base, writing the offset of every result to out[]. */
static void random_run(void *base, size_t size, uint64_t seed, long *out)
{
    ush_heap_t *h = heap_new(base, size);
    void       *live[SLOTS] = { 0 };

    for (int op = 0; op < OPS; op++) {
        int      slot = (int)(lcg(&seed) % SLOTS);
        unsigned kind = (unsigned)(lcg(&seed) % 4);
        size_t   len  = 1 + lcg(&seed) % 6000;
        size_t   align = (size_t)1 << (lcg(&seed) % 13);  /* up to 4096 */
        void    *r = NULL;

        if (live[slot] != NULL && kind < 2) {
            cr_assert_eq(ush_heap_free(h, live[slot]), 0);
            live[slot] = NULL;
        } else if (live[slot] != NULL) {
            r = ush_heap_realloc(h, live[slot], len);
            if (r != NULL) {
                live[slot] = r;
            }
        } else {
            r = ush_heap_alloc(h, len, align);
            live[slot] = r;
        }
        out[op] = r == NULL ? -1 : (long)((char *)r - (char *)base);
        if (op % 97 == 0) {
            check_invariants(h, base, size, live);
        }
    }
    check_invariants(h, base, size, live);
    for (int i = 0; i < SLOTS; i++) {
        cr_assert_eq(ush_heap_free(h, live[i]), 0);
    }
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.largest_free, s.size, "heap did not coalesce after the run");
    ush_heap_destroy(h);
}

Test(heap, same_calls_give_same_offsets_at_different_bases)
{
    const size_t size = 256 * 1024;  /* small enough that some calls fail */
    char        *r1   = region_new(size);
    char        *r2   = region_new(size + 3 * 4096);
    long        *o1   = calloc(OPS, sizeof(long));
    long        *o2   = calloc(OPS, sizeof(long));
    cr_assert(o1 && o2);

    for (uint64_t seed = 1; seed <= 3; seed++) {
        random_run(r1, size, seed, o1);
        random_run(r2 + 3 * 4096, size, seed, o2);
        long fails = 0;
        for (int i = 0; i < OPS; i++) {
            cr_assert_eq(o1[i], o2[i], "seed %lu op %d: offset %ld vs %ld",
                         (unsigned long)seed, i, o1[i], o2[i]);
            fails += o1[i] == -1;
        }
        /* The run must exercise both success and exhaustion to mean much. */
        cr_assert(fails > 0 && fails < OPS / 2, "seed %lu: %ld failed calls",
                  (unsigned long)seed, fails);
    }
    free(o1);
    free(o2);
    free(r1);
    free(r2);
}

/* --- realloc ------------------------------------------------------------ */

static void fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        ((unsigned char *)p)[i] = (unsigned char)(seed + i * 31);
    }
}

static int same(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        if (((const unsigned char *)p)[i] != (unsigned char)(seed + i * 31)) {
            return 0;
        }
    }
    return 1;
}

Test(heap, realloc_grows_in_place_when_next_block_is_free)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    void       *a    = ush_heap_alloc(h, 64, 16);
    void       *b    = ush_heap_alloc(h, 256, 16);
    void       *c    = ush_heap_alloc(h, 64, 16);

    fill(a, 64, 1);
    cr_assert_eq(ush_heap_free(h, b), 0);
    void *r = ush_heap_realloc(h, a, 200);
    cr_assert_eq(r, a, "growth into the free neighbour must stay in place");
    cr_assert_eq(ush_heap_block_size(h, a), 208);
    cr_assert(same(a, 64, 1), "content lost");

    /* Exactly the rest of the hole: a + freed b = 320 bytes. */
    r = ush_heap_realloc(h, a, 320);
    cr_assert_eq(r, a);
    cr_assert_eq(ush_heap_block_size(h, a), 320);
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.nblocks, 2);
    cr_assert_eq(s.used, 320 + 64);
    cr_assert_eq((char *)c, (char *)a + 320, "c must not have moved");
    ush_heap_destroy(h);
    free(base);
}

Test(heap, realloc_shrinks_in_place_and_frees_the_tail)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    void       *a    = ush_heap_alloc(h, 1024, 16);
    void       *b    = ush_heap_alloc(h, 64, 16);

    fill(a, 1024, 2);
    cr_assert_eq(ush_heap_realloc(h, a, 100), a);
    cr_assert_eq(ush_heap_block_size(h, a), 112);
    cr_assert(same(a, 100, 2));
    /* The freed tail is a hole of 1024-112 bytes that first fit reuses. */
    void *t = ush_heap_alloc(h, 1024 - 112, 16);
    cr_assert_eq(t, (char *)a + 112, "tail not returned to the free space");
    cr_assert_eq((char *)b, (char *)a + 1024);
    ush_heap_destroy(h);
    free(base);
}

Test(heap, realloc_moves_and_preserves_content)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    void       *a    = ush_heap_alloc(h, 64, 16);
    void       *b    = ush_heap_alloc(h, 64, 16);  /* blocks a's growth */

    fill(a, 64, 3);
    fill(b, 64, 4);
    void *r = ush_heap_realloc(h, a, 4096);
    cr_assert_not_null(r);
    cr_assert_neq(r, a, "a is boxed in; it must move");
    cr_assert(same(r, 64, 3), "content not copied");
    cr_assert(same(b, 64, 4), "neighbour corrupted");
    cr_assert_eq(ush_heap_block_size(h, a), 0, "old block still live");
    cr_assert_eq(ush_heap_free(h, a), -1, "old block must be gone");
    void *again = ush_heap_alloc(h, 64, 16);
    cr_assert_eq(again, a, "old block's space not reused");
    ush_heap_destroy(h);
    free(base);
}

Test(heap, realloc_edge_cases)
{
    const size_t size = 64 * 1024;
    void        *base = region_new(size);
    ush_heap_t  *h    = heap_new(base, size);
    int          local = 0;

    void *a = ush_heap_realloc(h, NULL, 48);
    cr_assert_eq(a, base, "realloc(NULL) acts as alloc");
    cr_assert_eq(ush_heap_block_size(h, a), 48);
    fill(a, 48, 5);

    cr_assert_null(ush_heap_realloc(h, a, size * 2), "too big must fail");
    cr_assert_null(ush_heap_realloc(h, a, SIZE_MAX), "SIZE_MAX must fail");
    cr_assert_eq(ush_heap_block_size(h, a), 48, "failed realloc must leave p alone");
    cr_assert(same(a, 48, 5));

    cr_assert_null(ush_heap_realloc(h, &local, 16), "foreign pointer");
    cr_assert_null(ush_heap_realloc(h, (char *)a + 16, 16), "interior pointer");
    cr_assert_eq(stats_of(h).nblocks, 1);

    cr_assert_null(ush_heap_realloc(h, a, 0), "size 0 frees");
    cr_assert_eq(ush_heap_block_size(h, a), 0);
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.nblocks, 0);
    cr_assert_eq(s.largest_free, size);
    ush_heap_destroy(h);
    free(base);
}

/* --- free ---------------------------------------------------------------- */

Test(heap, free_null_foreign_and_double)
{
    void       *base = region_new(REGION);
    ush_heap_t *h    = heap_new(base, REGION);
    int         local = 0;
    void       *a = ush_heap_alloc(h, 64, 16);
    void       *b = ush_heap_alloc(h, 64, 16);

    cr_assert_eq(ush_heap_free(h, NULL), 0, "free(NULL) is a no-op");
    cr_assert_eq(ush_heap_free(h, &local), -1, "stack pointer");
    cr_assert_eq(ush_heap_free(h, (char *)base - 16), -1, "just below the region");
    cr_assert_eq(ush_heap_free(h, (char *)base + REGION), -1, "just past the region");
    cr_assert_eq(ush_heap_free(h, (char *)a + 16), -1, "interior pointer");
    cr_assert_eq(ush_heap_free(h, (char *)b + 64), -1, "start of free space");
    ush_heap_stats_t s = stats_of(h);
    cr_assert_eq(s.nblocks, 2, "bad frees must change nothing");
    cr_assert_eq(s.used, 128);

    cr_assert_eq(ush_heap_free(h, a), 0);
    cr_assert_eq(ush_heap_free(h, a), -1, "double free");
    cr_assert_eq(ush_heap_block_size(h, a), 0);
    cr_assert_eq(ush_heap_block_size(h, &local), 0);
    cr_assert_eq(ush_heap_block_size(h, NULL), 0);
    s = stats_of(h);
    cr_assert_eq(s.nblocks, 1);
    cr_assert_eq(s.used, 64);
    ush_heap_destroy(h);
    free(base);
}
