/*
 * oshrun as a PMIx server: describe the job to libpmix, give each PE its
 * contact environment, and answer the few upcalls a one-node job needs.
 *
 * Upcalls arrive on libpmix's progress thread. Each one answers libpmix
 * right there, on that thread, as libpmix's own reference server does (its
 * completion callbacks touch per-client state that libpmix's thread also
 * handles, e.g. when that client disconnects), and queues an event for the
 * main thread, which owns all job state. The event is queued before the
 * client is released, so a PE's abort or finalize is always in the queue
 * before that PE can exit.
 */
#include "oshrun.h"

#include <errno.h>
#include <fcntl.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long we wait for libpmix to confirm an asynchronous request: setup
 * is worth some patience, teardown must not hold up the exit. */
#define USH_RUN_PMIX_WAIT_S     30
#define USH_RUN_PMIX_WAIT_FIN_S 5

static pthread_mutex_t ush_run_ev_lock = PTHREAD_MUTEX_INITIALIZER;
static ush_run_ev_t   *ush_run_ev_head, *ush_run_ev_tail;
static int             ush_run_wake[2] = { -1, -1 };
static int             ush_run_server_up;
static int             ush_run_nspace_up;

/* ---- events: PMIx thread -> main thread ------------------------------- */

static void ush_run_ev_post(ush_run_ev_t *ev)
{
    pthread_mutex_lock(&ush_run_ev_lock);
    if (ush_run_ev_tail) {
        ush_run_ev_tail->next = ev;
    } else {
        ush_run_ev_head = ev;
    }
    ush_run_ev_tail = ev;
    pthread_mutex_unlock(&ush_run_ev_lock);
    /* a full pipe already means "wake up", so EAGAIN is fine */
    ssize_t rc;
    do {
        rc = write(ush_run_wake[1], "e", 1);
    } while (rc < 0 && errno == EINTR);

}

static ush_run_ev_t *ush_run_ev_new(ush_run_ev_kind_t kind, const pmix_proc_t *proc)
{
    ush_run_ev_t *ev = calloc(1, sizeof(*ev));
    if (ev) {
        ev->kind = kind;
        ev->rank = (proc && proc->rank != PMIX_RANK_WILDCARD) ? (int)proc->rank : -1;
    }
    return ev;
}

int ush_run_server_wake_fd(void)
{
    return ush_run_wake[0];
}

ush_run_ev_t *ush_run_server_take_events(void)
{
    char          drain[64];
    ush_run_ev_t *list;

    while (read(ush_run_wake[0], drain, sizeof(drain)) > 0) {
    }
    pthread_mutex_lock(&ush_run_ev_lock);
    list            = ush_run_ev_head;
    ush_run_ev_head = ush_run_ev_tail = NULL;
    pthread_mutex_unlock(&ush_run_ev_lock);
    return list;
}

void ush_run_server_ev_free(ush_run_ev_t *ev)
{
    free(ev->msg);
    free(ev);
}

static void ush_run_fence_release(void *cbdata)
{
    free(cbdata);
}

/* ---- upcalls (PMIx progress thread) ----------------------------------- */

/* Connected and finalized complete at once: PMIX_OPERATION_SUCCEEDED tells
 * libpmix to release the client itself, with no callback. */
static pmix_status_t ush_run_up_connected(const pmix_proc_t *proc, void *server_object,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ush_run_ev_t *ev = ush_run_ev_new(USH_RUN_EV_CONNECTED, proc);
    if (ev == NULL) {
        return PMIX_ERR_NOMEM;
    }
    ush_run_ev_post(ev);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t ush_run_up_finalized(const pmix_proc_t *proc, void *server_object,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ush_run_ev_t *ev = ush_run_ev_new(USH_RUN_EV_FINALIZED, proc);
    if (ev == NULL) {
        return PMIX_ERR_NOMEM;
    }
    ush_run_ev_post(ev);
    return PMIX_OPERATION_SUCCEEDED;
}

/* PMIx_Abort: whatever procs it names, a PE that aborts ends the job. The
 * main thread does the ending; releasing the caller here lets it go on to
 * exit by itself if it is quicker than our SIGTERM. */
static pmix_status_t ush_run_up_abort(const pmix_proc_t *proc, void *server_object,
                                      int status, const char msg[],
                                      pmix_proc_t procs[], size_t nprocs,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    ush_run_ev_t *ev = ush_run_ev_new(USH_RUN_EV_ABORT, proc);
    if (ev == NULL) {
        return PMIX_ERR_NOMEM;
    }
    ev->status = status;
    ev->msg    = (msg && *msg) ? strdup(msg) : NULL;
    ush_run_ev_post(ev);
    if (cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

/* libpmix calls this once every local participant has arrived. All PEs are
 * local, so the blob of their contributions is already the whole answer:
 * hand it straight back and every client can read every peer's keys. The
 * callback only schedules work on libpmix's thread, and may use the data
 * after we return, so it gets a copy that its release hook frees. */
static pmix_status_t ush_run_up_fence(const pmix_proc_t procs[], size_t nprocs,
                                      const pmix_info_t info[], size_t ninfo,
                                      char *data, size_t ndata,
                                      pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    char *copy = NULL;

    if (data && ndata) {
        copy = malloc(ndata);
        if (copy == NULL) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy, data, ndata);
    }
    if (cbfunc) {
        cbfunc(PMIX_SUCCESS, copy, copy ? ndata : 0, cbdata,
               copy ? ush_run_fence_release : NULL, copy);
    } else {
        free(copy);
    }
    return PMIX_SUCCESS;
}

static pmix_server_module_t ush_run_module = {
    .client_connected = ush_run_up_connected,
    .client_finalized = ush_run_up_finalized,
    .abort            = ush_run_up_abort,
    .fence_nb         = ush_run_up_fence,
};

/* ---- waiting for libpmix (main thread) -------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    int             done;
    pmix_status_t   status;
} ush_run_wait_t;

/* On the heap, because a request that times out may still call back. */
static ush_run_wait_t *ush_run_wait_new(void)
{
    ush_run_wait_t *w = calloc(1, sizeof(*w));
    if (w) {
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->cond, NULL);
    }
    return w;
}

static void ush_run_wait_cb(pmix_status_t status, void *cbdata)
{
    ush_run_wait_t *w = cbdata;
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done   = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

/* rc is what the request returned: PMIX_SUCCESS means "callback to come",
 * PMIX_OPERATION_SUCCEEDED means "done, no callback". Frees w, except after
 * a timeout: then the late callback still has somewhere to write. */
static pmix_status_t ush_run_wait(ush_run_wait_t *w, pmix_status_t rc, int seconds)
{
    struct timespec until;

    if (rc == PMIX_SUCCESS) {
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += seconds;
        pthread_mutex_lock(&w->lock);
        while (!w->done) {
            if (pthread_cond_timedwait(&w->cond, &w->lock, &until) == ETIMEDOUT) {
                pthread_mutex_unlock(&w->lock);
                return PMIX_ERR_TIMEOUT;
            }
        }
        rc = w->status;
        pthread_mutex_unlock(&w->lock);
    } else if (rc == PMIX_OPERATION_SUCCEEDED) {
        rc = PMIX_SUCCESS;
    }
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w);
    return rc;
}

/* ---- setup and teardown (main thread) ---------------------------------- */

ush_run_status_t ush_run_server_init(ush_run_job_t *job)
{
    pmix_info_t   info[4];
    bool          no = false;
    pmix_status_t rc;

    if (pipe2(ush_run_wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        ush_run_msg("pipe: %s", strerror(errno));
        return USH_RUN_ERR_SYS;
    }
    snprintf(job->nspace, sizeof(job->nspace), "oshrun-%ld", (long)getpid());

    /* Both tmpdirs in our private directory: nothing of PMIx's lands in a
     * shared place, and removing one directory cleans up everything. No
     * tool or system-wide server: no rendezvous files for outsiders. */
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, job->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, job->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TOOL_SUPPORT, &no, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_SYSTEM_SUPPORT, &no, PMIX_BOOL);
    rc = PMIx_server_init(&ush_run_module, info, 4);
    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_server_init: %s", PMIx_Error_string(rc));
        close(ush_run_wake[0]);
        close(ush_run_wake[1]);
        ush_run_wake[0] = ush_run_wake[1] = -1;
        return USH_RUN_ERR_PMIX;
    }
    ush_run_server_up = 1;
    return USH_RUN_OK;
}

/* "0,1,...,n-1", the local ranks in the form PMIx wants them. */
static char *ush_run_rank_list(int npes)
{
    size_t cap = (size_t)npes * 7 + 1;
    char  *s   = malloc(cap);
    size_t len = 0;

    if (s == NULL) {
        return NULL;
    }
    s[0] = '\0';
    for (int r = 0; r < npes; r++) {
        len += (size_t)snprintf(s + len, cap - len, r ? ",%d" : "%d", r);
    }
    return s;
}

#define USH_RUN_ADD(list, key, val, type)                                    \
    do {                                                                     \
        rc = PMIx_Info_list_add((list), (key), (val), (type));               \
        if (rc != PMIX_SUCCESS) {                                            \
            ush_run_msg("PMIx_Info_list_add(%s): %s", (key),                 \
                        PMIx_Error_string(rc));                              \
            goto out_list;                                                   \
        }                                                                    \
    } while (0)

/* One process description: what PMIx_Get on that rank returns. */
static pmix_status_t ush_run_add_proc_data(void *jlist, ush_run_job_t *job, int rank)
{
    void             *plist = PMIx_Info_list_start();
    pmix_data_array_t darray;
    pmix_status_t     rc;
    pmix_rank_t       r     = (pmix_rank_t)rank;
    uint16_t          lrank = (uint16_t)rank;
    uint32_t          zero  = 0;

    if (plist == NULL) {
        return PMIX_ERR_NOMEM;
    }
    /* PMIX_RANK must come first: it says whose data the rest is */
    USH_RUN_ADD(plist, PMIX_RANK, &r, PMIX_PROC_RANK);
    USH_RUN_ADD(plist, PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
    USH_RUN_ADD(plist, PMIX_NODE_RANK, &lrank, PMIX_UINT16);
    USH_RUN_ADD(plist, PMIX_GLOBAL_RANK, &r, PMIX_PROC_RANK);
    USH_RUN_ADD(plist, PMIX_APP_RANK, &r, PMIX_PROC_RANK);
    USH_RUN_ADD(plist, PMIX_APPNUM, &zero, PMIX_UINT32);
    USH_RUN_ADD(plist, PMIX_NODEID, &zero, PMIX_UINT32);
    USH_RUN_ADD(plist, PMIX_HOSTNAME, job->hostname, PMIX_STRING);

    PMIX_DATA_ARRAY_CONSTRUCT(&darray, 0, PMIX_INFO);
    rc = PMIx_Info_list_convert(plist, &darray);
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Info_list_add(jlist, PMIX_PROC_DATA, &darray, PMIX_DATA_ARRAY);
    }
    PMIX_DATA_ARRAY_DESTRUCT(&darray);
out_list:
    PMIx_Info_list_release(plist);
    return rc;
}

ush_run_status_t ush_run_server_register_job(ush_run_job_t *job)
{
    ush_run_status_t  st       = USH_RUN_ERR_PMIX;
    int               npes     = job->opts.npes;
    uint32_t          n        = (uint32_t)npes, one = 1, zero = 0;
    pmix_rank_t       leader   = 0;
    char             *ranks    = NULL, *node_regex = NULL, *proc_regex = NULL;
    void             *list     = NULL;
    pmix_data_array_t darray;
    pmix_status_t     rc;
    ush_run_wait_t   *w;

    PMIX_DATA_ARRAY_CONSTRUCT(&darray, 0, PMIX_INFO);
    ranks = ush_run_rank_list(npes);
    if (ranks == NULL) {
        st = USH_RUN_ERR_NOMEM;
        goto out;
    }
    rc = PMIx_generate_regex(job->hostname, &node_regex);
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_generate_regex(%s): %s", job->hostname, PMIx_Error_string(rc));
        goto out;
    }
    rc = PMIx_generate_ppn(ranks, &proc_regex);
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_generate_ppn: %s", PMIx_Error_string(rc));
        goto out;
    }
    list = PMIx_Info_list_start();
    if (list == NULL) {
        st = USH_RUN_ERR_NOMEM;
        goto out;
    }

    /* the job: everything is on one node, one application */
    USH_RUN_ADD(list, PMIX_JOBID, job->nspace, PMIX_STRING);
    USH_RUN_ADD(list, PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_JOB_SIZE, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_MAX_PROCS, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_JOB_NUM_APPS, &one, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_APP_SIZE, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_NUM_NODES, &one, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_NODE_MAP, node_regex, PMIX_REGEX);
    USH_RUN_ADD(list, PMIX_PROC_MAP, proc_regex, PMIX_REGEX);
    /* this node */
    USH_RUN_ADD(list, PMIX_HOSTNAME, job->hostname, PMIX_STRING);
    USH_RUN_ADD(list, PMIX_NODEID, &zero, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_NODE_SIZE, &n, PMIX_UINT32);
    USH_RUN_ADD(list, PMIX_LOCAL_PEERS, ranks, PMIX_STRING);
    USH_RUN_ADD(list, PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    /* each process */
    for (int r = 0; r < npes; r++) {
        rc = ush_run_add_proc_data(list, job, r);
        if (rc != PMIX_SUCCESS) {
            ush_run_msg("describing PE %d to PMIx: %s", r, PMIx_Error_string(rc));
            goto out_list;
        }
    }
    rc = PMIx_Info_list_convert(list, &darray);
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_Info_list_convert: %s", PMIx_Error_string(rc));
        goto out_list;
    }

    if ((w = ush_run_wait_new()) == NULL) {
        st = USH_RUN_ERR_NOMEM;
        goto out_list;
    }
    rc = ush_run_wait(w, PMIx_server_register_nspace(job->nspace, npes, darray.array,
                                                     darray.size, ush_run_wait_cb, w),
                      USH_RUN_PMIX_WAIT_S);
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_server_register_nspace: %s", PMIx_Error_string(rc));
        goto out_list;
    }
    ush_run_nspace_up = 1;

    for (int r = 0; r < npes; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)r);
        if ((w = ush_run_wait_new()) == NULL) {
            st = USH_RUN_ERR_NOMEM;
            goto out_list;
        }
        rc = ush_run_wait(w, PMIx_server_register_client(&proc, getuid(), getgid(), NULL,
                                                         ush_run_wait_cb, w),
                          USH_RUN_PMIX_WAIT_S);
        if (rc != PMIX_SUCCESS) {
            ush_run_msg("PMIx_server_register_client(PE %d): %s", r, PMIx_Error_string(rc));
            goto out_list;
        }
    }
    st = USH_RUN_OK;

out_list:
    PMIx_Info_list_release(list);
out:
    PMIX_DATA_ARRAY_DESTRUCT(&darray);
    free(proc_regex);
    free(node_regex);
    free(ranks);
    return st;
}

ush_run_status_t ush_run_server_setup_fork(ush_run_job_t *job, int rank, char ***env)
{
    pmix_proc_t   proc;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)rank);
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS) {
        ush_run_msg("PMIx_server_setup_fork(PE %d): %s", rank, PMIx_Error_string(rc));
        return USH_RUN_ERR_PMIX;
    }
    return USH_RUN_OK;
}

/* Whether libpmix can be shut down safely: the job was not ended by us
 * and every PE that connected also finalized. libpmix 4.2's teardown is
 * not safe after clients vanished mid-operation (e.g. killed while in a
 * fence, or while still connecting, which `connected` cannot see yet):
 * PMIx_server_finalize then crashes or hangs now and then. Such a job ends
 * without it; our private tmpdir holds everything libpmix created, and
 * exiting closes the rest. */
int ush_run_server_can_finalize(const ush_run_job_t *job)
{
    if (job->ending) {
        return 0;
    }
    for (int r = 0; r < job->nspawned; r++) {
        if (job->pes[r].connected && !job->pes[r].finalized) {
            return 0;
        }
    }
    return 1;
}

void ush_run_server_finalize(ush_run_job_t *job)
{
    ush_run_ev_t   *ev, *next;
    ush_run_wait_t *w;

    if (!ush_run_server_up) {
        return;
    }
    if (ush_run_nspace_up && (w = ush_run_wait_new()) != NULL) {
        PMIx_server_deregister_nspace(job->nspace, ush_run_wait_cb, w);
        ush_run_wait(w, PMIX_SUCCESS, USH_RUN_PMIX_WAIT_FIN_S);
        ush_run_nspace_up = 0;
    }
    PMIx_server_finalize();
    ush_run_server_up = 0;
    for (ev = ush_run_server_take_events(); ev; ev = next) {
        next = ev->next;
        ush_run_server_ev_free(ev);
    }
    close(ush_run_wake[0]);
    close(ush_run_wake[1]);
    ush_run_wake[0] = ush_run_wake[1] = -1;
}
