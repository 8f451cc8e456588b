/*
 * Symmetric heap management: sequences of shmem_malloc/free/realloc/align/
 * calloc with varying sizes, then exhaustion.  Run with
 * SHMEM_SYMMETRIC_SIZE=4M (set by CMake) so exhaustion is quick.
 *
 * "Symmetric" is checked by use, not by comparing addresses (which need not
 * be equal): each PE writes a pattern over the whole of its right
 * neighbour's copy of a block, through the address its own call returned,
 * and the neighbour verifies every byte.  Live blocks are re-verified after
 * later allocations and frees, which catches overlapping blocks and
 * allocator metadata written into user memory.
 */
#include "pe_test.h"

#define MAX_LIVE 64
#define FILL_BLOCK ((size_t)256 << 10)
#define MAX_FILL 4096

/* How far past SHMEM_SYMMETRIC_SIZE the heap may hand out memory: none for
 * ushmem; raise it only to validate this test against a library that adds
 * its own reserve (Open MPI gives 5.75 MiB out of "4M"). */
#ifndef HEAP_SLACK_PERCENT
#define HEAP_SLACK_PERCENT 0
#endif

typedef struct {
    unsigned char *p;
    size_t         size;
    uint64_t       tag;
} block_t;

static block_t live[MAX_LIVE];
static int     nlive;
static uint64_t next_tag = 1;

static uint64_t seed(int writer, int owner, uint64_t tag)
{
    return pe_key((uint64_t)writer, (uint64_t)owner, tag, 0, 123);
}

/* Every PE writes its right neighbour's copy of b; every PE checks its own. */
static void write_neighbour(const block_t *b)
{
    const int      right = (pe_me + 1) % pe_npes;
    unsigned char *buf = malloc(b->size);

    CHECK(buf != NULL);
    pe_fill_pattern(buf, b->size, seed(pe_me, right, b->tag));
    shmem_putmem(b->p, buf, b->size, right);
    free(buf);
}

static void check_own(const block_t *b)
{
    const int left = (pe_me + pe_npes - 1) % pe_npes;
    char      what[96];

    snprintf(what, sizeof(what), "block tag %" PRIu64 " (%zu bytes at %p)", b->tag, b->size,
             (void *)b->p);
    pe_check_pattern(__FILE__, __LINE__, what, b->p, b->size, seed(left, pe_me, b->tag));
}

static void check_all_live(void)
{
    for (int i = 0; i < nlive; i++)
        check_own(&live[i]);
}

/* No two live blocks share a byte. */
static void check_disjoint(void)
{
    for (int i = 0; i < nlive; i++)
        for (int j = i + 1; j < nlive; j++) {
            uintptr_t a0 = (uintptr_t)live[i].p, a1 = a0 + live[i].size;
            uintptr_t b0 = (uintptr_t)live[j].p, b1 = b0 + live[j].size;
            CHECK_MSG(a1 <= b0 || b1 <= a0, "blocks [%p,+%zu) and [%p,+%zu) overlap",
                      (void *)live[i].p, live[i].size, (void *)live[j].p, live[j].size);
        }
}

static void add_live(void *p, size_t size)
{
    CHECK_MSG(p != NULL, "allocation of %zu bytes failed", size);
    CHECK(nlive < MAX_LIVE);
    live[nlive] = (block_t){p, size, next_tag++};
    write_neighbour(&live[nlive]);
    nlive++;
    shmem_barrier_all();
    check_own(&live[nlive - 1]);
}

static void free_live(int i)
{
    shmem_free(live[i].p);
    live[i] = live[--nlive];
}

/* shmem_malloc and shmem_free in a fixed interleaving, identical on all
 * PEs (a deterministic pseudo-random sequence). */
static void test_sequence(void)
{
    static const size_t sizes[] = {1, 8, 13, 4096, 100000, 3, 65541, 512, 7, 250000};
    uint64_t            rng = 42;

    pe_section("malloc/free sequence");
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        add_live(shmem_malloc(sizes[i]), sizes[i]);
    check_disjoint();
    for (int i = nlive - 1; i >= 0; i -= 2) /* free every other block: holes */
        free_live(i);
    check_all_live();
    {
        static const size_t refill[] = {5, 9000, 64, 1, 30000, 120000};
        for (size_t i = 0; i < sizeof(refill) / sizeof(refill[0]); i++)
            add_live(shmem_malloc(refill[i]), refill[i]);
    }
    check_disjoint();
    check_all_live();

    for (int step = 0; step < 150; step++) {
        rng = pe_mix64(rng);
        if (nlive > 0 && (rng % 3 == 0 || nlive == MAX_LIVE)) {
            free_live((int)((rng >> 8) % (uint64_t)nlive));
        } else {
            size_t size = 1 + (size_t)((rng >> 16) % ((rng >> 40) % 4 == 0 ? 60000 : 600));
            add_live(shmem_malloc(size), size);
        }
    }
    check_disjoint();
    check_all_live();
    while (nlive > 0)
        free_live(nlive - 1);
}

static void test_calloc(void)
{
    const size_t   n = 16384, size = 4;
    unsigned char *dirty, *c;

    pe_section("calloc");
    /* Dirty the memory calloc is likely to hand out next. */
    dirty = shmem_malloc(n * size);
    CHECK(dirty != NULL);
    memset(dirty, 0xa5, n * size);
    shmem_free(dirty);

    /* Zeroed on every PE before any PE returns: the right neighbour's copy
     * is written at once, and that write must not be wiped by a late
     * memset there.  Our own slot for the left neighbour's write is left
     * out of the zero check, since the write may land at any moment. */
    c = shmem_calloc(n, size);
    CHECK(c != NULL);
    shmem_int_p((int *)c + pe_me, pe_me + 1, (pe_me + 1) % pe_npes);
    {
        const int    left = (pe_me + pe_npes - 1) % pe_npes;
        const size_t slot = (size_t)left * sizeof(int);
        CHECK_FILLED(c, slot, 0);
        CHECK_FILLED(c + slot + sizeof(int), n * size - slot - sizeof(int), 0);
        shmem_barrier_all();
        CHECK_EQ(((int *)c)[left], left + 1);
    }
    shmem_free(c);

    c = shmem_calloc(1, 1);
    CHECK(c != NULL);
    CHECK_EQ(c[0], 0);
    shmem_free(c);
    CHECK(shmem_calloc(0, 8) == NULL);
    CHECK(shmem_calloc(8, 0) == NULL);
}

static void test_realloc(void)
{
    const size_t   small = 1000, big = 200000, shrunk = 500;
    unsigned char *r, *blocker;
    block_t        b;

    pe_section("realloc");
    r = shmem_malloc(small);
    CHECK(r != NULL);
    blocker = shmem_malloc(100); /* so growing cannot simply extend in place */
    CHECK(blocker != NULL);
    pe_fill_pattern(r, small, seed(pe_me, pe_me, 1000));

    r = shmem_realloc(r, big);
    CHECK(r != NULL);
    CHECK_PATTERN(r, small, seed(pe_me, pe_me, 1000)); /* contents kept */
    shmem_barrier_all(); /* every PE checked before neighbours overwrite */
    b = (block_t){r, big, next_tag++};
    write_neighbour(&b); /* the grown block is symmetric in full */
    shmem_barrier_all();
    check_own(&b);

    pe_fill_pattern(r, big, seed(pe_me, pe_me, 1001));
    r = shmem_realloc(r, shrunk);
    CHECK(r != NULL);
    CHECK_PATTERN(r, shrunk, seed(pe_me, pe_me, 1001));
    shmem_barrier_all();
    b = (block_t){r, shrunk, next_tag++};
    write_neighbour(&b);
    shmem_barrier_all();
    check_own(&b);

    {
        unsigned char *m = shmem_realloc(NULL, 777); /* behaves like shmem_malloc */
        CHECK(m != NULL);
        b = (block_t){m, 777, next_tag++};
        write_neighbour(&b);
        shmem_barrier_all();
        check_own(&b);
        (void)shmem_realloc(m, 0); /* frees m */
    }
    shmem_free(blocker);
    shmem_free(r);
}

static void test_align(void)
{
    static const size_t aligns[] = {8, 16, 64, 256, 4096, 65536, 262144};
    const int           na = (int)(sizeof(aligns) / sizeof(aligns[0]));

    pe_section("align");
    for (int i = 0; i < na; i++) {
        size_t size = 100 + aligns[i] / 2;
        void  *q = shmem_align(aligns[i], size);
        CHECK_MSG(q != NULL, "shmem_align(%zu, %zu) failed", aligns[i], size);
        CHECK_MSG((uintptr_t)q % aligns[i] == 0, "shmem_align(%zu) returned %p", aligns[i], q);
        add_live(q, size);
    }
    check_disjoint();
    check_all_live();
    for (int i = 0; i < na; i += 2) /* free in a different order */
        free_live(0);
    check_all_live();
    while (nlive > 0)
        free_live(nlive - 1);
}

static void test_zero_and_null(void)
{
    pe_section("malloc(0), free(NULL)");
#if PE_SPEC_AT_LEAST(1, 5)
    CHECK(shmem_malloc(0) == NULL); /* 1.5: size 0 allocates nothing */
#endif
    shmem_free(NULL); /* no action */
}

/* SHMEM_SYMMETRIC_SIZE in bytes, 0 if unset or unreadable. */
static size_t heap_size_from_env(void)
{
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    char       *end;
    double      v;

    if (!env)
        return 0;
    v = strtod(env, &end);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    case 't': case 'T': v *= 1024.0 * 1024 * 1024 * 1024; break;
    case '\0': break;
    default: return 0;
    }
    return (size_t)v;
}

static void test_exhaustion(void)
{
    const size_t heap = heap_size_from_env();
    void        *keep = shmem_malloc(4096), *p;
    void       **fill;
    int         *counts;
    int          n = 0;

    pe_section("exhaustion");
    CHECK(keep != NULL);
    memset(keep, 0x5a, 4096);
    if (heap > 0)
        CHECK(shmem_malloc(heap + ((size_t)1 << 20)) == NULL);
    CHECK(shmem_malloc((size_t)1 << 62) == NULL);
    CHECK(shmem_align(64, (size_t)1 << 62) == NULL);
    CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL); /* count * size overflows */
    p = shmem_realloc(keep, (size_t)1 << 62);
    CHECK(p == NULL);
    CHECK_FILLED(keep, 4096, 0x5a); /* a failed realloc leaves the block alone */

    if (heap == 0) {
        pe_section("SHMEM_SYMMETRIC_SIZE unset: heap fill not tested");
        shmem_free(keep);
        return;
    }
    /* Fill the heap, agree on how far, free, and fill again: freed space
     * must coalesce and be reusable. */
    fill = calloc(MAX_FILL, sizeof(void *));
    counts = shmem_calloc((size_t)pe_npes, sizeof(int));
    CHECK(fill && counts);
    while (n < MAX_FILL && (fill[n] = shmem_malloc(FILL_BLOCK)) != NULL)
        n++;
    CHECK_MSG(n > 0 && (size_t)n * FILL_BLOCK <= heap + heap / 100 * HEAP_SLACK_PERCENT,
              "%d blocks of %zu bytes fit a %zu-byte heap", n, FILL_BLOCK, heap);
    shmem_int_p(&counts[pe_me], n, 0);
    shmem_barrier_all();
    if (pe_me == 0)
        for (int s = 0; s < pe_npes; s++)
            CHECK_MSG(counts[s] == n, "PE %d fitted %d blocks, PE 0 %d", s, counts[s], n);
    {
        block_t b = {fill[n - 1], FILL_BLOCK, next_tag++};
        write_neighbour(&b); /* the last block before exhaustion is usable */
        shmem_barrier_all();
        check_own(&b);
    }
    for (int i = 0; i < n; i++)
        shmem_free(fill[i]);

    p = shmem_malloc((size_t)n * FILL_BLOCK / 2); /* needs coalesced space */
    CHECK_MSG(p != NULL, "after freeing %d blocks, %zu bytes could not be allocated", n,
              (size_t)n * FILL_BLOCK / 2);
    shmem_free(p);
    for (int i = 0; i < n; i++) {
        fill[i] = shmem_malloc(FILL_BLOCK);
        CHECK_MSG(fill[i] != NULL, "refill: block %d of %d failed", i, n);
    }
    for (int i = n - 1; i >= 0; i--)
        shmem_free(fill[i]);
    free(fill);
    shmem_free(counts);
    CHECK_FILLED(keep, 4096, 0x5a);
    shmem_free(keep);
}

int main(void)
{
    pe_test_init();
    test_sequence();
    test_calloc();
    test_realloc();
    test_align();
    test_zero_and_null();
    test_exhaustion();
    return pe_test_finish();
}
