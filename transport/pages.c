/*
 * Per-peer state in pages, made on first touch.
 *
 * A PE keeps something about each peer it talks to: the peer's wire-up
 * record, where its memory is mapped, an endpoint and unpacked rkeys per
 * context, the eager-message counts. Arrays indexed by PE cost that much
 * for every PE of the job, touched or not: about 350 bytes a peer, 35 MB
 * a PE at 100 000 PEs. Here a directory holds one pointer per
 * USH_TP_PAGE_PES consecutive PEs (32 KiB at a million PEs), and a page
 * is made when one of its PEs is first touched. Consecutive ranks share a
 * node and a ring's neighbours, so the pages a PE touches are few.
 *
 * Pages are never freed before the directory: a lookup is two loads with
 * no lock. Two threads touching a new page at once race with a
 * compare-and-swap; the loser frees its copy.
 */
#include "ush_tp_impl.h"

#include <stdlib.h>

ush_tp_dir_t ush_tp_pages;

/* Bytes held for peer state (directories, pages, records). */
static size_t ush_tp_peer_state;

void ush_tp_peer_state_add(ssize_t bytes)
{
    __atomic_add_fetch(&ush_tp_peer_state, (size_t)bytes, __ATOMIC_RELAXED);
}

size_t ush_tp_peer_state_bytes(void)
{
    return __atomic_load_n(&ush_tp_peer_state, __ATOMIC_RELAXED);
}

ush_tp_status_t ush_tp_dir_init(ush_tp_dir_t *d, int npes, size_t page_bytes)
{
    d->npages     = ((size_t)npes + USH_TP_PAGE_PES - 1) >> USH_TP_PAGE_SHIFT;
    d->page_bytes = page_bytes;
    d->page       = calloc(d->npages ? d->npages : 1, sizeof(*d->page));
    if (!d->page) return USH_TP_ERR_NOMEM;
    ush_tp_peer_state_add((ssize_t)(d->npages * sizeof(*d->page)));
    return USH_TP_OK;
}

void *ush_tp_dir_make(ush_tp_dir_t *d, int pe)
{
    void **slot = &d->page[(unsigned)pe >> USH_TP_PAGE_SHIFT];
    void  *pg   = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (pg) return pg;

    void *fresh = calloc(1, d->page_bytes);
    if (!fresh) ush_tp_fatal("out of memory for the state of peer PE %d", pe);
    /* release: the zeroes before the pointer, for lookups without a lock */
    if (__atomic_compare_exchange_n(slot, &pg, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        ush_tp_peer_state_add((ssize_t)d->page_bytes);
        return fresh;
    }
    free(fresh);
    return pg;
}

void ush_tp_dir_fini(ush_tp_dir_t *d, void (*release)(void *page))
{
    for (size_t i = 0; d->page && i < d->npages; i++) {
        if (!d->page[i]) continue;
        if (release) release(d->page[i]);
        free(d->page[i]);
        ush_tp_peer_state_add(-(ssize_t)d->page_bytes);
    }
    if (d->page) ush_tp_peer_state_add(-(ssize_t)(d->npages * sizeof(*d->page)));
    free(d->page);
    *d = (ush_tp_dir_t){ 0 };
}

ush_tp_page_t *ush_tp_page(int pe)
{
    return ush_tp_dir_make(&ush_tp_pages, pe);
}
