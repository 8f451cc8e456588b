/*
 * PMIx bootstrap: who we are, who is on this node, one blob each PE
 * publishes and any PE may look up.
 * Ending the job is abort.c's.
 * Without a PMIx server (a program started by hand) the job is one PE.
 */
#include "ush_tp_impl.h"

#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

ush_tp_job_t ush_tp_job;

static pmix_proc_t ush_tp_myproc;
int                ush_tp_pmix_up;
uint64_t           ush_tp_pmix_init_ns;
static unsigned     ush_tp_inits;   /* bootstrap_init calls: names exchange keys */
static size_t       ush_tp_lost_id; /* the lost-server handler's registration */
static int          ush_tp_lost_registered;

/* The PMIx server (oshrun, mpirun's daemon, slurmstepd) is gone: so is the
 * launcher that would end this PE, and nobody will serve a fence again, so
 * a PE waiting in a barrier would spin for ever. PMIx reports the closed
 * connection to this handler in its own progress thread, whatever the
 * program's threads are doing: end the process from here. */
static void ush_tp_lost_server(size_t id, pmix_status_t status, const pmix_proc_t *source,
                               pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                               size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                               void *cbdata)
{
    (void)id; (void)source; (void)info; (void)ninfo; (void)results; (void)nresults;
    (void)cbfunc; (void)cbdata;
    char why[128];
    snprintf(why, sizeof(why), "PMIx server connection: %s", PMIx_Error_string(status));
    ush_tp_abort_launcher_lost(why);
}

/* Registered once, for as long as PMIx is up (see ush_tp_bootstrap_init):
 * a program that finalized and goes on computing also ends with its
 * launcher. Without the handler the job still runs, so a failure only
 * costs that. */
static void ush_tp_lost_register(void)
{
    pmix_status_t codes[] = { PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH };
    pmix_status_t rc = PMIx_Register_event_handler(codes, 2, NULL, 0, ush_tp_lost_server,
                                                   NULL, NULL);
    if (rc >= 0) {
        ush_tp_lost_id         = (size_t)rc;
        ush_tp_lost_registered = 1;
    }
}

static int ush_tp_get_u32(const pmix_proc_t *proc, const char *key, uint32_t *out)
{
    pmix_value_t *val = NULL;
    if (PMIx_Get(proc, key, NULL, 0, &val) != PMIX_SUCCESS || val == NULL) {
        return -1;
    }
    int rc = 0;
    switch (val->type) {
    case PMIX_UINT32: *out = val->data.uint32; break;
    case PMIX_UINT16: *out = val->data.uint16; break;
    case PMIX_INT:    *out = (uint32_t)val->data.integer; break;
    case PMIX_UINT64: *out = (uint32_t)val->data.uint64; break;
    default:          rc = -1;
    }
    PMIX_VALUE_RELEASE(val);
    return rc;
}

static int ush_tp_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* PMIX_LOCAL_PEERS is a comma-separated list of ranks: into
 * ush_tp.local_pes, with our own rank, ascending and without repeats. */
static ush_tp_status_t ush_tp_parse_local_peers(const char *list)
{
    int cap = 1, n = 0;
    for (const char *p = list; p && *p; p++) cap += *p == ',';
    cap += 1;
    int *pes = malloc((size_t)cap * sizeof(int));
    if (!pes) return USH_TP_ERR_NOMEM;
    pes[n++] = ush_tp_job.rank;
    for (const char *p = list; p && *p && n < cap;) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p) break;
        if (r >= 0 && r < ush_tp_job.size) pes[n++] = (int)r;
        p = (*end == ',') ? end + 1 : end;
    }
    qsort(pes, (size_t)n, sizeof(int), ush_tp_cmp_int);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k == 0 || pes[k - 1] != pes[i]) pes[k++] = pes[i];
    }
    ush_tp.local_pes = pes;
    ush_tp.nlocal    = k;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_bootstrap_init(void)
{
    ush_tp_inits++;
    /* PMIx stays up across finalize (see ush_tp_bootstrap_finalize's
     * caller): a second init only reads the job again. */
    pmix_status_t rc = ush_tp_pmix_up ? PMIX_SUCCESS : PMIx_Init(&ush_tp_myproc, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        /* No launcher: a singleton job. Only an absent server means that;
         * a server that answers badly is an error worth reporting. */
        if (getenv("PMIX_NAMESPACE") || getenv("PMIX_SERVER_URI41") ||
            getenv("PMIX_SERVER_URI4") || getenv("PMIX_SERVER_URI3")) {
            ush_tp_set_error("PMIx_Init: %s", PMIx_Error_string(rc));
            return USH_TP_ERR_BOOTSTRAP;
        }
        ush_tp_job = (ush_tp_job_t){ .rank = 0, .size = 1, .local_rank = 0,
                                     .local_size = 1, .num_nodes = 1, .singleton = 1 };
        return ush_tp_parse_local_peers(NULL);
    }
    if (!ush_tp_pmix_up) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ush_tp_pmix_init_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    }
    ush_tp_pmix_up = 1;
    ush_tp_lost_register();

    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, ush_tp_myproc.nspace, PMIX_RANK_WILDCARD);
    uint32_t size, lsize = 1, lrank = 0, nnodes = 1;
    if (ush_tp_get_u32(&wild, PMIX_JOB_SIZE, &size) &&
        ush_tp_get_u32(&wild, PMIX_UNIV_SIZE, &size)) {
        ush_tp_set_error("PMIx_Get(PMIX_JOB_SIZE): the launcher did not provide the job size");
        return USH_TP_ERR_BOOTSTRAP;
    }
    ush_tp_get_u32(&wild, PMIX_LOCAL_SIZE, &lsize);
    ush_tp_get_u32(&wild, PMIX_NUM_NODES, &nnodes);
    ush_tp_get_u32(&ush_tp_myproc, PMIX_LOCAL_RANK, &lrank);

    ush_tp_job = (ush_tp_job_t){ .rank = (int)ush_tp_myproc.rank, .size = (int)size,
                                 .local_rank = (int)lrank, .local_size = (int)lsize,
                                 .num_nodes = (int)nnodes };
    pmix_value_t *val = NULL;
    const char   *list = NULL;
    if (PMIx_Get(&wild, PMIX_LOCAL_PEERS, NULL, 0, &val) == PMIX_SUCCESS && val &&
        val->type == PMIX_STRING) {
        list = val->data.string;
    }
    ush_tp_status_t ret = ush_tp_parse_local_peers(list);
    if (val) PMIX_VALUE_RELEASE(val);
    return ret;
}

static void ush_tp_fence_done(pmix_status_t status, void *cbdata)
{
    __atomic_store_n((int *)cbdata, status == PMIX_SUCCESS ? 1 : -1, __ATOMIC_RELEASE);
}

const char *ush_tp_bootstrap_nspace(void)
{
    return ush_tp_myproc.nspace;
}

void ush_tp_bootstrap_hostname(int pe, char *buf, size_t len)
{
    pmix_proc_t   proc;
    pmix_value_t *val = NULL;

    buf[0] = '\0';
    if (!ush_tp_pmix_up || len == 0) return;
    PMIX_LOAD_PROCID(&proc, ush_tp_myproc.nspace, (pmix_rank_t)pe);
    if (PMIx_Get(&proc, PMIX_HOSTNAME, NULL, 0, &val) == PMIX_SUCCESS && val &&
        val->type == PMIX_STRING && val->data.string) {
        snprintf(buf, len, "%s", val->data.string);
    }
    if (val) PMIX_VALUE_RELEASE(val);
}

ush_tp_status_t ush_tp_bootstrap_fence_progress(int (*progress)(void *), void *arg)
{
    if (!ush_tp_pmix_up) return USH_TP_OK;
    int           done = 0;
    pmix_status_t rc   = PMIx_Fence_nb(NULL, 0, NULL, 0, ush_tp_fence_done, &done);
    if (rc != PMIX_SUCCESS) {
        ush_tp_set_error("PMIx_Fence_nb: %s", PMIx_Error_string(rc));
        return USH_TP_ERR_BOOTSTRAP;
    }
    for (unsigned idle = 0; !__atomic_load_n(&done, __ATOMIC_ACQUIRE);) {
        if (progress(arg)) idle = 0;
        else ush_tp_idle(idle++);
    }
    if (done < 0) {
        ush_tp_set_error("PMIx_Fence_nb failed");
        return USH_TP_ERR_BOOTSTRAP;
    }
    return USH_TP_OK;
}

/* The key of this start-up's blobs: it carries the count of inits, so a
 * restarted library never reads what a peer published in an earlier life. */
static void ush_tp_bootstrap_key(char *key, size_t len, const char *key_base)
{
    snprintf(key, len, "%s.%u", key_base, ush_tp_inits);
}

static pmix_status_t ush_tp_pmix_fence(int collect)
{
    pmix_info_t info;
    bool        flag = collect != 0;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

/* The first PE after us in rank order that runs on another node, or -1. */
static int ush_tp_remote_next(void)
{
    for (int i = 1; i < ush_tp_job.size; i++) {
        int pe = (ush_tp_job.rank + i) % ush_tp_job.size;
        if (!ush_tp_local(pe)) return pe;
    }
    return -1;
}

/* Seconds the probe of direct modex waits for a peer's blob. */
#define USH_TP_DMODEX_PROBE_S 10

int  ush_tp_modex_collected = 1;
long ush_tp_wireup_collect_max = 4096;

/* Whether the launcher hands out a peer's blob (key) on demand, from the
 * peer's node: the answer to one PMIx_Get. Every PE asks about its next
 * PE on another node, after a fence, so every PE gets its launcher's
 * answer; all of a job's servers are one launcher's. */
static int ush_tp_dmodex_serves(const char *key)
{
    int pe = ush_tp_remote_next();
    if (pe < 0) return 1;
    pmix_proc_t   proc;
    pmix_value_t *val = NULL;
    pmix_info_t   info;
    int           timeout = USH_TP_DMODEX_PROBE_S;
    PMIX_LOAD_PROCID(&proc, ush_tp_myproc.nspace, (pmix_rank_t)pe);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, &val);
    PMIX_INFO_DESTRUCT(&info);
    int ok = rc == PMIX_SUCCESS && val && val->type == PMIX_BYTE_OBJECT;
    if (val) PMIX_VALUE_RELEASE(val);
    return ok;
}

ush_tp_status_t ush_tp_bootstrap_publish(const char *key_base, const void *blob, size_t len,
                                         int *collected)
{
    int collect = *collected;
    /* A job of one reads only its own record, which the caller keeps. */
    if (!ush_tp_pmix_up) return USH_TP_OK;
    char key[PMIX_MAX_KEYLEN + 1];
    ush_tp_bootstrap_key(key, sizeof(key), key_base);
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type          = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)blob;
    v.data.bo.size  = len;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        ush_tp_set_error("PMIx_Put/Commit(%s): %s", key, PMIx_Error_string(rc));
        return USH_TP_ERR_BOOTSTRAP;
    }

    /* Collected, every PE's blob is at every node's PMIx server once the
     * fence returns: each node receives and holds the whole job's blobs
     * (100 MB a node for 100 000 PEs of 1 KiB), most never read. Not
     * collected, a node's server holds its own PEs' blobs, and a lookup
     * of a PE on another node asks that node's server for it (direct
     * modex: Slurm's PMIx plugin, Open MPI's mpirun, PRRTE). A request
     * costs more than the blob it fetches (8 nodes x 8 PEs under mpirun,
     * blobs of 295 bytes: 67-73 KB received a node collected, 82-83 KB on
     * demand, each PE reading 7 remote blobs), so the caller collects in
     * small jobs. A launcher that cannot serve such lookups says so to the
     * probe, on every PE alike, and the job then collects after all. */
    if (!collect) {
        rc = ush_tp_pmix_fence(0);
        if (rc == PMIX_SUCCESS && !ush_tp_dmodex_serves(key)) collect = 1;
    }
    if (collect && rc == PMIX_SUCCESS) rc = ush_tp_pmix_fence(1);
    if (rc != PMIX_SUCCESS) {
        ush_tp_set_error("PMIx_Fence(%s): %s", collect ? "collect" : "no data",
                         PMIx_Error_string(rc));
        return USH_TP_ERR_BOOTSTRAP;
    }
    *collected = collect;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_bootstrap_lookup(const char *key_base, int pe,
                                        int (*fn)(int pe, const void *blob, size_t len,
                                                  void *arg),
                                        void *arg)
{
    if (!ush_tp_pmix_up) {
        ush_tp_set_error("no wire-up data of PE %d without a launcher", pe);
        return USH_TP_ERR_BOOTSTRAP;
    }
    char          key[PMIX_MAX_KEYLEN + 1];
    pmix_proc_t   proc;
    pmix_value_t *val = NULL;
    ush_tp_bootstrap_key(key, sizeof(key), key_base);
    PMIX_LOAD_PROCID(&proc, ush_tp_myproc.nspace, (pmix_rank_t)pe);
    pmix_status_t rc = PMIx_Get(&proc, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS || !val || val->type != PMIX_BYTE_OBJECT) {
        ush_tp_set_error("PMIx_Get(%s) of PE %d: %s", key, pe,
                         rc != PMIX_SUCCESS ? PMIx_Error_string(rc) : "wrong type");
        if (val) PMIX_VALUE_RELEASE(val);
        return USH_TP_ERR_BOOTSTRAP;
    }
    int bad = fn(pe, val->data.bo.bytes, val->data.bo.size, arg);
    PMIX_VALUE_RELEASE(val);
    return bad ? USH_TP_ERR_BOOTSTRAP : USH_TP_OK;
}

ush_tp_status_t ush_tp_gather(const char *key, const void *blob, size_t len, int root,
                              int (*fn)(int pe, const void *blob, size_t len, void *arg),
                              void *arg)
{
    /* Collected: the root reads every blob anyway. */
    int             collect = 1;
    ush_tp_status_t st      = ush_tp_bootstrap_publish(key, blob, len, &collect);
    if (st != USH_TP_OK || ush_tp_job.rank != root) return st;
    for (int pe = 0; pe < ush_tp_job.size; pe++) {
        st = pe == root ? (fn(pe, blob, len, arg) ? USH_TP_ERR_BOOTSTRAP : USH_TP_OK)
                        : ush_tp_bootstrap_lookup(key, pe, fn, arg);
        if (st != USH_TP_OK) {
            if (pe == root) ush_tp_set_error("PE %d's own %s blob is malformed", pe, key);
            return st;
        }
    }
    return USH_TP_OK;
}

typedef struct {
    int pe;
    void (*fn)(int pe, const void *blob, size_t len, void *arg);
    void *arg;
} ush_tp_lookup_nb_t;

static void ush_tp_lookup_nb_done(pmix_status_t rc, pmix_value_t *val, void *cbdata)
{
    ush_tp_lookup_nb_t *req = cbdata;
    int ok = rc == PMIX_SUCCESS && val && val->type == PMIX_BYTE_OBJECT;
    req->fn(req->pe, ok ? val->data.bo.bytes : NULL, ok ? val->data.bo.size : 0, req->arg);
    free(req);
}

ush_tp_status_t ush_tp_bootstrap_lookup_nb(const char *key_base, int pe,
                                           void (*fn)(int pe, const void *blob, size_t len,
                                                      void *arg),
                                           void *arg)
{
    if (!ush_tp_pmix_up) return USH_TP_ERR_BOOTSTRAP;
    ush_tp_lookup_nb_t *req = malloc(sizeof(*req));
    if (!req) return USH_TP_ERR_NOMEM;
    *req = (ush_tp_lookup_nb_t){ pe, fn, arg };
    char        key[PMIX_MAX_KEYLEN + 1];
    pmix_proc_t proc;
    ush_tp_bootstrap_key(key, sizeof(key), key_base);
    PMIX_LOAD_PROCID(&proc, ush_tp_myproc.nspace, (pmix_rank_t)pe);
    if (PMIx_Get_nb(&proc, key, NULL, 0, ush_tp_lookup_nb_done, req) != PMIX_SUCCESS) {
        free(req);
        return USH_TP_ERR_BOOTSTRAP;
    }
    return USH_TP_OK;
}

void ush_tp_bootstrap_finalize(void)
{
    if (ush_tp_pmix_up) {
        /* a disconnect of our own making is no lost launcher */
        if (ush_tp_lost_registered) {
            PMIx_Deregister_event_handler(ush_tp_lost_id, NULL, NULL);
            ush_tp_lost_registered = 0;
        }
        PMIx_Finalize(NULL, 0);
        ush_tp_pmix_up = 0;
    }
}
