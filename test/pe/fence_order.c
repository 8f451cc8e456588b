/*
 * Ordering: data then flag.
 *
 * Fence phase: in every round each PE puts a data block to every PE, calls
 * shmem_fence (or shmem_ctx_fence), then sets a flag there (shmem_p,
 * atomic_set or a one-element put, by round).  The target waits for the flag
 * with shmem_wait_until and must then see the whole block of that round.
 * Block lengths run from one long to 256 KiB, blocking and nbi puts, so an
 * implementation that lets a small flag overtake a large or pipelined block
 * is caught.  The target acknowledges each round, and the source waits for
 * the acknowledgement before overwriting the block.
 *
 * Quiet phase: same, but all blocks to all PEs first, one shmem_quiet, then
 * all flags.
 */
#include "pe_test.h"

#define MAX_LONGS ((size_t)32 << 10) /* 256 KiB block */
#define ROUNDS    10

enum { MODE_FENCE = 0, MODE_QUIET = 1 };

static const size_t block_longs[] = {1, 8, 100, 2048, MAX_LONGS};
#define NSIZES (sizeof(block_longs) / sizeof(block_longs[0]))

static long *data; /* symmetric: MAX_LONGS per source PE */
static long *flag; /* symmetric: one per source PE, the round last sent */
static long *ack;  /* symmetric: one per target PE, the round it last consumed */
static long *out;  /* private: one block per target, intact until completion */

static size_t round_len(int mode, int r)
{
    return block_longs[(size_t)(r + mode) % NSIZES];
}

static uint64_t seed(int src, int dst, int r)
{
    return pe_key((uint64_t)src, (uint64_t)dst, (uint64_t)r, 0, 77);
}

static void put_data(int r, int t, size_t n)
{
    long *o = out + (size_t)t * MAX_LONGS;
    pe_fill_pattern(o, n * sizeof(long), seed(pe_me, t, r));
    if (r % 2)
        shmem_long_put_nbi(data + (size_t)pe_me * MAX_LONGS, o, n, t);
    else
        shmem_long_put(data + (size_t)pe_me * MAX_LONGS, o, n, t);
}

static void put_flag(int r, int t)
{
    long value = r;

    switch (r % 3) {
    case 0: shmem_long_p(&flag[pe_me], r, t); break;
    case 1: shmem_long_atomic_set(&flag[pe_me], r, t); break;
    default: shmem_long_put(&flag[pe_me], &value, 1, t);
        break;
    }
}

static void fence(int r)
{
    if (r % 2)
        shmem_ctx_fence(SHMEM_CTX_DEFAULT);
    else
        shmem_fence();
}

static void produce(int mode, int r)
{
    const int npes = pe_npes;

    /* The previous block to t must have been consumed before overwriting. */
    for (int t = 0; t < npes; t++)
        shmem_long_wait_until(&ack[t], SHMEM_CMP_GE, r - 1);

    if (mode == MODE_FENCE) {
        for (int k = 1; k <= npes; k++) {
            const int t = (pe_me + k) % npes;
            put_data(r, t, round_len(mode, r));
            fence(r);
            put_flag(r, t);
        }
    } else {
        for (int k = 1; k <= npes; k++)
            put_data(r, (pe_me + k) % npes, round_len(mode, r));
        shmem_quiet();
        for (int k = 1; k <= npes; k++)
            put_flag(r, (pe_me + k) % npes);
    }
}

static void consume(int mode, int r)
{
    const size_t n = round_len(mode, r);

    for (int k = 0; k < pe_npes; k++) {
        const int s = (pe_me + pe_npes - k) % pe_npes;
        shmem_long_wait_until(&flag[s], SHMEM_CMP_GE, r);
        CHECK_EQ(PE_READ(flag[s]), r);
        /* The whole block, and nothing of the previous round, is visible. */
        pe_check_pattern(__FILE__, __LINE__, mode == MODE_FENCE ? "block after fence+flag"
                                                                : "block after quiet+flag",
                         data + (size_t)s * MAX_LONGS, n * sizeof(long), seed(s, pe_me, r));
    }
    for (int k = 0; k < pe_npes; k++) {
        const int s = (pe_me + pe_npes - k) % pe_npes;
        shmem_long_atomic_set(&ack[pe_me], r, s);
    }
}

int main(void)
{
    pe_test_init();
    const size_t n = (size_t)pe_npes;

    data = shmem_calloc(n * MAX_LONGS, sizeof(long));
    flag = shmem_calloc(n, sizeof(long));
    ack  = shmem_calloc(n, sizeof(long));
    out  = malloc(n * MAX_LONGS * sizeof(long));
    CHECK(data != NULL);
    CHECK(flag != NULL);
    CHECK(ack != NULL);
    CHECK(out != NULL);

    /* Rounds start at 1: flags and acks start at 0. The quiet phase goes on
     * counting, so the flags only ever grow. */
    pe_section("put; fence; flag");
    for (int r = 1; r <= ROUNDS; r++) {
        produce(MODE_FENCE, r);
        consume(MODE_FENCE, r);
    }
    pe_section("puts; quiet; flags");
    for (int r = ROUNDS + 1; r <= 2 * ROUNDS; r++) {
        produce(MODE_QUIET, r);
        consume(MODE_QUIET, r);
    }
    free(out);
    shmem_free(ack);
    shmem_free(flag);
    shmem_free(data);
    return pe_test_finish();
}
