/*
 * SHMEM_DEBUG=1: the members of a collective agree on what they called.
 *
 * A program whose PEs call different collectives, or the same one with a
 * different root or count, hangs or silently mixes up data. Under
 * SHMEM_DEBUG each member first tells its right neighbour in the set what
 * it called (routine, root, count, strides) and compares what its left
 * neighbour told it with its own call: if every neighbour agrees with the
 * next, all agree, and a member that sees a difference ends the job
 * naming both PEs and both calls. One descriptor a member and a call, so
 * the check costs one message and one wait per call, and nothing at all
 * without SHMEM_DEBUG.
 *
 * The descriptor lands in a block of the domain the call runs in: the
 * team's (barrier_all, sync_all, the malloc family and finalize run on
 * SHMEM_TEAM_WORLD's) or the active-set channel's. A block holds one
 * descriptor; ARRIVED counts descriptors put into it, and the receiver
 * counts those it took and acknowledges each with an add to the sender's
 * ACKED. A sender waits for the acknowledgement of its previous one before
 * it overwrites the block, so a member is at most one call ahead of its
 * right neighbour here. The counts only grow, so a block that serves
 * another team or set later needs no reset, and an acknowledgement still
 * on its way is waited for, not lost.
 */
#include "ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"

#include <stdio.h>
#include <string.h>

#define USH_CHECK_NAME 48

typedef struct {
    char    routine[USH_CHECK_NAME];
    int64_t root, count, dst, sst;
} ush_check_desc_t;

/* Words of a block: the descriptor, then the counts. */
#define USH_CHECK_W_DESC    0
#define USH_CHECK_W_ARRIVED (sizeof(ush_check_desc_t) / sizeof(uint64_t))
#define USH_CHECK_W_ACKED   (USH_CHECK_W_ARRIVED + 1)
#define USH_CHECK_W_BLOCK   (USH_CHECK_W_ACKED + 1)

static uint64_t *ush_check_blocks; /* symmetric: [USH_COLL_CHECK_DOMAINS][USH_CHECK_W_BLOCK] */
/* This PE's side of each block: descriptors it sent and took. */
static uint64_t  ush_check_sent[USH_COLL_CHECK_DOMAINS];
static uint64_t  ush_check_taken[USH_COLL_CHECK_DOMAINS];

void ush_coll_check_init(void)
{
    size_t words = (size_t)USH_COLL_CHECK_DOMAINS * USH_CHECK_W_BLOCK;
    ush_check_blocks = ush_symm_internal_alloc(words * sizeof(uint64_t));
    /* Before the wire-up fence, so before any peer's descriptor lands. */
    for (size_t i = 0; i < words; i++) __atomic_store_n(&ush_check_blocks[i], 0, __ATOMIC_RELAXED);
    memset(ush_check_sent, 0, sizeof(ush_check_sent));
    memset(ush_check_taken, 0, sizeof(ush_check_taken));
}

static void ush_check_desc(ush_check_desc_t *d, const ush_coll_call_t *call)
{
    *d = (ush_check_desc_t){ .root = call->root, .count = call->count,
                             .dst = call->dst, .sst = call->sst };
    snprintf(d->routine, sizeof(d->routine), "%s", call->routine);
}

/* "shmem_broadcast64(nelems 16, PE_root 0)" into buf. */
static const char *ush_check_show(const ush_check_desc_t *d, char *buf, size_t len)
{
    const char *count = strstr(d->routine, "_to_all") ? "nreduce" : "nelems";
    int         n     = snprintf(buf, len, "%s(", d->routine);
    const char *sep   = "";

    if (d->count >= 0 && (size_t)n < len) {
        n += snprintf(buf + n, len - (size_t)n, "%s %lld", count, (long long)d->count);
        sep = ", ";
    }
    if (d->root >= 0 && (size_t)n < len) {
        n += snprintf(buf + n, len - (size_t)n, "%sPE_root %lld", sep, (long long)d->root);
        sep = ", ";
    }
    if ((d->dst || d->sst) && (size_t)n < len) {
        n += snprintf(buf + n, len - (size_t)n, "%sdst %lld, sst %lld", sep,
                      (long long)d->dst, (long long)d->sst);
    }
    if ((size_t)n < len) snprintf(buf + n, len - (size_t)n, ")");
    return buf;
}

static int ush_check_same(const ush_check_desc_t *a, const ush_check_desc_t *b)
{
    return strcmp(a->routine, b->routine) == 0 && a->root == b->root &&
           a->count == b->count && a->dst == b->dst && a->sst == b->sst;
}

void ush_coll_check(int domain, const ush_coll_set_t *set, const ush_coll_call_t *call)
{
    int               n = set->size, v = set->me;
    uint64_t         *b = &ush_check_blocks[(size_t)domain * USH_CHECK_W_BLOCK];
    ush_check_desc_t  mine, theirs;
    char              s0[160], s1[160];

    if (n < 2 || v < 0) return;
    int left = ush_coll_pe(set, (v - 1 + n) % n), right = ush_coll_pe(set, (v + 1) % n);
    ush_check_desc(&mine, call);

    /* The right neighbour took the previous descriptor: the block is free. */
    uint64_t sent = ush_check_sent[domain];
    USH_WAIT_UNTIL_PE(__atomic_load_n(&b[USH_CHECK_W_ACKED], __ATOMIC_ACQUIRE) >= sent, right);
    ush_put_signal(SHMEM_CTX_DEFAULT, &b[USH_CHECK_W_DESC], &mine, sizeof(mine),
                   &b[USH_CHECK_W_ARRIVED], 1, USH_AMO_ADD, right, 1);
    ush_check_sent[domain] = sent + 1;

    uint64_t taken = ush_check_taken[domain];
    USH_WAIT_UNTIL_PE(__atomic_load_n(&b[USH_CHECK_W_ARRIVED], __ATOMIC_ACQUIRE) > taken, left);
    memcpy(&theirs, &b[USH_CHECK_W_DESC], sizeof(theirs));
    theirs.routine[USH_CHECK_NAME - 1] = '\0';
    ush_check_taken[domain] = taken + 1;
    ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &b[USH_CHECK_W_ACKED], 1, sizeof(uint64_t), left);

    if (!ush_check_same(&mine, &theirs)) {
        ush_fatal(call->routine,
                  "the members of a collective disagree (SHMEM_DEBUG=1 compares each "
                  "member's call with its neighbour's): PE %d called %s but this PE %s, as "
                  "its collective call %llu over these %d PEs; every member must make the "
                  "same collective calls, with the same arguments, in the same order",
                  left, ush_check_show(&theirs, s0, sizeof(s0)),
                  ush_check_show(&mine, s1, sizeof(s1)), (unsigned long long)taken + 1, n);
    }
}
