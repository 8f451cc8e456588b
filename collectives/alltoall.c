/*
 * alltoall / alltoalls: pairwise exchange (step k sends to member v + k,
 * so at every step each member has one sender and one receiver) or linear
 * (members in order). Both start once every member has counted itself in,
 * since each writes into everyone's dest, and end when n - 1 blocks have
 * been counted as arrived. Small blocks skip both counts: they go through
 * per-source slots in the receivers' sync words (alltoall_slots).
 */
#include "coll_sync.h"

/* Copies nelems elements of es bytes, from stride sst to stride dst
 * (within this PE). */
static void copy_strided(char *to, ptrdiff_t dst, const char *from, ptrdiff_t sst, size_t nelems,
                         size_t es)
{
    if (dst == 1 && sst == 1) {
        memmove(to, from, nelems * es);
        return;
    }
    for (size_t e = 0; e < nelems; e++)
        memmove(to + (size_t)dst * e * es, from + (size_t)sst * e * es, es);
}

/* Block j of member i: element sst * j * nelems of src, stride sst;
 * lands at element dst * i * nelems of member j's dest, stride dst. */
static void send_block(const ush_coll_sync_t *s, char *dest, const char *src, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems, size_t es, int j)
{
    int   v = s->set.me;
    char *to = dest + (size_t)dst * (size_t)v * nelems * es;
    const char *from = src + (size_t)sst * (size_t)j * nelems * es;

    if (nelems == 0) return;
    if (j == v) {
        copy_strided(to, dst, from, sst, nelems, es);
    } else if (dst == 1 && sst == 1) {
        ush_coll_put(s, to, from, nelems * es, j);
    } else {
        ush_iput(SHMEM_CTX_DEFAULT, to, from, dst, sst, nelems, es, ush_coll_world(s, j));
    }
}

/* Member v's block for j goes to slot v of the current half on j, in the
 * pairwise order; then the n - 1 blocks are taken out, each into its
 * place in dest. */
static void alltoall_slots(const ush_coll_sync_t *s, ush_coll_seq_t *q, char *dest,
                           const char *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es)
{
    int      n = s->set.size, v = s->set.me, S = ush_coll_slot_words(s);
    int      half = ush_coll_slot_half(s, q);
    size_t   bytes = nelems * es;
    uint64_t buf[USH_COLL_ASET_RED / 2]; /* more than any slot's payload */

    for (int k = 0; k < n; k++) {
        int         j    = (v + k) % n;
        const char *from = src + (size_t)sst * (size_t)j * nelems * es;
        if (j == v) {
            send_block(s, dest, src, dst, sst, nelems, es, j); /* our own dest */
        } else if (sst == 1) {
            ush_coll_slot_send(s, half + v * S, from, bytes, j);
        } else {
            copy_strided((char *)buf, 1, from, sst, nelems, es);
            ush_coll_slot_send(s, half + v * S, buf, bytes, j);
        }
    }
    for (int k = 1; k < n; k++) {
        int   i  = (v - k + n) % n;
        char *to = dest + (size_t)dst * (size_t)i * nelems * es;
        if (dst == 1) {
            ush_coll_slot_recv(s, half + i * S, to, bytes);
        } else {
            ush_coll_slot_recv(s, half + i * S, buf, bytes);
            copy_strided(to, dst, (const char *)buf, 1, nelems, es);
        }
    }
}

void ush_coll_alltoall(const ush_coll_sync_t *s, void *dest, const void *src, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems, size_t esize)
{
    int             n = s->set.size, v = s->set.me;
    int             pairwise = ush_coll_select(USH_COLL_ALLTOALL, nelems * esize, n) == 0;
    ush_coll_seq_t *q;

    if (n == 1) {
        send_block(s, dest, src, dst, sst, nelems, esize, v);
        return;
    }
    if (pairwise && ush_coll_slot_fits(ush_coll_slot_words(s), nelems * esize) &&
        (q = ush_coll_seq(s)) != NULL) {
        alltoall_slots(s, q, dest, src, dst, sst, nelems, esize);
        return;
    }
    for (int k = 1; k < n; k++) ush_coll_count(s, USH_W_CNT_READY, (v + k) % n);
    ush_coll_wait_count(s, USH_W_CNT_READY, (uint64_t)n - 1);
    for (int k = 0; k < n; k++) {
        int j = pairwise ? (v + k) % n : k;
        send_block(s, dest, src, dst, sst, nelems, esize, j);
    }
    ush_coll_fence();
    for (int k = 1; k < n; k++) ush_coll_count(s, USH_W_CNT_DATA, (v + k) % n);
    ush_coll_wait_count(s, USH_W_CNT_DATA, (uint64_t)n - 1);
}
