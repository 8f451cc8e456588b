/*
 * Prefix sums (1.6 sum_inscan / sum_exscan): a chain. Member v receives
 * the sum over members 0..v-1 into its scratch from v - 1, writes its
 * result, adds its own src and passes the sum on to v + 1. Chunked by the
 * scratch; one signal per chunk on READY[0] (v + 1's scratch is free) and
 * DATA[0] (the prefix arrived).
 */
#include "coll_sync.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

void ush_coll_scan(const ush_coll_sync_t *s, void *dest, const void *src, size_t count,
                   size_t esize, ush_coll_op_fn_t sum, int exclusive)
{
    int      n = s->set.size, v = s->set.me;
    size_t   chunk = s->scratch_bytes / esize;
    uint64_t nch = (count + chunk - 1) / chunk;
    char    *sc = s->scratch;

    if (count == 0) return;
    for (uint64_t c = 0; c < nch; c++) {
        size_t      len = MIN(chunk, count - c * chunk);
        char       *d   = (char *)dest + c * chunk * esize;
        const char *in  = (const char *)src + c * chunk * esize;
        const char *out;                              /* the sum to pass on */

        if (v > 0) ush_coll_signal(s, USH_W_READY, v - 1);
        if (v == 0) {
            if (v + 1 < n) {
                ush_coll_wait(s, USH_W_READY);
                ush_coll_put_signal(s, sc, in, len * esize, USH_W_DATA, v + 1);
            }
            if (exclusive) memset(d, 0, len * esize);
            else if (d != in) memmove(d, in, len * esize);
            continue;
        }
        ush_coll_wait(s, USH_W_DATA);
        /* Element by element, reading src[i] before dest[i] is written, so
         * src may be dest. */
        for (size_t i = 0; i < len; i++) {
            char prefix[32];
            char *p = sc + i * esize;
            memcpy(prefix, p, esize);
            sum(p, in + i * esize, 1);
            memcpy(d + i * esize, exclusive ? prefix : p, esize);
        }
        out = sc;
        if (v + 1 < n) {
            ush_coll_wait(s, USH_W_READY);
            ush_coll_put_signal(s, sc, out, len * esize, USH_W_DATA, v + 1);
        }
    }
}
