/*
 * The progress thread.
 *
 * Where UCX emulates RMA and atomics in software (TCP between nodes, or
 * atomics on memory no transport can reach directly), a peer's get, put or
 * fetch-add on this PE is an active message that completes only when this
 * PE's default worker is progressed. A PE that computes for seconds
 * without calling the library would stall every such peer for as long.
 *
 * The thread sleeps on the worker's event descriptor and wakes when a
 * message arrives, progresses until the worker is idle, re-arms and sleeps
 * again: no CPU while nothing comes in. While the program itself is
 * progressing the worker (a wait, a blocking get), the thread stays out of
 * its way: it only naps and looks again, so the two never fight over the
 * worker's lock or the PE's core. The poll timeout is a safety net for a
 * transport that cannot raise events.
 *
 * Memory ordering between this thread and the program's:
 *  - A peer's put and then its flag (an atomic, or a put after a fence)
 *    land in our memory from this thread, as UCX's plain stores, each in
 *    one ucp_worker_progress call holding the worker's lock. The flag's
 *    message is only sent once the peer's fence has seen the put complete,
 *    so the put's stores are made in an earlier critical section: the
 *    lock's release and the next acquire (a store-release followed by a
 *    load-acquire, ordered on aarch64 and POWER alike) order them before
 *    the flag's. The program's wait reads the flag with a relaxed load and
 *    then fences with acquire (p2p_api.c), so it reads the data after.
 *  - A request this thread completes (a get's data, a fetching atomic's
 *    reply, a flush) is seen done by the program through
 *    ucp_request_check_status, a plain read; ush_tp_wait then frees the
 *    request, which takes the worker's lock after this thread released it,
 *    and that orders the data before the caller's reads (ops.c).
 *  - ush_tp_progress_calls is a hint (relaxed both sides): a stale value
 *    only makes this thread progress once more or nap once more.
 *  - The stop flag is a release/acquire pair; pthread_join does the rest.
 */
#include "ush_tp_impl.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>

#define USH_TP_PROGRESS_POLL_MS 10

static pthread_t ush_tp_progress_tid;
static int       ush_tp_progress_running;
static int       ush_tp_progress_stop;

/* Counts the program's own progress calls (ush_tp_progress). */
unsigned long ush_tp_progress_calls;

static void *ush_tp_progress_main(void *arg)
{
    ucp_worker_h  worker = arg;
    int           efd;
    struct pollfd pfd = { .events = POLLIN };
    unsigned long seen = __atomic_load_n(&ush_tp_progress_calls, __ATOMIC_RELAXED);

    if (ucp_worker_get_efd(worker, &efd) != UCS_OK) efd = -1;
    pfd.fd = efd;

    while (!__atomic_load_n(&ush_tp_progress_stop, __ATOMIC_ACQUIRE)) {
        unsigned long calls = __atomic_load_n(&ush_tp_progress_calls, __ATOMIC_RELAXED);
        if (calls != seen) {
            /* The program is progressing the worker itself. */
            seen = calls;
            poll(NULL, 0, 1);
            continue;
        }
        while (ucp_worker_progress(worker)) {
        }
        if (efd < 0) {
            poll(NULL, 0, 1);
            continue;
        }
        /* BUSY: events arrived since the last progress; go round again. */
        ucs_status_t st = ucp_worker_arm(worker);
        if (st == UCS_ERR_BUSY) continue;
        if (st != UCS_OK) {
            poll(NULL, 0, 1);
            continue;
        }
        poll(&pfd, 1, USH_TP_PROGRESS_POLL_MS);
    }
    return NULL;
}

ush_tp_status_t ush_tp_progress_thread_start(void)
{
    if (!ush_tp_progress_mt) {
        ush_tp_set_error("UCX provides no thread-safe worker for a progress thread");
        return USH_TP_ERR_UCX;
    }
    ush_tp_progress_stop = 0;
    int rc = pthread_create(&ush_tp_progress_tid, NULL, ush_tp_progress_main,
                            ush_tp_ctx_default->worker);
    if (rc != 0) {
        ush_tp_set_error("pthread_create for the progress thread failed (error %d)", rc);
        return USH_TP_ERR_NOMEM;
    }
    ush_tp_progress_running = 1;
    return USH_TP_OK;
}

void ush_tp_progress_thread_stop(void)
{
    if (!ush_tp_progress_running) return;
    __atomic_store_n(&ush_tp_progress_stop, 1, __ATOMIC_RELEASE);
    ucp_worker_signal(ush_tp_ctx_default->worker); /* out of its poll now */
    pthread_join(ush_tp_progress_tid, NULL);
    ush_tp_progress_running = 0;
}
