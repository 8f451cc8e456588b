/*
 * Non-blocking RMA: many small put_nbi/get_nbi to and from every PE mixed
 * with large ones (> 1 MiB, odd length, one call and many chunks), all
 * completed by a single shmem_quiet; then every byte is checked.
 *
 * Nothing is read or written between issue and quiet, so the test holds
 * for any implementation that completes operations at quiet, and catches
 * one that completes them late, partially, or not at all.
 */
#include "pe_test.h"

#define NMSG      48                              /* small messages per target */
#define MSG_MAX   16                              /* longs in the largest small message */
#define SMALL_MAX (NMSG * MSG_MAX)                /* longs per source region */
#define BIG       ((size_t)3 << 19 | 3)           /* 1.5 MiB + 3 bytes */
#define CHUNK     ((size_t)64 << 10)              /* chunked large get */
#define ROUNDS    2

enum { KIND_PUT = 0, KIND_GET = 1, KIND_BIG_PUT = 2, KIND_BIG_GET = 3 };

static size_t msg_longs(int m)
{
    return 1 + (size_t)(m * 7) % MSG_MAX;
}

static size_t msg_offset(int m) /* in longs, within a source region */
{
    size_t off = 0;
    for (int i = 0; i < m; i++)
        off += msg_longs(i);
    return off;
}

static uint64_t seed(int src, int dst, int m, int kind, int round)
{
    return pe_key((uint64_t)src, (uint64_t)dst, (uint64_t)m, (uint64_t)kind, (uint64_t)round);
}

/* Four spellings rotate over the messages, so each is exercised to and from
 * every PE with several lengths. */
static void put_nbi(int m, long *dst, const long *src, size_t n, int pe)
{
    switch (m % 4) {
    case 0: shmem_long_put_nbi(dst, src, n, pe); break;
    case 1: shmem_ctx_long_put_nbi(SHMEM_CTX_DEFAULT, dst, src, n, pe); break;
    case 2: shmem_put64_nbi(dst, src, n, pe); break;
    default: shmem_putmem_nbi(dst, src, n * sizeof(long), pe); break;
    }
}

static void get_nbi(int m, long *dst, const long *src, size_t n, int pe)
{
    switch (m % 4) {
    case 0: shmem_long_get_nbi(dst, src, n, pe); break;
    case 1: shmem_ctx_long_get_nbi(SHMEM_CTX_DEFAULT, dst, src, n, pe); break;
    case 2: shmem_get64_nbi(dst, src, n, pe); break;
    default: shmem_getmem_nbi(dst, src, n * sizeof(long), pe); break;
    }
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, npes = pe_npes;
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    const size_t region = SMALL_MAX * (size_t)npes; /* longs */

    long          *small_dst = shmem_malloc(region * sizeof(long));
    long          *small_src = shmem_malloc(region * sizeof(long));
    unsigned char *big_dst   = shmem_malloc(BIG);
    unsigned char *big_src   = shmem_malloc(BIG);
    long          *out       = malloc(region * sizeof(long)); /* stays intact until quiet */
    long          *in        = malloc(region * sizeof(long));
    unsigned char *big_out   = malloc(BIG);
    unsigned char *big_in    = malloc(BIG);

    CHECK(small_dst != NULL);
    CHECK(small_src != NULL);
    CHECK(big_dst != NULL);
    CHECK(big_src != NULL);
    CHECK(out && in && big_out && big_in);

    for (int round = 0; round < ROUNDS; round++) {
        pe_section(round == 0 ? "nbi round 0" : "nbi round 1");
        /* Sources of gets: region r of small_src is for reader r. */
        memset(small_dst, 0, region * sizeof(long));
        memset(big_dst, 0, BIG);
        for (int r = 0; r < npes; r++)
            for (int m = 0; m < NMSG; m++)
                pe_fill_pattern(small_src + r * SMALL_MAX + msg_offset(m),
                                msg_longs(m) * sizeof(long), seed(me, r, m, KIND_GET, round));
        pe_fill_pattern(big_src, BIG, seed(me, right, 0, KIND_BIG_GET, round));
        memset(in, 0, region * sizeof(long));
        memset(big_in, 0, BIG);
        shmem_barrier_all();

        /* Issue everything, interleaving targets, small and large. */
        pe_fill_pattern(big_out, BIG, seed(me, right, 0, KIND_BIG_PUT, round));
        shmem_putmem_nbi(big_dst, big_out, BIG, right);
        for (int m = 0; m < NMSG; m++) {
            for (int k = 1; k <= npes; k++) {
                const int t = (me + k) % npes;
                long     *o = out + t * SMALL_MAX + msg_offset(m);
                pe_fill_pattern(o, msg_longs(m) * sizeof(long), seed(me, t, m, KIND_PUT, round));
                put_nbi(m, small_dst + me * SMALL_MAX + msg_offset(m), o, msg_longs(m), t);
                get_nbi(m, in + t * SMALL_MAX + msg_offset(m),
                        small_src + me * SMALL_MAX + msg_offset(m), msg_longs(m), t);
            }
        }
        for (size_t off = 0; off < BIG; off += CHUNK) {
            size_t n = BIG - off < CHUNK ? BIG - off : CHUNK;
            shmem_getmem_nbi(big_in + off, big_src + off, n, left);
        }
        shmem_quiet();

        /* Gets are complete at quiet. */
        for (int t = 0; t < npes; t++)
            for (int m = 0; m < NMSG; m++)
                CHECK_PATTERN(in + t * SMALL_MAX + msg_offset(m), msg_longs(m) * sizeof(long),
                              seed(t, me, m, KIND_GET, round));
        CHECK_PATTERN(big_in, BIG, seed(left, me, 0, KIND_BIG_GET, round));

        /* Puts are delivered once every PE has quieted and passed a barrier. */
        shmem_barrier_all();
        for (int s = 0; s < npes; s++)
            for (int m = 0; m < NMSG; m++)
                CHECK_PATTERN(small_dst + s * SMALL_MAX + msg_offset(m),
                              msg_longs(m) * sizeof(long), seed(s, me, m, KIND_PUT, round));
        CHECK_PATTERN(big_dst, BIG, seed(left, me, 0, KIND_BIG_PUT, round));
    }

    free(big_in);
    free(big_out);
    free(in);
    free(out);
    shmem_free(big_src);
    shmem_free(big_dst);
    shmem_free(small_src);
    shmem_free(small_dst);
    return pe_test_finish();
}
