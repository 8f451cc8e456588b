/*
 * Eager messages: a collective's data sent to a PE on another node before
 * that PE has asked for it, and kept by the receiver's library until it
 * does, the way MPI's eager protocol works.
 *
 * Without them, a sender may write into a receiver's buffer only once the
 * receiver says it is in the call (a "ready"): the buffer is the program's
 * dest, which the program may still be reading after the previous call, or
 * a scratch still being folded. Across the network that is a whole extra
 * message on the critical path of every hop. An eager message needs no
 * such permission: it lands in memory of the receiver's library, keyed by
 * the sender and a key the collective chooses (where its flag would have
 * been), and the receiver copies it out when it gets there.
 *
 * The handler keeps UCX's own receive buffer where UCX lets it be held
 * (UCP_AM_RECV_ATTR_FLAG_DATA), so a message costs the receiver one copy,
 * as a put followed by its flag does; else it copies the data once more.
 *
 * Order. Messages from one sender under one key are taken in the order
 * they were sent: they are eager active messages on one endpoint, which
 * UCX sends on its one AM lane and delivers in order.
 *
 * Flow control. A sender has at most USH_TP_EAGER_DEPTH messages to each
 * receiver that it does not know taken; the receiver reports what it has
 * taken in a message of its own every half of that. So a root broadcasting
 * in a loop runs at most that many calls ahead, and the memory held for
 * one sender is bounded by that many messages. A sender out of room waits,
 * progressing, until the receiver takes older ones, which needs nothing of
 * the sender: those belong to calls the sender has finished.
 *
 * Threads: the handlers run in whichever thread progresses the default
 * worker (the progress thread included), so the queue has a lock.
 */
#include "ush_tp_impl.h"

#include <stdlib.h>
#include <string.h>

#define USH_TP_AM_EAGER  8
#define USH_TP_AM_CREDIT 9

/* Queues by sender, hashed: a collective waits on few senders at once. */
#define USH_TP_EAGER_BUCKETS 64

struct ush_tp_eager_msg {
    ush_tp_eager_msg_t *next;
    int                 pe;
    uint64_t            key;
    void               *data;
    size_t              len;
    int                 held; /* UCX's buffer, released with ucp_am_data_release */
};

typedef struct {
    uint32_t pe;  /* the sender */
    uint32_t pad;
    uint64_t val; /* EAGER: the key; CREDIT: messages taken from the receiver's sender */
} ush_tp_eager_hdr_t;

static struct {
    ush_tp_eager_msg_t *head, *tail;
} ush_eager_q[USH_TP_EAGER_BUCKETS];
static pthread_mutex_t ush_eager_lock = PTHREAD_MUTEX_INITIALIZER;

/* Per peer, in pages made on first use: as sender, messages sent and
 * known taken (atomic: the credit handler writes it); as receiver,
 * messages taken and taken as last reported. */
typedef struct {
    uint64_t sent[USH_TP_PAGE_PES], credit[USH_TP_PAGE_PES];
    uint64_t taken[USH_TP_PAGE_PES], told[USH_TP_PAGE_PES];
} ush_eager_page_t;

static ush_tp_dir_t ush_eager_pages;

static ush_eager_page_t *ush_eager_page(int pe)
{
    if ((unsigned)pe >= (unsigned)ush_tp_job.size) {
        ush_tp_fatal("a collective's message names PE %d, in a job of %d", pe, ush_tp_job.size);
    }
    return ush_tp_dir_make(&ush_eager_pages, pe);
}

static ucs_status_t ush_tp_eager_cb(void *arg, const void *header, size_t header_length,
                                    void *data, size_t length, const ucp_am_recv_param_t *param)
{
    ush_tp_eager_hdr_t h;
    (void)arg;

    ush_tp_am_header(&h, sizeof h, header, header_length, param);
    ush_tp_eager_msg_t *m = malloc(sizeof *m);
    if (m == NULL) ush_tp_fatal("out of memory for a collective's message of %zu bytes", length);
    *m = (ush_tp_eager_msg_t){ .pe = (int)h.pe, .key = h.val, .len = length };
    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA) {
        m->data = data;
        m->held = 1;
    } else if (length) {
        if ((m->data = malloc(length)) == NULL) {
            ush_tp_fatal("out of memory for a collective's message of %zu bytes", length);
        }
        memcpy(m->data, data, length);
    }

    pthread_mutex_lock(&ush_eager_lock);
    unsigned b = h.pe % USH_TP_EAGER_BUCKETS;
    if (ush_eager_q[b].tail) {
        ush_eager_q[b].tail->next = m;
    } else {
        __atomic_store_n(&ush_eager_q[b].head, m, __ATOMIC_RELAXED); /* find's unlocked look */
    }
    ush_eager_q[b].tail = m;
    pthread_mutex_unlock(&ush_eager_lock);
    return m->held ? UCS_INPROGRESS : UCS_OK;
}

static ucs_status_t ush_tp_credit_cb(void *arg, const void *header, size_t header_length,
                                     void *data, size_t length, const ucp_am_recv_param_t *param)
{
    ush_tp_eager_hdr_t h;
    (void)arg, (void)data, (void)length;

    ush_tp_am_header(&h, sizeof h, header, header_length, param);
    /* Two threads taking messages may send their reports out of order:
     * keep the largest. */
    uint64_t *credit = &ush_eager_page((int)h.pe)->credit[h.pe & USH_TP_PAGE_MASK];
    uint64_t  cur    = __atomic_load_n(credit, __ATOMIC_RELAXED);
    while (h.val > cur && !__atomic_compare_exchange_n(credit, &cur, h.val, 0, __ATOMIC_RELEASE,
                                                       __ATOMIC_RELAXED)) {
    }
    return UCS_OK;
}

ush_tp_status_t ush_tp_eager_init(ucp_worker_h worker)
{
    memset(ush_eager_q, 0, sizeof ush_eager_q);
    ush_tp_status_t ret = ush_tp_dir_init(&ush_eager_pages, ush_tp_job.size,
                                          sizeof(ush_eager_page_t));
    if (ret == USH_TP_OK) ret = ush_tp_am_set_handler(worker, USH_TP_AM_EAGER, ush_tp_eager_cb);
    if (ret == USH_TP_OK) ret = ush_tp_am_set_handler(worker, USH_TP_AM_CREDIT, ush_tp_credit_cb);
    return ret;
}

void ush_tp_eager_fini(ucp_worker_h worker)
{
    /* Every collective has taken its messages by the finalize barrier;
     * anything left is from a job that went wrong. */
    for (int b = 0; b < USH_TP_EAGER_BUCKETS; b++) {
        for (ush_tp_eager_msg_t *m = ush_eager_q[b].head, *next; m; m = next) {
            next = m->next;
            if (m->held) {
                ucp_am_data_release(worker, m->data);
            } else {
                free(m->data);
            }
            free(m);
        }
        ush_eager_q[b].head = ush_eager_q[b].tail = NULL;
    }
}

void ush_tp_eager_free(void)
{
    ush_tp_dir_fini(&ush_eager_pages, NULL);
}

int ush_tp_eager_room(int pe)
{
    const ush_eager_page_t *pg = ush_eager_page(pe);
    int                     k  = pe & USH_TP_PAGE_MASK;
    return __atomic_load_n(&pg->sent[k], __ATOMIC_RELAXED) -
               __atomic_load_n(&pg->credit[k], __ATOMIC_ACQUIRE) <
           USH_TP_EAGER_DEPTH;
}

void ush_tp_eager_send(ush_tp_ctx_t *c, int pe, uint64_t key, const void *src, size_t len)
{
    ush_tp_eager_hdr_t h = { .pe = (uint32_t)ush_tp_job.rank, .val = key };
    __atomic_fetch_add(&ush_eager_page(pe)->sent[pe & USH_TP_PAGE_MASK], 1, __ATOMIC_RELAXED);
    ush_tp_am_send(c, pe, USH_TP_AM_EAGER, &h, sizeof h, src, len);
}

ush_tp_eager_msg_t *ush_tp_eager_find(int pe, uint64_t key, const void **data, size_t *len)
{
    unsigned            b = (unsigned)pe % USH_TP_EAGER_BUCKETS;
    ush_tp_eager_msg_t *m, *prev = NULL;

    /* Unlocked look first: a waiting collective polls here. A stale NULL
     * only means one more poll. */
    if (__atomic_load_n(&ush_eager_q[b].head, __ATOMIC_RELAXED) == NULL) return NULL;
    pthread_mutex_lock(&ush_eager_lock);
    for (m = ush_eager_q[b].head; m; prev = m, m = m->next) {
        if (m->pe == pe && m->key == key) break;
    }
    if (m) {
        if (prev) {
            prev->next = m->next;
        } else {
            __atomic_store_n(&ush_eager_q[b].head, m->next, __ATOMIC_RELAXED);
        }
        if (ush_eager_q[b].tail == m) ush_eager_q[b].tail = prev;
    }
    pthread_mutex_unlock(&ush_eager_lock);
    if (m) {
        *data = m->data;
        *len  = m->len;
    }
    return m;
}

void ush_tp_eager_done(ush_tp_eager_msg_t *m)
{
    int               pe      = m->pe, k = pe & USH_TP_PAGE_MASK;
    ush_eager_page_t *pg      = ush_eager_page(pe);
    uint64_t         *told_at = &pg->told[k];
    uint64_t          taken   = __atomic_add_fetch(&pg->taken[k], 1, __ATOMIC_RELAXED);

    if (m->held) {
        ucp_am_data_release(ush_tp_ctx_default->worker, m->data);
    } else {
        free(m->data);
    }
    free(m);
    /* Tell the sender every half queue, so it never runs out of room
     * while we are still taking. */
    uint64_t told = __atomic_load_n(told_at, __ATOMIC_RELAXED);
    if (taken - told >= USH_TP_EAGER_DEPTH / 2 &&
        __atomic_compare_exchange_n(told_at, &told, taken, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
        ush_tp_eager_hdr_t h = { .pe = (uint32_t)ush_tp_job.rank, .val = taken };
        ush_tp_am_send(ush_tp_ctx_default, pe, USH_TP_AM_CREDIT, &h, sizeof h, NULL, 0);
    }
}
