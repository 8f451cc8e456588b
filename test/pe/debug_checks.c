/*
 * Argument checks: `debug_checks <case>` commits exactly one misuse, named
 * by <case>, which the library must refuse with a message naming the
 * routine and the argument and by ending the job (debugchk.cmake asserts
 * the status, the message, that no success line was printed and that
 * nothing is left behind). `debug_checks ok` makes the same calls with
 * correct arguments and must pass.
 *
 * Expects SHMEM_SYMMETRIC_SIZE=4M, all of it the user's: the user's heap
 * starts 2 MiB-aligned (USH_SYMM_MIN_ALIGN) and ends the heap segment (the
 * library's own objects lie before it), so a first user block lies in its
 * first 2 MiB and gives the segment's end.
 */
#include "pe_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAP_SIZE  ((uintptr_t)4 << 20) /* SHMEM_SYMMETRIC_SIZE */
#define HEAP_ALIGN ((uintptr_t)2 << 20) /* USH_SYMM_MIN_ALIGN */

static long          sym_long[8];
static long          sym_lock;
static long          sym_psync[SHMEM_SYNC_SIZE];
static volatile long sink;

/* lib.sh's expect_clean finds leftover PEs through these files. */
static void write_pid(void)
{
    const char *dir = getenv("LAUNCH_TEST_PIDDIR");
    char        path[4096];
    FILE       *f;
    if (!dir) return;
    /* the launcher's rank: some cases run before shmem_init */
    snprintf(path, sizeof(path), "%s/pe.%s.pid", dir,
             getenv("PMIX_RANK") ? getenv("PMIX_RANK") : "x");
    if ((f = fopen(path, "w")) != NULL) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
}

/* Every case: bad != 0 commits the misuse, bad == 0 the correct call. */
typedef void (*case_fn)(int bad);

static void c_pe_range(int bad)
{
    long *dst = shmem_malloc(sizeof(long));
    long  v   = 1;
    shmem_long_put(dst, &v, 1, bad ? shmem_n_pes() : (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_barrier_all();
    shmem_free(dst);
}

/* A context on a one-PE team: its PE numbers count that team's members,
 * so PE 1 is out of range though the job has two. */
static void c_ctx_pe_range(int bad)
{
    shmem_team_t team;
    shmem_ctx_t  ctx;
    long         v = 1;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, shmem_my_pe(), 1, 1, NULL, 0, &team), 0);
    CHECK_EQ(shmem_team_create_ctx(team, 0, &ctx), 0);
    shmem_ctx_long_put(ctx, sym_long, &v, 1, bad ? 1 : 0);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(team);
}

static void c_ptr_pe(int bad)
{
    sink = shmem_ptr(sym_long, bad ? -1 : shmem_my_pe()) != NULL;
}

static void c_team_ptr_pe(int bad)
{
    sink = shmem_team_ptr(SHMEM_TEAM_WORLD, sym_long, bad ? shmem_n_pes() : 0) != NULL;
}

static void c_nonsymm_stack(int bad)
{
    long local[4] = { 0 }, v = 1;
    shmem_long_put(bad ? local : sym_long, &v, 1, shmem_my_pe());
    shmem_quiet();
}

/* NULL (an unchecked failed shmem_malloc, a pointer never set): the message
 * says NULL, not "a stack or malloc() address". */
static void c_null_dest(int bad)
{
    long v = 1;
    shmem_long_put(bad ? NULL : sym_long, &v, 1, shmem_my_pe());
    shmem_quiet();
}

/* An address 24 bytes past the heap's end: the message says so. */
static void c_past_heap(int bad)
{
    char     *blk  = shmem_malloc(64);
    uintptr_t end  = ((uintptr_t)blk & ~(HEAP_ALIGN - 1)) + HEAP_SIZE;
    long     *dest = bad ? (long *)(end + 24) : (long *)blk;
    long      v    = 1;
    shmem_long_put(dest, &v, 1, shmem_my_pe());
    shmem_quiet();
    shmem_free(blk);
}

/* Starts in the heap, but the length runs past its end: the whole heap
 * from its first block, plus one byte. */
static void c_len_past_heap(int bad)
{
    char *blk = shmem_malloc(64);
    char  src[64] = { 0 };
    if (bad) {
        uintptr_t end = ((uintptr_t)blk & ~(HEAP_ALIGN - 1)) + HEAP_SIZE;
        shmem_putmem(blk, src, end - (uintptr_t)blk + 1, shmem_my_pe());
    } else {
        shmem_putmem(blk, src, sizeof(src), shmem_my_pe());
    }
    shmem_quiet();
    shmem_free(blk);
}

static void c_nelems_overflow(int bad)
{
    long *dst = shmem_malloc(8 * sizeof(long));
    long  src[8] = { 0 };
    /* A negative count converted to size_t. */
    shmem_long_put(dst, src, bad ? (size_t)-2 : 8, shmem_my_pe());
    shmem_quiet();
    shmem_free(dst);
}

/* 8 elements at stride 2^20: the span (56 MiB) leaves the heap. */
static void c_strided_span(int bad)
{
    long *dst = shmem_malloc(64 * sizeof(long));
    long  src[8] = { 0 };
    shmem_long_iput(dst, src, bad ? (ptrdiff_t)1 << 20 : 8, 1, 8, shmem_my_pe());
    shmem_quiet();
    shmem_free(dst);
}

static void c_amo_nonsymm(int bad)
{
    long local = 0;
    shmem_long_atomic_inc(bad ? &local : &sym_long[0], shmem_my_pe());
}

static void c_wait_nonsymm(int bad)
{
    long local = 1;
    sym_long[1] = 1;
    shmem_long_wait_until(bad ? &local : &sym_long[1], SHMEM_CMP_EQ, 1);
}

static void c_lock_nonsymm(int bad)
{
    long local = 0;
    shmem_set_lock(bad ? &local : &sym_lock);
    shmem_clear_lock(bad ? &local : &sym_lock);
}

static void c_signal_overflow(int bad)
{
    static uint64_t sig;
    long           *dst = shmem_malloc(8 * sizeof(long));
    long            src[8] = { 0 };
    shmem_long_put_signal(dst, src, bad ? SIZE_MAX / 4 : 8, &sig, 1, SHMEM_SIGNAL_ADD,
                          shmem_my_pe());
    shmem_quiet();
    shmem_free(dst);
}

static void c_bcast_nonsymm(int bad)
{
    long *sdst = shmem_malloc(4 * sizeof(long));
    long  local[4] = { 0 }, src[4] = { 1, 2, 3, 4 };
    shmem_long_broadcast(SHMEM_TEAM_WORLD, bad ? local : sdst, src, 4, 0);
    shmem_free(sdst);
}

/* A reduce-sized pSync at the very end of the heap given to a broadcast,
 * which needs SHMEM_BCAST_SYNC_SIZE: the message says to declare it so. */
static long sym_bcast_psync[SHMEM_BCAST_SYNC_SIZE];
static void c_psync_short(int bad)
{
    char     *blk   = shmem_malloc(64);
    uintptr_t end   = ((uintptr_t)blk & ~(HEAP_ALIGN - 1)) + HEAP_SIZE;
    long     *short_psync = (long *)end - 2; /* zero: never used; 2 of 4 words */
    long      src[4] = { 1, 2, 3, 4 };
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++) sym_bcast_psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_broadcast64(blk, src, 4, 0, 0, 0, shmem_n_pes(), bad ? short_psync : sym_bcast_psync);
    shmem_barrier_all();
    shmem_free(blk);
}

static void c_alltoall_span(int bad)
{
    int   n   = shmem_n_pes();
    long *dst = shmem_malloc(4 * (size_t)n * sizeof(long));
    long *src = shmem_malloc(4 * (size_t)n * sizeof(long));
    /* dst stride 2^20 elements runs out of the heap. */
    shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, bad ? (ptrdiff_t)1 << 20 : 1, 1, 4);
    shmem_free(src);
    shmem_free(dst);
}

/* The active set PE_start 0, stride 1, n_pes + 1 PEs runs past the job. */
static void c_aset_past_job(int bad)
{
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) sym_psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_barrier(0, 0, shmem_n_pes() + (bad ? 1 : 0), sym_psync);
}

static void c_aset_stride(int bad)
{
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) sym_psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_barrier(0, bad ? 40 : 0, shmem_n_pes(), sym_psync);
}

/* SHMEM_DEBUG only: a PE outside the active set calls a reduction over it
 * (without SHMEM_DEBUG the call returns at once, as elsewhere). */
static void c_aset_outsider(int bad)
{
    static long dst, src = 5, wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) sym_psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (shmem_my_pe() == 0 || bad) shmem_long_sum_to_all(&dst, &src, 1, 0, 0, 1, wrk, sym_psync);
    shmem_barrier_all();
}

/* SHMEM_DEBUG only: pSync does not hold SHMEM_SYNC_VALUE. */
static void c_psync_dirty(int bad)
{
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) sym_psync[i] = SHMEM_SYNC_VALUE;
    if (bad) sym_psync[SHMEM_BARRIER_SYNC_SIZE - 1] = 42;
    shmem_barrier_all();
    shmem_barrier(0, 0, shmem_n_pes(), sym_psync);
}

static void c_team_destroyed(int bad)
{
    shmem_team_t t;
    int          rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    CHECK_EQ(rc, 0);
    if (bad) shmem_team_destroy(t);
    sink = shmem_team_n_pes(t);
    if (!bad) shmem_team_destroy(t);
}

static void c_team_destroyed_coll(int bad)
{
    shmem_team_t t;
    int          rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    CHECK_EQ(rc, 0);
    if (bad) shmem_team_destroy(t);
    shmem_team_sync(t);
    if (!bad) shmem_team_destroy(t);
}

static void c_team_bogus(int bad)
{
    shmem_team_t t = bad ? (shmem_team_t)(void *)sym_long : SHMEM_TEAM_WORLD;
    sink = shmem_team_my_pe(t);
}

/* translate_pe with a bad pe has a defined answer (-1): no abort. */
static void c_translate_bad_pe(int bad)
{
    (void)bad;
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, shmem_n_pes(), SHMEM_TEAM_WORLD), -1);
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD), -1);
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
}

/* SHMEM_DEBUG only: PE 1 asks for a different size. */
static void c_malloc_mismatch(int bad)
{
    void *p = shmem_malloc(64 + (bad && shmem_my_pe() == 1 ? 8 : 0));
    shmem_free(p);
}

static void c_free_not_heap(int bad)
{
    void *p = shmem_malloc(64);
    shmem_free(bad ? (void *)sym_long : p);
    if (bad) shmem_free(p);
}

static void c_free_twice(int bad)
{
    void *p = shmem_malloc(64);
    shmem_free(p);
    if (bad) shmem_free(p);
}

static void c_free_inside(int bad)
{
    char *p = shmem_malloc(64);
    shmem_free(bad ? p + 16 : p);
}

static void c_realloc_bad(int bad)
{
    char *p = shmem_malloc(64);
    char *q = shmem_realloc(bad ? p + 8 : p, 128);
    shmem_free(q);
}

/* Calls outside the library's life: they run before
 * pe_test_init (BEFORE), or after a shmem_finalize (AFTER, which
 * initialises and finalizes itself); with bad == 0 the same call is made
 * while the library is up. The message must say which. */
static void c_before_put(int bad)
{
    long v = 1;
    shmem_long_put(sym_long, &v, 1, 0);
    if (!bad) shmem_quiet();
}

static void c_before_amo(int bad)
{
    (void)bad;
    shmem_long_atomic_inc(&sym_long[1], 0);
}

static void c_before_team(int bad)
{
    (void)bad;
    sink = (unsigned long)shmem_team_n_pes(SHMEM_TEAM_WORLD);
}

static void c_before_signal(int bad)
{
    long v = 1;
    shmem_long_put_signal(&sym_long[2], &v, 1, (uint64_t *)&sym_long[3], 1, SHMEM_SIGNAL_SET, 0);
    if (!bad) shmem_quiet();
}

static void finalize_if(int bad)
{
    shmem_barrier_all();
    if (bad) shmem_finalize();
}

static void c_after_put_heap(int bad)
{
    long *p = shmem_malloc(sizeof(long)), v = 1;
    finalize_if(bad);
    shmem_long_put(p, &v, 1, 0);
    if (!bad) {
        shmem_barrier_all();
        shmem_free(p);
    }
}

static void c_after_g(int bad)
{
    finalize_if(bad);
    sink = (unsigned long)shmem_long_g(sym_long, 0);
}

static void c_after_amo(int bad)
{
    finalize_if(bad);
    sink = (unsigned long)shmem_long_atomic_fetch_add(&sym_long[1], 1, 0);
}

static void c_after_team(int bad)
{
    finalize_if(bad);
    sink = (unsigned long)shmem_team_my_pe(SHMEM_TEAM_WORLD);
}

static void c_after_barrier(int bad)
{
    finalize_if(bad);
    shmem_barrier_all();
}

/* A context used after shmem_ctx_destroy: its slot stays marked until
 * every other slot has been used. */
static void c_ctx_destroyed(int bad)
{
    shmem_ctx_t ctx;
    long        v = 1;
    CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
    if (bad) shmem_ctx_destroy(ctx);
    shmem_ctx_long_put(ctx, sym_long, &v, 1, (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_ctx_quiet(ctx);
    if (!bad) shmem_ctx_destroy(ctx);
}

static void c_ctx_destroyed_quiet(int bad)
{
    shmem_ctx_t ctx;
    CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
    if (bad) shmem_ctx_destroy(ctx);
    shmem_ctx_quiet(ctx);
    if (!bad) shmem_ctx_destroy(ctx);
}

static void c_ctx_twice(int bad)
{
    shmem_ctx_t ctx;
    CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
    shmem_ctx_destroy(ctx);
    if (bad) shmem_ctx_destroy(ctx);
}

/* A handle that is no context (here a symmetric long's address): refused
 * without being followed. */
static void c_ctx_bogus(int bad)
{
    shmem_ctx_t ctx = bad ? (shmem_ctx_t)(void *)sym_long : SHMEM_CTX_DEFAULT;
    long        v   = 1;
    shmem_ctx_long_put(ctx, sym_long, &v, 1, shmem_my_pe());
    shmem_ctx_quiet(ctx);
}

static void c_ctx_bogus_fence(int bad)
{
    long        junk[16];
    memset(junk, 0x5a, sizeof(junk));
    shmem_ctx_fence(bad ? (shmem_ctx_t)(void *)junk : SHMEM_CTX_DEFAULT);
}

/* Atomics on an address that is not a multiple of the type's size, to a
 * peer (the transport's path where it is remote) and to itself (CPU
 * atomics): the same message on both. */
static void c_amo_misaligned(int bad)
{
    char *h = shmem_malloc(64);
    shmem_long_atomic_add((long *)(void *)(h + (bad ? 1 : 8)), 1,
                          (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_barrier_all();
    shmem_free(h);
}

static void c_amo_misaligned_self(int bad)
{
    char *h = shmem_malloc(64);
    sink = shmem_int_atomic_fetch((int *)(void *)(h + (bad ? 2 : 4)), shmem_my_pe());
    shmem_barrier_all();
    shmem_free(h);
}

static void c_ctx_create_before(int bad)
{
    shmem_ctx_t ctx;
    if (bad) {
        shmem_ctx_create(0, &ctx);
    } else {
        CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
        shmem_ctx_destroy(ctx);
    }
}

static void c_realloc_mismatch(int bad)
{
    void *p = shmem_malloc(64);
    p = shmem_realloc(p, 128 + (bad && shmem_my_pe() == 1 ? 8 : 0));
    shmem_free(p);
}

static void c_calloc_mismatch(int bad)
{
    void *p = shmem_calloc(8, 8 + (bad && shmem_my_pe() == 1 ? 1 : 0));
    shmem_free(p);
}

enum { DURING, BEFORE, AFTER };

static const struct {
    const char *name;
    case_fn     fn;
    int         when;
} cases[] = {
    { "ctx_destroyed", c_ctx_destroyed, DURING },
    { "ctx_destroyed_quiet", c_ctx_destroyed_quiet, DURING },
    { "ctx_twice", c_ctx_twice, DURING },
    { "ctx_bogus", c_ctx_bogus, DURING },
    { "ctx_bogus_fence", c_ctx_bogus_fence, DURING },
    { "amo_misaligned", c_amo_misaligned, DURING },
    { "amo_misaligned_self", c_amo_misaligned_self, DURING },
    { "ctx_create_before", c_ctx_create_before, BEFORE },
    { "realloc_mismatch", c_realloc_mismatch, DURING },
    { "calloc_mismatch", c_calloc_mismatch, DURING },
    { "before_put", c_before_put, BEFORE },
    { "before_amo", c_before_amo, BEFORE },
    { "before_team", c_before_team, BEFORE },
    { "before_signal", c_before_signal, BEFORE },
    { "after_put_heap", c_after_put_heap, AFTER },
    { "after_g", c_after_g, AFTER },
    { "after_amo", c_after_amo, AFTER },
    { "after_team", c_after_team, AFTER },
    { "after_barrier", c_after_barrier, AFTER },
    { "pe_range", c_pe_range, DURING },
    { "ctx_pe_range", c_ctx_pe_range, DURING },
    { "ptr_pe", c_ptr_pe, DURING },
    { "team_ptr_pe", c_team_ptr_pe, DURING },
    { "nonsymm_stack", c_nonsymm_stack, DURING },
    { "null_dest", c_null_dest, DURING },
    { "past_heap", c_past_heap, DURING },
    { "len_past_heap", c_len_past_heap, DURING },
    { "nelems_overflow", c_nelems_overflow, DURING },
    { "strided_span", c_strided_span, DURING },
    { "amo_nonsymm", c_amo_nonsymm, DURING },
    { "wait_nonsymm", c_wait_nonsymm, DURING },
    { "lock_nonsymm", c_lock_nonsymm, DURING },
    { "signal_overflow", c_signal_overflow, DURING },
    { "bcast_nonsymm", c_bcast_nonsymm, DURING },
    { "psync_short", c_psync_short, DURING },
    { "alltoall_span", c_alltoall_span, DURING },
    { "aset_past_job", c_aset_past_job, DURING },
    { "aset_stride", c_aset_stride, DURING },
    { "aset_outsider", c_aset_outsider, DURING },
    { "psync_dirty", c_psync_dirty, DURING },
    { "team_destroyed", c_team_destroyed, DURING },
    { "team_destroyed_coll", c_team_destroyed_coll, DURING },
    { "team_bogus", c_team_bogus, DURING },
    { "translate_bad_pe", c_translate_bad_pe, DURING },
    { "malloc_mismatch", c_malloc_mismatch, DURING },
    { "free_not_heap", c_free_not_heap, DURING },
    { "free_twice", c_free_twice, DURING },
    { "free_inside", c_free_inside, DURING },
    { "realloc_bad", c_realloc_bad, DURING },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <case>|ok\n", argv[0]);
        return 2;
    }
    write_pid();
    for (size_t i = 0; i < NCASES; i++) {
        if (cases[i].when == BEFORE && strcmp(argv[1], cases[i].name) == 0) {
            cases[i].fn(1);
            /* reaching here means the misuse was accepted */
            printf("misuse '%s' was accepted\n", argv[1]);
            return 1;
        }
    }
    pe_test_init();
    if (strcmp(argv[1], "ok") == 0) {
        for (size_t i = 0; i < NCASES; i++) {
            pe_section(cases[i].name);
            cases[i].fn(0);
            shmem_barrier_all();
        }
        return pe_test_finish();
    }
    for (size_t i = 0; i < NCASES; i++) {
        if (strcmp(argv[1], cases[i].name) == 0) {
            pe_section(cases[i].name);
            cases[i].fn(1);
            if (cases[i].when == AFTER) {
                printf("misuse '%s' was accepted\n", argv[1]);
                return 1;
            }
            shmem_barrier_all();
            /* Reaching here means the misuse was accepted: the test
             * fails on this line (and on the success line). */
            if (shmem_my_pe() == 0) printf("misuse '%s' was accepted\n", argv[1]);
            return pe_test_finish();
        }
    }
    fprintf(stderr, "debug_checks: unknown case '%s'\n", argv[1]);
    shmem_finalize();
    return 2;
}
