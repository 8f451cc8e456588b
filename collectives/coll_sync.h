/*
 * What every algorithm module shares: the layout of the sync words, and
 * the few moves the algorithms are built from (signal, wait, count, put).
 *
 * Protocol. Every transfer into another member's memory is preceded by
 * that member's "ready" flag for it, and followed (after a fence) by a
 * "data" flag. So a fast member never writes into a buffer its peer is
 * still using, whether the peer is late in this call or still in the
 * previous one; and every flag a member receives is one it waits for, so
 * none is left in flight when a call returns (which is what lets the
 * words return to SHMEM_SYNC_VALUE by themselves). Flags are counts (see
 * ush_coll_sync_t): the order in which signals arrive does not matter.
 *
 * Counters (CNT_*) gather one atomic add from each of several members;
 * their owner waits for the total and subtracts it before releasing
 * anything that could let a member reach the next call's add.
 */
#ifndef USH_COLL_SYNC_H
#define USH_COLL_SYNC_H

#include "ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "transport/ush_tp.h"

#include <string.h>

/* Runs stmt as the collective's own traffic (ush_tp_unowed): its data and
 * flags are awaited by their receivers, so no quiet of the program's owes
 * them a flush. */
#define USH_COLL_OWN(stmt)    \
    do {                      \
        ush_tp_unowed = 1;    \
        stmt;                 \
        ush_tp_unowed = 0;    \
    } while (0)

/* Word indices in ush_coll_sync_t.w. Per-round words are indexed by the
 * round r of a log-step algorithm: in round r a member hears from at most
 * one peer, so each word has one sender. */
enum {
    USH_W_BAR      = 0,   /* [32] active-set dissemination barrier */
    USH_W_DATA     = 32,  /* [32] data arrived, per round */
    USH_W_READY    = 64,  /* [32] receiver ready, per round */
    USH_W_VAL      = 96,  /* [32] scalar payloads, per round */
    USH_W_XDATA    = 128, /* non-power-of-two fold: data */
    USH_W_XREADY   = 129, /* non-power-of-two fold: ready */
    USH_W_CNT_READY = 130, /* counter: members ready */
    USH_W_CNT_DATA = 131, /* counter: blocks arrived */
    USH_W_CH_DATA  = 132, /* ring/chain: data from the left */
    USH_W_CH_READY = 133, /* ring/chain: the right is ready */
    USH_W_META     = 134, /* [2] ring collect: offset and length */
    USH_W_RED      = USH_COLL_W_BASE, /* then the regions of ush_coll_layout_t */
};
_Static_assert(USH_W_META + 2 <= USH_COLL_W_BASE, "sync layout exceeds USH_COLL_W_BASE");

/* Call counts of one (sync words, set) on this PE, for the collectives
 * that write into a member's words before it has entered the call (the
 * slots and the broadcast mailboxes). Where those writes may go is
 * decided by counts alone, so nothing in the words has to say it; every
 * member makes the same calls, so all hold the same counts. */
typedef struct {
    const uint64_t *w;
    int             start, stride, size;
    uint64_t        slots;                         /* calls through the slot halves */
    uint64_t        sent[USH_COLL_MBOX_CLASSES][USH_COLL_MBOX_N];  /* mailbox broadcasts,
                                                                     * by class and root */
    uint64_t        taken[USH_COLL_MBOX_CLASSES][USH_COLL_MBOX_N]; /* as root: of mine,
                                                                     * taken by each member */
} ush_coll_seq_t;

/* The counts for s, made on first use; NULL when several threads may be in
 * collectives at once (the caller then takes its handshake path). */
ush_coll_seq_t *ush_coll_seq(const ush_coll_sync_t *s);

static inline int ush_coll_world(const ush_coll_sync_t *s, int member)
{
    return ush_coll_pe(&s->set, member);
}

static inline void ush_coll_amo_self(const ush_coll_sync_t *s, int word, uint64_t add)
{
    USH_COLL_OWN(ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &s->w[word], add,
                              sizeof(uint64_t), ush_coll_world(s, s->set.me)));
}

/* Signal word of member: add one to its count, which one wait of the
 * receiver's consumes. */
static inline void ush_coll_signal(const ush_coll_sync_t *s, int word, int member)
{
    ush_put_add_own(NULL, NULL, 0, &s->w[word], 1, ush_coll_world(s, member));
}

/* Wait for one signal on our word and take it back (every signal a member
 * receives is matched by exactly one wait). */
static inline void ush_coll_wait(const ush_coll_sync_t *s, int word)
{
    USH_WAIT_UNTIL(__atomic_load_n(&s->w[word], __ATOMIC_ACQUIRE) >= 1);
    ush_coll_amo_self(s, word, (uint64_t)-1);
}

/* Add one to counter word of member. */
static inline void ush_coll_count(const ush_coll_sync_t *s, int word, int member)
{
    ush_put_add_own(NULL, NULL, 0, &s->w[word], 1, ush_coll_world(s, member));
}

/* Wait until our counter word holds n, then take the n back (through the
 * same atomic path the adds took, so the two never mix; an early add from
 * the next call survives). */
static inline void ush_coll_wait_count(const ush_coll_sync_t *s, int word, uint64_t n)
{
    USH_WAIT_UNTIL(__atomic_load_n(&s->w[word], __ATOMIC_ACQUIRE) >= n);
    ush_coll_amo_self(s, word, (uint64_t)0 - n);
}

/* Read a payload word (VAL, META) after its data flag, and clear it so
 * the words are SHMEM_SYNC_VALUE again on return. */
static inline uint64_t ush_coll_take(const ush_coll_sync_t *s, int word)
{
    uint64_t v = __atomic_load_n(&s->w[word], __ATOMIC_RELAXED);
    __atomic_store_n(&s->w[word], 0, __ATOMIC_RELAXED);
    return v;
}

/* bytes from local src to the symmetric dest on member. */
static inline void ush_coll_put(const ush_coll_sync_t *s, void *dest, const void *src, size_t bytes,
                                int member)
{
    if (bytes) USH_COLL_OWN(ush_put(SHMEM_CTX_DEFAULT, dest, src, bytes, ush_coll_world(s, member)));
}

/* Orders the puts before the flag that announces them: UCX's fence where
 * the endpoints keep order (no round trip; transport/order.c), else a
 * flush. */
static inline void ush_coll_fence(void)
{
    ush_fence(SHMEM_CTX_DEFAULT);
}

/* bytes from src to dest on member, then a signal of word there: one
 * message to a PE on another node (ush_put_add_own), where a put, a fence
 * and a signal cost two at least. Puts issued to member before it are
 * ordered before its signal only by a ush_coll_fence() in between. */
static inline void ush_coll_put_signal(const ush_coll_sync_t *s, void *dest, const void *src,
                                       size_t bytes, int word, int member)
{
    ush_put_add_own(dest, src, bytes, &s->w[word], 1, ush_coll_world(s, member));
}

/* Eager messages (core/eager.c): a transfer to a member on another node
 * that needs no "ready" first, because it lands in the receiver's library
 * (kept there under our word of the receiver's, as a tag) until the
 * receiver takes it. 1 if bytes to or from member go that way; the same on
 * both sides, so a pair agrees without a word. Callers decide once per
 * call and pair, on a size both sides know. */
static inline int ush_coll_eager(const ush_coll_sync_t *s, int word, size_t bytes, int member)
{
    return ush_eager_ok(&s->w[word], bytes, ush_coll_world(s, member));
}

static inline void ush_coll_eager_send(const ush_coll_sync_t *s, int word, const void *src,
                                       size_t bytes, int member)
{
    ush_eager_send(&s->w[word], src, bytes, ush_coll_world(s, member));
}

/* Waits for member's next message under word; returns its handle and
 * data, which must be bytes long (members pass the same sizes). */
static inline void *ush_coll_eager_take(const ush_coll_sync_t *s, int word, size_t bytes,
                                        int member, const void **data)
{
    size_t len;
    void  *m = ush_eager_recv(&s->w[word], ush_coll_world(s, member), data, &len);
    if (len != bytes) {
        ush_fatal("shmem collectives",
                  "PE %d sent %zu bytes where this PE expects %zu: every member of a "
                  "collective must pass the same sizes",
                  ush_coll_world(s, member), len, bytes);
    }
    return m;
}

static inline void ush_coll_eager_recv(const ush_coll_sync_t *s, int word, void *dest,
                                       size_t bytes, int member)
{
    const void *data;
    void       *m = ush_coll_eager_take(s, word, bytes, member, &data);
    if (bytes) memcpy(dest, data, bytes);
    ush_eager_done(m);
}

/* A slot: a tag word, then payload words, in a member's sync words. A
 * sender fills the payload and then sets the tag (any nonzero value, which
 * may itself carry a number); the owner waits for the tag, takes the
 * payload and clears slot and tag (SHMEM_SYNC_VALUE again), tag last. The
 * callers decide from call counts which slot a message goes to and when
 * that slot is free, so a send never waits on a flag here. On a mapped
 * peer this is stores and one release store: no UCX call. */
static inline void ush_coll_slot_send_tag(const ush_coll_sync_t *s, int word, const void *p,
                                          size_t bytes, uint64_t tag, int member)
{
    int       pe = ush_coll_world(s, member);
    uint64_t *r  = ush_ptr(&s->w[word], pe);
    if (r != NULL) {
        if (bytes) memcpy(r + 1, p, bytes);
        __atomic_store_n(r, tag, __ATOMIC_RELEASE);
        ush_wake(pe);
        return;
    }
    /* The slot is empty (0), so adding the tag sets it: payload and tag
     * in one message, where UCX's only set is a swap whose reply must be
     * waited for. */
    ush_put_add_own(&s->w[word + 1], p, bytes, &s->w[word], tag, pe);
}

static inline void ush_coll_slot_send(const ush_coll_sync_t *s, int word, const void *p,
                                      size_t bytes, int member)
{
    ush_coll_slot_send_tag(s, word, p, bytes, 1, member);
}

/* The slot region (USH_W_RED, lay->red_words) is cut in two halves, used
 * in turn, by the parity of q->slots, by the reductions, alltoalls,
 * fcollects and collects that go through slots. None of them can finish without every
 * member's data, so a member in such a call j + 1 has seen every peer
 * enter call j, by which time that peer has taken everything of call
 * j - 1, in the half now written again: no sender needs to check that a
 * slot is free. Returns the first word of this call's half. */
static inline int ush_coll_slot_half(const ush_coll_sync_t *s, ush_coll_seq_t *q)
{
    return USH_W_RED + (int)(q->slots++ & 1) * (s->lay->red_words / 2);
}

/* Words per member in a slot half, for the calls that give each member
 * its own slot (alltoall, fcollect, collect: the slot of the source), at
 * most a tag and USH_COLL_SLOT_MAX bytes: a slot's payload is copied in,
 * out and cleared, three passes where a direct put makes one, and beyond
 * that the two counts of the direct path cost less (2 PEs, 4 KiB
 * alltoall: 0.43 us through slots, 0.23 direct; 4 PEs, 2 KiB: 3.5
 * against 5.1). */
#define USH_COLL_SLOT_MAX 2048
static inline int ush_coll_slot_words(const ush_coll_sync_t *s)
{
    int words = s->lay->red_words / 2 / s->set.size;
    int most  = 1 + USH_COLL_SLOT_MAX / (int)sizeof(uint64_t);
    return words < most ? words : most;
}

/* 1 if a payload of bytes fits a slot of words (tag included); a large
 * set leaves no room (0 words), and then nothing fits. */
static inline int ush_coll_slot_fits(int words, size_t bytes)
{
    return words > 0 && bytes <= (size_t)(words - 1) * sizeof(uint64_t);
}

/* 1 if member's slot at word is empty (its owner took the last payload). */
static inline int ush_coll_slot_empty(const ush_coll_sync_t *s, int word, int member)
{
    int       pe = ush_coll_world(s, member);
    uint64_t *r  = ush_ptr(&s->w[word], pe);
    if (r != NULL) return __atomic_load_n(r, __ATOMIC_ACQUIRE) == 0;
    return ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_FETCH, &s->w[word], 0, 0, sizeof(uint64_t),
                         pe) == 0;
}

/* Waits until our slot at word is filled; returns its tag. */
static inline uint64_t ush_coll_slot_wait(const ush_coll_sync_t *s, int word)
{
    uint64_t tag;
    USH_WAIT_UNTIL((tag = __atomic_load_n(&s->w[word], __ATOMIC_ACQUIRE)) != 0);
    return tag;
}

/* Takes bytes of payload out of our filled slot at word and empties it.
 * The payload is cleared too: the calls lay their slots out differently
 * (per member, per round), so a word left here could be read as the tag
 * of another call's slot. */
static inline void ush_coll_slot_take(const ush_coll_sync_t *s, int word, void *p, size_t bytes)
{
    uint64_t *slot = &s->w[word];
    if (bytes) {
        memcpy(p, slot + 1, bytes);
        memset(slot + 1, 0, (bytes + sizeof(uint64_t) - 1) & ~(sizeof(uint64_t) - 1));
    }
    __atomic_store_n(slot, 0, __ATOMIC_RELEASE);
}

static inline void ush_coll_slot_recv(const ush_coll_sync_t *s, int word, void *p, size_t bytes)
{
    ush_coll_slot_wait(s, word);
    ush_coll_slot_take(s, word, p, bytes);
}

/* ceil(log2 n) for n >= 1. */
static inline int ush_coll_log2ceil(int n)
{
    int r = 0;
    while ((1 << r) < n) r++;
    return r;
}

/* Largest power of two <= n, n >= 1. */
static inline int ush_coll_pow2floor(int n)
{
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

#endif
