/*
 * Helpers shared by the collective tests (coll_*.c): the active sets they
 * sweep, pSync set-up and checks, and poisoned buffers.
 *
 * Only spec names are used, so the active-set parts also build against
 * Open MPI's OSHMEM (1.4) to validate the tests' own logic; team parts are
 * guarded with PE_SPEC_AT_LEAST(1, 5) in the programs.
 */
#ifndef COLL_UTIL_H
#define COLL_UTIL_H

#include "pe_test.h"

/* One active set: world PEs start + i * 2^logstride, 0 <= i < size. */
typedef struct {
    int start, logstride, size;
} aset_t;

static inline int aset_pe(aset_t a, int i)
{
    return a.start + (i << a.logstride);
}

/* This PE's index in the set, or -1 when it is not a member. */
static inline int aset_index(aset_t a, int pe)
{
    int d = pe - a.start;
    if (d < 0 || (d & ((1 << a.logstride) - 1)) != 0)
        return -1;
    d >>= a.logstride;
    return d < a.size ? d : -1;
}

/* The sets that also get the large element counts (past every chunk and
 * pWrk size): the whole world, and the odd PEs. Only two, to keep time. */
static inline int aset_is_large(aset_t a, int npes)
{
    return (a.start == 0 && a.logstride == 0 && a.size == npes) ||
           (a.start == 1 && a.logstride == 1 && a.size > 1);
}

/* The sets the sweeps run over: strides 2^0..2^2, starts 0, 1 and the last
 * PE, sizes 1, 2, 3 and the largest that fits; each listed once. Odd and
 * even sizes, sets that leave PEs out at both ends. */
#define ASET_MAX 64
static inline int aset_list(aset_t *out, int npes)
{
    int n = 0;
    for (int ls = 0; ls <= 2; ls++) {
        int starts[3] = {0, 1, npes - 1};
        for (int s = 0; s < 3; s++) {
            int start = starts[s];
            if (start < 0 || start >= npes || (s == 2 && (start == 0 || start == 1)))
                continue;
            int maxsize = (npes - 1 - start) / (1 << ls) + 1;
            int sizes[4] = {1, 2, 3, maxsize};
            for (int k = 0; k < 4; k++) {
                int size = sizes[k];
                if (size > maxsize)
                    continue;
                int dup = 0;
                for (int j = 0; j < n; j++)
                    if (out[j].start == start && out[j].size == size &&
                        (out[j].logstride == ls || size == 1))
                        dup = 1;
                if (!dup && n < ASET_MAX)
                    out[n++] = (aset_t){start, ls, size};
            }
        }
    }
    return n;
}

/* pSync arrays: every word SHMEM_SYNC_VALUE, then a barrier so no PE enters
 * a collective before all have initialised theirs. */
static inline void psync_init(long *psync, size_t n)
{
    for (size_t i = 0; i < n; i++)
        psync[i] = SHMEM_SYNC_VALUE;
}

/* Every pSync word back to SHMEM_SYNC_VALUE, as the spec promises on return. */
#define CHECK_PSYNC(psync, n)                                                                     \
    do {                                                                                          \
        for (size_t ps_i_ = 0; ps_i_ < (size_t)(n); ps_i_++)                                      \
            CHECK_MSG(PE_READ((psync)[ps_i_]) == SHMEM_SYNC_VALUE,                                \
                      "%s[%zu] == SHMEM_SYNC_VALUE (got %ld)", #psync, ps_i_,                     \
                      (long)PE_READ((psync)[ps_i_]));                                             \
    } while (0)

/* Poison: what a buffer holds where no collective may write. */
#define POISON_BYTE 0xA5
#define POISON32    0xA5A5A5A5u
#define POISON64    0xA5A5A5A5A5A5A5A5ull

/* Every byte of buf still holds the poison (reported at the caller's line). */
#define CHECK_POISON(buf, bytes, what)                                        \
    pe_check_filled(__FILE__, __LINE__, what, buf, bytes, POISON_BYTE)

/* Value of element i sent by (world) PE src in test case c: 32 and 64-bit
 * words that name their origin, never the poison. */
static inline uint64_t cval64(int c, int src, size_t i)
{
    uint64_t v = pe_key((uint64_t)c, (uint64_t)src, (uint64_t)i, 0x64, 0);
    return v == POISON64 ? v ^ 1 : v;
}
static inline uint32_t cval32(int c, int src, size_t i)
{
    uint32_t v = (uint32_t)pe_key((uint64_t)c, (uint64_t)src, (uint64_t)i, 0x32, 0);
    return v == POISON32 ? v ^ 1 : v;
}

/* The first element of a 32/64-bit array that differs from its expected
 * value, reported with its index. */
#define CHECK_ARRAY(arr, n, expr_of_i)                                                            \
    do {                                                                                          \
        for (size_t i = 0; i < (size_t)(n); i++) {                                                \
            __typeof__((arr)[0]) ca_got_ = PE_READ((arr)[i]);                                     \
            __typeof__((arr)[0]) ca_exp_ = (__typeof__((arr)[0]))(expr_of_i);                     \
            if (ca_got_ != ca_exp_) {                                                             \
                char ca_e_[64], ca_g_[64], ca_x_[192];                                            \
                snprintf(ca_e_, sizeof(ca_e_), "0x%llx", (unsigned long long)ca_exp_);            \
                snprintf(ca_g_, sizeof(ca_g_), "0x%llx", (unsigned long long)ca_got_);            \
                snprintf(ca_x_, sizeof(ca_x_), "%s[%zu] of %zu", #arr, i, (size_t)(n));           \
                pe_fail(__FILE__, __LINE__, ca_x_, ca_e_, ca_g_);                                 \
            }                                                                                     \
        }                                                                                         \
    } while (0)

/* A PE that names the case it is in, so a failure says which one. */
static char coll_case_name[160] PE_UNUSED;
#define COLL_CASE(...)                                                                            \
    do {                                                                                          \
        snprintf(coll_case_name, sizeof(coll_case_name), __VA_ARGS__);                            \
        pe_section_set(coll_case_name);                                                           \
    } while (0)

#endif
