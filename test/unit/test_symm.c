/*
 * Segment translation (ush_seg_find): which symmetric segment holds a range
 * and at what offset, including the edges where an off-by-one would send a
 * put to the wrong place.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/ush_symm.h"

ush_seg_t ush_seg[USH_SEG_COUNT];

#define HEAP_SIZE 4096
#define DATA_SIZE 2048

static _Alignas(64) char heap_buf[HEAP_SIZE];
static _Alignas(64) char data_buf[DATA_SIZE];

static void segs_init(void)
{
    ush_seg[USH_SEG_HEAP] = (ush_seg_t){ (uintptr_t)heap_buf, HEAP_SIZE };
    ush_seg[USH_SEG_DATA] = (ush_seg_t){ (uintptr_t)data_buf, DATA_SIZE };
}

TestSuite(seg, .init = segs_init);

static void found(const void *addr, size_t len, int seg, size_t offset)
{
    size_t off = (size_t)-1;
    int    s   = ush_seg_find(addr, len, &off);
    cr_assert_eq(s, seg, "%p+%zu: segment %d, expected %d", addr, len, s, seg);
    cr_assert_eq(off, offset, "%p+%zu: offset %zu, expected %zu", addr, len, off, offset);
}

static void not_found(const void *addr, size_t len)
{
    size_t off = 777;
    int    s   = ush_seg_find(addr, len, &off);
    cr_assert_eq(s, -1, "%p+%zu must not be symmetric (got segment %d)", addr, len, s);
    cr_assert_eq(off, 777, "offset written on failure");
}

Test(seg, inside_heap_and_data)
{
    found(heap_buf, 8, USH_SEG_HEAP, 0);
    found(heap_buf + 100, 8, USH_SEG_HEAP, 100);
    found(data_buf, 1, USH_SEG_DATA, 0);
    found(data_buf + 5, 1, USH_SEG_DATA, 5);
    found(data_buf + 1000, 1000, USH_SEG_DATA, 1000);
}

Test(seg, whole_segment_and_end_boundary)
{
    found(heap_buf, HEAP_SIZE, USH_SEG_HEAP, 0);
    found(heap_buf + HEAP_SIZE - 8, 8, USH_SEG_HEAP, HEAP_SIZE - 8);
    found(heap_buf + HEAP_SIZE - 1, 1, USH_SEG_HEAP, HEAP_SIZE - 1);
    found(data_buf + DATA_SIZE - 1, 1, USH_SEG_DATA, DATA_SIZE - 1);
    /* One past the end is not inside, even for an empty range. */
    if ((uintptr_t)(heap_buf + HEAP_SIZE) != (uintptr_t)data_buf) {
        not_found(heap_buf + HEAP_SIZE, 1);
        not_found(heap_buf + HEAP_SIZE, 0);
    }
}

Test(seg, range_straddling_the_end)
{
    not_found(heap_buf + HEAP_SIZE - 1, 2);
    not_found(heap_buf + HEAP_SIZE - 8, 9);
    not_found(heap_buf, HEAP_SIZE + 1);
    not_found(data_buf + DATA_SIZE - 4, 8);
    not_found(data_buf + 1, SIZE_MAX);  /* must not wrap to "fits" */
}

Test(seg, address_below_base)
{
    /* Fake bases so "below" is an address no other segment covers. */
    ush_seg[USH_SEG_HEAP] = (ush_seg_t){ 0x100000, HEAP_SIZE };
    ush_seg[USH_SEG_DATA] = (ush_seg_t){ 0x200000, DATA_SIZE };
    not_found((void *)0xfffff, 1);
    not_found((void *)0xfffff, 2);  /* straddles the start */
    not_found((void *)0x1fff00, 8);
    not_found((void *)0x0, 1);
    found((void *)0x100000, 1, USH_SEG_HEAP, 0);
    found((void *)0x200010, 16, USH_SEG_DATA, 16);
}

Test(seg, zero_length)
{
    found(heap_buf, 0, USH_SEG_HEAP, 0);
    found(heap_buf + HEAP_SIZE - 1, 0, USH_SEG_HEAP, HEAP_SIZE - 1);
    found(data_buf + 7, 0, USH_SEG_DATA, 7);
    int local = 0;
    not_found(&local, 0);
}

Test(seg, foreign_addresses_and_empty_segments)
{
    int   local = 0;
    char *heap = malloc(64);
    not_found(&local, sizeof(local));
    not_found(heap, 1);
    free(heap);
    not_found(NULL, 0);

    /* A segment that is not registered (size 0) holds nothing. */
    ush_seg[USH_SEG_DATA] = (ush_seg_t){ 0, 0 };
    not_found(NULL, 0);
    not_found(data_buf, 1);
    found(heap_buf + 3, 1, USH_SEG_HEAP, 3);
}
