/*
 * Channels: where an active-set collective keeps its cross-PE state.
 *
 * The active-set routines get only the caller's pSync, a few words programs
 * size with the SHMEM_*_SYNC_SIZE constants and reuse across kinds. The
 * algorithms need far more: per-round flags, slots for small payloads and
 * broadcast mailboxes deep enough for a root to run calls ahead
 * (USH_COLL_W_TOTAL words). That state lives in a pool of channels, blocks
 * of the library's own symmetric memory, and pSync only names which one:
 *
 *   - The first call with a given (pSync, active set) on a PE agrees with
 *     the other members on a channel free on all of them (chan_agree(),
 *     through the first 16 bytes of pSync, which are SHMEM_SYNC_VALUE again when it
 *     returns) and binds the pair to it for the rest of the job. Every
 *     member makes the same calls with the same pair, so every member binds
 *     the same channel, and later calls find it in a local table without
 *     touching pSync.
 *   - The agreement needs every member present: a member that learns the
 *     choice first may write into another's channel before that one has
 *     recorded it, but only into a channel that member offered, which
 *     nothing else of its uses. A channel is bound once and never freed
 *     (its memory is zero until then), so nothing from an earlier use can
 *     be in it.
 *   - When no channel is free on every member (more than USH_COLL_CHAN_N - 1
 *     pairs in use), the call borrows the last channel, which is never bound:
 *     it agrees every time, and ends with a barrier on the channel, after
 *     which no member will write into it again, so the next borrower (on any
 *     set) finds it quiet. Correct for any number of pairs, slower.
 *
 * Under SHMEM_THREAD_MULTIPLE two threads of a PE may agree at once (on
 * different pSync). Each offers only channels no agreement in flight on
 * this PE has offered, so two cannot both bind the same one; when nothing
 * is left to offer, not even the borrowed channel, the members agree to
 * try again.
 */
#include "coll_sync.h"
#include "transport/ush_tp.h"

#include <pthread.h>

/* Channels; the last is the borrowed one. One uint64_t mask covers them. */
#define USH_COLL_CHAN_N      64
#define USH_COLL_CHAN_BORROW (USH_COLL_CHAN_N - 1)
#define USH_COLL_CHAN_RETRY  USH_COLL_CHAN_N /* an agreement's "try again" */
#define USH_COLL_CHAN_BIT(c) (UINT64_C(1) << (c))

/* 32-bit words of pSync the agreement uses: 16 bytes with 4-byte
 * alignment, so a Fortran `INTEGER pSync(SHMEM_*_SYNC_SIZE)` (default
 * integers) holds them as well as C's long array (ush_coll.h:
 * USH_COLL_PSYNC_WORDS counts longs). COUNT and the two halves of BUSY
 * only on member 0, CHAN only on the others. */
enum {
    USH_PSYNC_COUNT   = 0, /* members that have offered */
    USH_PSYNC_CHAN    = 1, /* member 0's decision, plus one */
    USH_PSYNC_BUSY_LO = 2, /* OR of the channels they cannot offer: 0-31 */
    USH_PSYNC_BUSY_HI = 3, /* and 32-63 */
    USH_PSYNC_WORDS32
};
_Static_assert(USH_PSYNC_WORDS32 * sizeof(uint32_t) <= USH_COLL_PSYNC_WORDS * sizeof(long) &&
                   USH_PSYNC_WORDS32 * sizeof(uint32_t) <= 4 * sizeof(int32_t),
               "pSync words: must fit four Fortran default integers");

/* The local table: (pSync, set) -> bound channel. It holds at most
 * USH_COLL_CHAN_N - 1 entries and never shrinks but at init. */
#define USH_COLL_CHAN_TAB 128
typedef struct {
    const long *psync; /* NULL: empty */
    int         start, stride, size;
    int         chan;
} ush_chan_ent_t;

static uint64_t       *ush_chan_pool;    /* symmetric [N][USH_COLL_W_TOTAL] */
static uint64_t        ush_chan_busy;    /* bound here, or borrowed right now */
static uint64_t        ush_chan_offered; /* offered by agreements in flight */
static ush_chan_ent_t  ush_chan_tab[USH_COLL_CHAN_TAB];
static pthread_mutex_t ush_chan_lock = PTHREAD_MUTEX_INITIALIZER;

_Static_assert(USH_COLL_CHAN_N <= 64, "the channel masks are one uint64_t");
_Static_assert(USH_COLL_CHAN_N <= USH_COLL_CHECK_CHANS, "a check block for every channel");
_Static_assert(USH_COLL_CHAN_TAB >= 2 * USH_COLL_CHAN_N, "table too small for its load");

/* Only several threads in collectives at once need the lock. */
static void chan_lock(void)
{
    if (ush_tp_thread_job == USH_TP_THREAD_MULTI) pthread_mutex_lock(&ush_chan_lock);
}

static void chan_unlock(void)
{
    if (ush_tp_thread_job == USH_TP_THREAD_MULTI) pthread_mutex_unlock(&ush_chan_lock);
}

void ush_coll_chan_init(void)
{
    /* Fresh shared memory (zero): a channel is never written before it is
     * bound. Allocated in the same order on every PE, so symmetric. */
    ush_chan_pool =
        ush_symm_internal_alloc((size_t)USH_COLL_CHAN_N * USH_COLL_W_TOTAL * sizeof(uint64_t));
    memset(ush_chan_tab, 0, sizeof(ush_chan_tab));
    ush_chan_busy    = 0;
    ush_chan_offered = 0;
}

uint64_t *ush_coll_chan_words(int chan)
{
    return ush_chan_pool + (size_t)chan * USH_COLL_W_TOTAL;
}

static size_t chan_hash(const long *psync, const ush_coll_set_t *set)
{
    uint64_t h = (uint64_t)(uintptr_t)psync * UINT64_C(0x9e3779b97f4a7c15);
    h ^= ((uint64_t)(uint32_t)set->start << 32 | (uint32_t)set->size) *
         UINT64_C(0xc2b2ae3d27d4eb4f);
    h ^= (uint64_t)(uint32_t)set->stride * UINT64_C(0x165667b19e3779f9);
    return (size_t)(h ^ h >> 29) & (USH_COLL_CHAN_TAB - 1);
}

/* The slot of (psync, set): its entry, or the empty slot it would take. */
static ush_chan_ent_t *chan_slot(const long *psync, const ush_coll_set_t *set)
{
    size_t i = chan_hash(psync, set);
    for (;;) {
        ush_chan_ent_t *e = &ush_chan_tab[i];
        if (e->psync == NULL ||
            (e->psync == psync && e->start == set->start && e->stride == set->stride &&
             e->size == set->size))
            return e;
        i = (i + 1) & (USH_COLL_CHAN_TAB - 1);
    }
}

/* Member 0's choice: the lowest channel no member is busy with, else the
 * borrowed one, else "try again". */
static int chan_choose(uint64_t busy)
{
    uint64_t bindable = ~busy & (USH_COLL_CHAN_BIT(USH_COLL_CHAN_BORROW) - 1);
    if (bindable) return __builtin_ctzll(bindable);
    if (!(busy & USH_COLL_CHAN_BIT(USH_COLL_CHAN_BORROW))) return USH_COLL_CHAN_BORROW;
    return USH_COLL_CHAN_RETRY;
}

/* One agreement over set through pSync; returns the channel every member
 * got (or USH_COLL_CHAN_RETRY). Members OR what they cannot offer into
 * member 0's BUSY and then count themselves in its COUNT (fenced, so the
 * OR lands first); member 0 takes both back to SHMEM_SYNC_VALUE before it
 * sends anyone the choice, so a member's next agreement on this pSync
 * cannot find them dirty. Each member clears its own CHAN. */
static int chan_agree(const ush_coll_set_t *set, long *pSync)
{
    uint32_t *w = (uint32_t *)pSync;
    uint64_t  offer, busy;
    int       chan;

    chan_lock();
    offer = ~(ush_chan_busy | ush_chan_offered);
    ush_chan_offered |= offer;
    chan_unlock();
    busy = ~offer;

    if (set->me == 0) {
        uint32_t n = (uint32_t)set->size - 1;
        if (n > 0) {
            USH_WAIT_UNTIL(__atomic_load_n(&w[USH_PSYNC_COUNT], __ATOMIC_ACQUIRE) >= n);
            busy |= ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_SWAP, &w[USH_PSYNC_BUSY_LO], 0, 0,
                                  sizeof(uint32_t), ush_g.my_pe);
            busy |= ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_SWAP, &w[USH_PSYNC_BUSY_HI], 0, 0,
                                  sizeof(uint32_t), ush_g.my_pe)
                    << 32;
            ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &w[USH_PSYNC_COUNT], (uint32_t)0 - n,
                          0, sizeof(uint32_t), ush_g.my_pe);
        }
        chan = chan_choose(busy);
        for (int m = 1; m < set->size; m++)
            ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_SET, &w[USH_PSYNC_CHAN], (uint32_t)chan + 1,
                         sizeof(uint32_t), ush_coll_pe(set, m));
    } else {
        int leader = ush_coll_pe(set, 0);
        ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_OR, &w[USH_PSYNC_BUSY_LO], (uint32_t)busy,
                     sizeof(uint32_t), leader);
        ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_OR, &w[USH_PSYNC_BUSY_HI], busy >> 32,
                     sizeof(uint32_t), leader);
        ush_fence(SHMEM_CTX_DEFAULT);
        ush_amo_post(SHMEM_CTX_DEFAULT, USH_AMO_ADD, &w[USH_PSYNC_COUNT], 1, sizeof(uint32_t),
                     leader);
        USH_WAIT_UNTIL(__atomic_load_n(&w[USH_PSYNC_CHAN], __ATOMIC_ACQUIRE) != 0);
        chan = (int)ush_amo_fetch(SHMEM_CTX_DEFAULT, USH_AMO_SWAP, &w[USH_PSYNC_CHAN], 0, 0,
                                  sizeof(uint32_t), ush_g.my_pe) - 1;
    }

    chan_lock();
    ush_chan_offered &= ~offer;
    if (chan != USH_COLL_CHAN_RETRY) ush_chan_busy |= USH_COLL_CHAN_BIT(chan);
    chan_unlock();
    return chan;
}

int ush_coll_chan_get(const ush_coll_set_t *set, long *pSync)
{
    chan_lock();
    ush_chan_ent_t *e    = chan_slot(pSync, set);
    int             chan = e->psync ? e->chan : -1;
    chan_unlock();
    if (chan >= 0) return chan;

    while ((chan = chan_agree(set, pSync)) == USH_COLL_CHAN_RETRY) {
        ush_wait_t w = { 0 };
        for (int i = 0; i < 64; i++) ush_wait_step(&w); /* let the other agreement finish */
    }
    if (chan != USH_COLL_CHAN_BORROW) {
        chan_lock();
        e = chan_slot(pSync, set); /* the table may have changed meanwhile */
        *e = (ush_chan_ent_t){ .psync = pSync, .start = set->start, .stride = set->stride,
                               .size = set->size, .chan = chan };
        chan_unlock();
    }
    return chan;
}

void ush_coll_chan_put(const ush_coll_sync_t *s, int chan)
{
    if (chan != USH_COLL_CHAN_BORROW) return;
    /* No member writes into the borrowed channel after this barrier: the
     * next borrower, with any set, finds it all zero, with no call counts. */
    ush_coll_barrier_aset(s);
    ush_coll_seq_drop(s->w, USH_COLL_W_TOTAL);
    chan_lock();
    ush_chan_busy &= ~USH_COLL_CHAN_BIT(USH_COLL_CHAN_BORROW);
    chan_unlock();
}
