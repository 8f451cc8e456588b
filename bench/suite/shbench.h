/* shbench.h: what the benchmark files share. OpenSHMEM 1.4 API only, so
 * Open MPI 4.1's OSHMEM builds the same sources as ushmem. */
#ifndef SB_SHBENCH_H
#define SB_SHBENCH_H

#include <stddef.h>
#include <shmem.h>

/* Largest payload: 4 MiB per buffer. collect, fcollect and alltoall move
 * npes blocks through one buffer, so their block is at most SB_BUF / npes. */
#define SB_BUF ((size_t)4 << 20)
#define SB_MAX_LONGS (SB_BUF / sizeof(long))
/* pWrk of long_sum_to_all over SB_MAX_LONGS elements. */
#define SB_PWRK_LEN (SB_MAX_LONGS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE)

#define SB_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define SB_PSYNC_LEN                                                              \
    SB_MAX2(SB_MAX2(SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE),               \
            SB_MAX2(SHMEM_COLLECT_SYNC_SIZE,                                      \
                    SB_MAX2(SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_BARRIER_SYNC_SIZE)))

/* Where src and dst lie relative to each other matters to some copies: on
 * AMD Zen 3, glibc's memcpy (Open MPI's through UCX) is 12-20x slower when
 * the destination is 8-32 bytes past the source modulo 4 KiB. Both buffers
 * start on a page, as OSU's (and most programs') large buffers do, so
 * neither library meets that case by accident of its allocator. */
#define SB_ALIGN 4096

/* Non-blocking benchmarks issue up to this many operations, then one quiet. */
#define SB_NBI_WINDOW 64

/* One target memory: every symmetric object a benchmark touches lives in
 * it, pSync and pWrk included, so "static" measures a program that keeps
 * its buffers, flags and pSync in global variables. */
struct sb_mem {
    const char *name; /* "heap" or "static" */
    char *src, *dst;  /* SB_BUF bytes each */
    long *ctr;        /* atomics' counter, g's value, barrier's check */
    long *flag;       /* ping-pong's arrival flag */
    long *psync[2];   /* collectives alternate between the two... */
    long *pwrk[2];    /* ...so back-to-back calls need no barrier */
};

/* One point: a benchmark, a target memory and a size. */
struct sb_point {
    struct sb_mem *m;
    size_t bytes;
    int me, npes;
    int peer;    /* point-to-point partner, -1 if this PE sits out */
    int active;  /* 1: this PE issues the operations (PEs < npes/2) */
    int window;  /* nbi: operations per quiet */
    long bad;    /* wrong values seen by the loop itself */
    double timed_us; /* >= 0: the loop timed its calls itself (the driver's
                      * clock then covers only this); < 0: time the loop */
};

enum sb_kind { SB_P2P, SB_COLL };

struct sb_bench {
    const char *name;
    enum sb_kind kind;
    int only8;     /* one size: 8 bytes */
    int per_pe;    /* bytes is a per-PE block: npes * bytes must fit SB_BUF */
    int bandwidth; /* report MB/s */
    /* Fill this PE's buffers for a fresh run of the point (no barrier). */
    void (*prepare)(struct sb_point *pt);
    /* Run iters iterations on every PE; return the operations they count
     * as (time per op = elapsed / that), e.g. iters * window for nbi. */
    long (*loop)(struct sb_point *pt, long iters);
    /* After the timed loop and a barrier: 0 if this PE's results are right,
     * else a message on stderr and non-zero. */
    int (*check)(struct sb_point *pt, long iters);
};

extern const struct sb_bench sb_rma_benches[], sb_amo_benches[], sb_p2p_benches[],
    sb_coll_benches[];
extern const int sb_n_rma, sb_n_amo, sb_n_p2p, sb_n_coll;

/* Byte k of a block identified by seed: differs between seeds and along
 * the block, and is never the byte sb_fill_other writes at the same k. */
static inline unsigned char sb_pattern(size_t k, int seed)
{
    return (unsigned char)(k * 7 + (k >> 8) + (unsigned)seed * 29 + 1);
}
void sb_fill(char *buf, size_t len, int seed);
void sb_fill_other(char *buf, size_t len, int seed); /* anything but sb_fill's */
/* 0 if buf holds sb_fill(seed); else a message naming what and where. */
int sb_verify(const char *what, const struct sb_point *pt, const char *buf, size_t len,
              int seed);
int sb_fail(const struct sb_point *pt, const char *bench, const char *fmt, ...);

#endif
