/*
 * Per-PE call counts of the collectives that run ahead without a handshake
 * (see ush_coll_seq_t), one entry per (sync words, set), in an
 * open-addressed table that only grows.
 *
 * An entry is never evicted: its counts must stay equal to the other
 * members' counts for as long as the words may be used again, and every
 * member makes the same calls on the same words with the same set, so
 * every member holds the same numbers. A team's entries are dropped when
 * the team is destroyed (all members at once); all of them at init.
 */
#include "coll_sync.h"
#include "transport/ush_tp.h"

#include <stdlib.h>

static ush_coll_seq_t **ush_seq_tab;  /* ush_seq_cap slots, NULL = free */
static size_t           ush_seq_cap;
static size_t           ush_seq_used;

static size_t seq_hash(const uint64_t *w, const ush_coll_set_t *set, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)w * UINT64_C(0x9e3779b97f4a7c15);
    h ^= ((uint64_t)(uint32_t)set->start << 32 | (uint32_t)set->size) *
         UINT64_C(0xc2b2ae3d27d4eb4f);
    h ^= (uint64_t)(uint32_t)set->stride * UINT64_C(0x165667b19e3779f9);
    return (size_t)(h ^ h >> 29) & (cap - 1);
}

static int seq_match(const ush_coll_seq_t *e, const uint64_t *w, const ush_coll_set_t *set)
{
    return e->w == w && e->start == set->start && e->stride == set->stride &&
           e->size == set->size;
}

static void seq_insert(ush_coll_seq_t **tab, size_t cap, ush_coll_seq_t *e)
{
    ush_coll_set_t set = { .start = e->start, .stride = e->stride, .size = e->size };
    size_t         i   = seq_hash(e->w, &set, cap);
    while (tab[i]) i = (i + 1) & (cap - 1);
    tab[i] = e;
}

static void seq_grow(void)
{
    size_t           cap = ush_seq_cap ? 2 * ush_seq_cap : 64;
    ush_coll_seq_t **tab = calloc(cap, sizeof *tab);
    if (tab == NULL) ush_fatal("shmem collectives", "out of memory for %zu call counters", cap);
    for (size_t i = 0; i < ush_seq_cap; i++)
        if (ush_seq_tab[i]) seq_insert(tab, cap, ush_seq_tab[i]);
    free(ush_seq_tab);
    ush_seq_tab = tab;
    ush_seq_cap = cap;
}

ush_coll_seq_t *ush_coll_seq(const ush_coll_sync_t *s)
{
    /* Several threads may be in collectives at once (on different words):
     * the table would need a lock on every call, so the handshake paths
     * serve them instead. Job-wide, so every member decides alike. */
    if (ush_tp_thread_job == USH_TP_THREAD_MULTI) return NULL;
    if (ush_seq_cap) {
        for (size_t i = seq_hash(s->w, &s->set, ush_seq_cap); ush_seq_tab[i];
             i = (i + 1) & (ush_seq_cap - 1)) {
            if (seq_match(ush_seq_tab[i], s->w, &s->set)) return ush_seq_tab[i];
        }
    }
    if (2 * (ush_seq_used + 1) > ush_seq_cap) seq_grow();
    ush_coll_seq_t *e = calloc(1, sizeof *e);
    if (e == NULL) ush_fatal("shmem collectives", "out of memory for a call counter");
    e->w      = s->w;
    e->start  = s->set.start;
    e->stride = s->set.stride;
    e->size   = s->set.size;
    seq_insert(ush_seq_tab, ush_seq_cap, e);
    ush_seq_used++;
    return e;
}

void ush_coll_seq_drop(const uint64_t *w, size_t words)
{
    size_t kept = 0, cap = ush_seq_cap;
    ush_coll_seq_t **old = ush_seq_tab, **tab = cap ? calloc(cap, sizeof *tab) : NULL;
    if (cap && tab == NULL) ush_fatal("shmem collectives", "out of memory for call counters");
    for (size_t i = 0; i < cap; i++) {
        ush_coll_seq_t *e = old[i];
        if (e == NULL) continue;
        if (w == NULL || (e->w >= w && e->w < w + words)) {
            free(e);
            continue;
        }
        seq_insert(tab, cap, e);
        kept++;
    }
    free(old);
    ush_seq_tab  = tab;
    ush_seq_used = kept;
}
