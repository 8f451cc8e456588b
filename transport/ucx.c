/*
 * UCX context, worker, symmetric segments and wire-up.
 */
#include "ush_tp_impl.h"

#include <ucs/debug/log_def.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

ush_tp_state_t  ush_tp;
ush_tp_ctx_t   *ush_tp_ctx_default;
ush_tp_thread_t ush_tp_thread_provided;
ush_tp_thread_t ush_tp_thread_job;
int             ush_tp_progress_mt;
int            ush_tp_direct_amo;
int            ush_tp_all_mapped;
unsigned       ush_tp_local_mapped;

/* What a worker's posix receive FIFO and first pool of receive buffers
 * (MM_RX_BUFS_GROW, set in ush_tp_init) take in /dev/shm: 1.03 MiB;
 * a little more is asked for. */
#define USH_TP_WORKER_SHM_BYTES (5 << 18)

static ush_tp_ctx_t ush_tp_ctx_default_obj;
static __thread char ush_tp_errbuf[512];

void ush_tp_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ush_tp_errbuf, sizeof(ush_tp_errbuf), fmt, ap);
    va_end(ap);
}

const char *ush_tp_strerror(void)
{
    return ush_tp_errbuf;
}

void ush_tp_fatal(const char *fmt, ...)
{
    char    msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "ushmem: PE %d: %s\n", ush_tp_job.rank, msg);
    ush_tp_abort(1, NULL); /* the message is printed above, once */
}

/* Statuses with which UCX says a peer stopped answering. */
static int ush_tp_peer_lost_status(ucs_status_t st)
{
    return st == UCS_ERR_ENDPOINT_TIMEOUT || st == UCS_ERR_CONNECTION_RESET ||
           st == UCS_ERR_UNREACHABLE || st == UCS_ERR_NOT_CONNECTED;
}

/* How long a PE whose peer stopped answering waits for the launcher to
 * end the job before it reports the loss itself. srun and mpirun end a
 * job within a second of a PE's death (0.2-0.7 s across netns nodes). */
#define USH_TP_PEER_LOST_WAIT_S 3

/* Most often the peer died (killed, out of memory) and its launcher is
 * ending the job: the launcher's word on it (which PE, which signal, the
 * job's status 128+N) is the one a user needs, and a PE that stopped the
 * job first replaced that status with 1 and blamed whichever peer it last
 * talked to, alive or not (itself ended by then). So wait for that end;
 * only a job that nobody ends (the peer's node or the network failed)
 * gets our line. */
void ush_tp_fatal_op(const char *op, int pe, ucs_status_t st)
{
    if (!ush_tp_peer_lost_status(st)) {
        if (pe >= 0) ush_tp_fatal("%s to PE %d: %s", op, pe, ucs_status_string(st));
        ush_tp_fatal("%s: %s", op, ucs_status_string(st));
    }
    struct timespec left = { USH_TP_PEER_LOST_WAIT_S, 0 };
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
    if (pe < 0) {
        ush_tp_fatal("a peer stopped answering (%s: %s), and no launcher ended the job within "
                     "%d s: a PE died, or its node or the network failed", op,
                     ucs_status_string(st), USH_TP_PEER_LOST_WAIT_S);
    }
    char host[64], on[80] = "";
    ush_tp_bootstrap_hostname(pe, host, sizeof(host));
    if (host[0]) snprintf(on, sizeof(on), " (on %s)", host);
    ush_tp_fatal("PE %d%s stopped answering (%s to it: %s), and no launcher ended the job "
                 "within %d s: it died, or its node or the network failed", pe, on, op,
                 ucs_status_string(st), USH_TP_PEER_LOST_WAIT_S);
}

__thread int  ush_tp_log_capture;
__thread char ush_tp_log_capture_buf[256];

/* UCX logs each transport that fails to open, so one worker that cannot
 * be made (no file descriptors left) can print dozens of lines. While
 * this thread captures, its messages stop here and the first error is
 * kept for our own one-line report; other threads' pass through. */
static ucs_log_func_rc_t ush_tp_log_handler(const char *file, unsigned line,
                                            const char *function, ucs_log_level_t level,
                                            const ucs_log_component_config_t *comp,
                                            const char *message, va_list ap)
{
    (void)file, (void)line, (void)function, (void)comp;
    if (!ush_tp_log_capture) {
        /* A peer that stopped answering makes UCX print a line per
         * request it fails ("error during flush: Endpoint timeout"), often
         * dozens, while the launcher ends the job: the failure reaches us
         * too, and ush_tp_fatal_op says it once, if it must. */
        if (level <= UCS_LOG_LEVEL_ERROR) {
            static const ucs_status_t lost[] = { UCS_ERR_ENDPOINT_TIMEOUT,
                                                 UCS_ERR_CONNECTION_RESET,
                                                 UCS_ERR_UNREACHABLE };
            char    text[256];
            va_list copy;
            va_copy(copy, ap);
            vsnprintf(text, sizeof(text), message, copy);
            va_end(copy);
            for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++) {
                if (strstr(text, ucs_status_string(lost[i]))) return UCS_LOG_FUNC_RC_STOP;
            }
        }
        return UCS_LOG_FUNC_RC_CONTINUE;
    }
    if (level <= UCS_LOG_LEVEL_ERROR && !ush_tp_log_capture_buf[0]) {
        vsnprintf(ush_tp_log_capture_buf, sizeof(ush_tp_log_capture_buf), message, ap);
    }
    return UCS_LOG_FUNC_RC_STOP;
}

#define USH_TP_UCX_CHECK(_call, _status)                                           \
    do {                                                                           \
        if ((_status) != UCS_OK) {                                                 \
            ush_tp_set_error("%s: %s", _call, ucs_status_string(_status));        \
            return USH_TP_ERR_UCX;                                                 \
        }                                                                          \
    } while (0)

/* The reason a worker could not be made, with what UCX's status does not
 * say: its first log message, and the limit that ran out when we can
 * tell which (file descriptors, or room in /dev/shm for the receive
 * FIFOs of its posix transport). */
static void ush_tp_worker_explain(ucs_status_t st)
{
    char           limit[256] = "";
    struct rlimit  rl;
    struct statvfs vfs;
    const char    *dir = getenv("UCX_POSIX_DIR");
    int            fd  = dup(0);

    if (dir == NULL || *dir == '\0') dir = "/dev/shm";
    if (fd >= 0) {
        close(fd);
    } else if (errno == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        snprintf(limit, sizeof(limit), "; all %ld file descriptors are in use: raise ulimit -n",
                 (long)rl.rlim_cur);
    }
    if (!limit[0] && statvfs(dir, &vfs) == 0 &&
        (uint64_t)vfs.f_bavail * vfs.f_frsize < USH_TP_WORKER_SHM_BYTES) {
        snprintf(limit, sizeof(limit),
                 "; %s has %llu bytes free and a worker needs about %d there: free it or "
                 "enlarge it (mount -o remount,size=..., docker run --shm-size)",
                 dir, (unsigned long long)vfs.f_bavail * vfs.f_frsize, USH_TP_WORKER_SHM_BYTES);
    }
    ush_tp_set_error("ucp_worker_create: %s%s%s%s%s", ucs_status_string(st),
                     ush_tp_log_capture_buf[0] ? " (" : "", ush_tp_log_capture_buf,
                     ush_tp_log_capture_buf[0] ? ")" : "", limit);
}

/* A worker in *mode, or UCX's reason why not; *mode becomes the thread
 * mode the worker really has. */
static ucs_status_t ush_tp_worker_open(ush_tp_thread_t *mode, ucp_worker_h *worker_out)
{
    static const ucs_thread_mode_t modes[] = {
        [USH_TP_THREAD_SINGLE]     = UCS_THREAD_MODE_SINGLE,
        [USH_TP_THREAD_SERIALIZED] = UCS_THREAD_MODE_SERIALIZED,
        [USH_TP_THREAD_MULTI]      = UCS_THREAD_MODE_MULTI,
    };
    ucp_worker_params_t wparams = {
        .field_mask  = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = modes[*mode],
    };
    ush_tp_log_capture_buf[0] = '\0';
    ush_tp_log_capture        = 1;
    ucs_status_t st           = ucp_worker_create(ush_tp.context, &wparams, worker_out);
    ush_tp_log_capture        = 0;
    if (st != UCS_OK) return st;
    /* Its receive FIFOs are System V segments only when the user's
     * UCX_TLS brought the sysv transport back (ush_tp_init); only then is
     * the kernel's segment table worth a walk. */
    if (getenv("UCX_TLS") != NULL) ush_tp_private_sysv();

    /* A UCX built without thread support gives less than MULTI: believe
     * what it reports, not what was asked. */
    ucp_worker_attr_t attr = { .field_mask = UCP_WORKER_ATTR_FIELD_THREAD_MODE };
    st = ucp_worker_query(*worker_out, &attr);
    if (st != UCS_OK) {
        ucp_worker_destroy(*worker_out);
        return st;
    }
    if (attr.thread_mode == UCS_THREAD_MODE_SINGLE) {
        *mode = USH_TP_THREAD_SINGLE;
    } else if (attr.thread_mode == UCS_THREAD_MODE_SERIALIZED && *mode == USH_TP_THREAD_MULTI) {
        *mode = USH_TP_THREAD_SERIALIZED;
    }
    return UCS_OK;
}

ush_tp_status_t ush_tp_worker_create(ush_tp_thread_t *mode, ucp_worker_h *worker_out)
{
    ucs_status_t st = ush_tp_worker_open(mode, worker_out);
    if (st != UCS_OK) {
        ush_tp_worker_explain(st);
        return USH_TP_ERR_UCX;
    }
    return USH_TP_OK;
}

/* A UCX context over the devices present now, with this library's
 * defaults where the user's UCX_* variables leave them open. */
static ush_tp_status_t ush_tp_context_open(ush_tp_thread_t thread_mode, int progress_thread)
{
    ucp_config_t *config;
    ucs_status_t  st = ucp_config_read(NULL, NULL, &config);
    USH_TP_UCX_CHECK("ucp_config_read", st);
    /* UCX's shared-memory transport sysv takes System V segments for each
     * worker's receive FIFO, and kernel.shmmni caps them for the whole
     * node (4096 by default: a few hundred PEs with contexts). Its posix
     * twin does the same job on unlinked files in /dev/shm. Node-local
     * RMA and atomics go through our own mappings, so its receive pool
     * need not start at 4 MiB a worker: 128 buffers (1 MiB) start it,
     * and it grows when used. A user's UCX_TLS or pool size rules. */
    if (getenv("UCX_TLS") == NULL) {
        st = ucp_config_modify(config, "TLS", "^sysv");
        if (st == UCS_OK && getenv("UCX_MM_RX_BUFS_GROW") == NULL &&
            getenv("UCX_POSIX_RX_BUFS_GROW") == NULL) {
            st = ucp_config_modify(config, "MM_RX_BUFS_GROW", "128");
        }
        if (st != UCS_OK) ucp_config_release(config);
        USH_TP_UCX_CHECK("ucp_config_modify", st);
    }
    ucp_params_t params = {
        .field_mask        = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                             UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
        /* Active messages only where the collectives send them: to
         * other nodes (am_signal.c). */
        .features          = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 |
                             (ush_tp_job.num_nodes > 1 ? UCP_FEATURE_AM : 0) |
                             (progress_thread ? UCP_FEATURE_WAKEUP : 0),
        .mt_workers_shared = thread_mode == USH_TP_THREAD_MULTI || progress_thread,
        .estimated_num_eps = (size_t)ush_tp_job.size,
    };
    st = ucp_init(&params, config, &ush_tp.context);
    ucp_config_release(config);
    USH_TP_UCX_CHECK("ucp_init", st);
    return USH_TP_OK;
}

/* Times the context is made again when a device vanished under it. */
#define USH_TP_INIT_TRIES 8

ush_tp_status_t ush_tp_init(ush_tp_thread_t thread_mode, int progress_thread)
{
    /* Installed once, for the library's lifetime: pushing and popping
     * around each attempt would race with other threads' UCX calls. */
    ucs_log_push_handler(ush_tp_log_handler);
    ush_tp_sighup_default();

    ush_tp_thread_t mode;
    ucp_worker_h    worker;
    ucs_status_t    st;
    ush_tp_status_t ret;
    /* ucp_init lists the network interfaces; ucp_worker_create opens
     * each. One that goes away between the two (a container's veth pair,
     * a bridge being torn down: common on nodes that run containers)
     * fails the worker with "No such device", and the next listing no
     * longer has it. An address removed in between fails it with an I/O
     * error instead (TCP's bind: "Cannot assign requested address"); a
     * lasting I/O error still fails after the few milliseconds of the
     * tries. */
    for (int tries = 1;; tries++) {
        if ((ret = ush_tp_context_open(thread_mode, progress_thread)) != USH_TP_OK) return ret;
        /* The progress thread shares the default worker with the
         * program's threads, so that worker must be thread-safe whatever
         * the program asked for. */
        mode = progress_thread ? USH_TP_THREAD_MULTI : thread_mode;
        st   = ush_tp_worker_open(&mode, &worker);
        if ((st != UCS_ERR_NO_DEVICE && st != UCS_ERR_IO_ERROR) || tries == USH_TP_INIT_TRIES)
            break;
        ucp_cleanup(ush_tp.context);
        usleep(1000u * tries);
    }
    if (st != UCS_OK) {
        ush_tp_worker_explain(st);
        return USH_TP_ERR_UCX;
    }
    ush_tp_progress_mt = mode == USH_TP_THREAD_MULTI;
    if (ush_tp_job.num_nodes > 1 &&
        ((ret = ush_tp_am_init(worker)) != USH_TP_OK || (ret = ush_tp_eager_init(worker)) != USH_TP_OK))
        return ret;
    ush_tp_thread_provided = mode < thread_mode ? mode : thread_mode;

    /* Per-peer state in pages made on first use (pages.c): a PE reads a
     * peer's wire-up data, makes its endpoint and maps its memory only if
     * it talks to it, so start-up costs the same at any job size. The
     * node's own PEs are marked now (their pages made). */
    if (ush_tp_dir_init(&ush_tp_pages, ush_tp_job.size, sizeof(ush_tp_page_t)) != USH_TP_OK)
        return USH_TP_ERR_NOMEM;
    for (int i = 0; i < ush_tp.nlocal; i++) {
        int pe = ush_tp.local_pes[i];
        ush_tp_page(pe)->local[pe & USH_TP_PAGE_MASK] = 1;
    }
    pthread_mutex_init(&ush_tp.peer_lock, NULL);
    pthread_mutex_init(&ush_tp.map_lock, NULL);

    ush_tp_ctx_default = &ush_tp_ctx_default_obj;
    return ush_tp_ctx_init(ush_tp_ctx_default, worker, mode);
}

ush_tp_status_t ush_tp_ctx_init(ush_tp_ctx_t *c, ucp_worker_h worker, ush_tp_thread_t mode)
{
    c->worker  = worker;
    c->mode    = mode;
    c->issued  = 0;
    c->flushed = 0;
    c->local_issued  = 0;
    c->local_flushed = 0;
    c->nep     = 0;
    c->ep_list = NULL;
    pthread_mutex_init(&c->lock, NULL);
    return ush_tp_dir_init(&c->peers, ush_tp_job.size, sizeof(ush_tp_ctx_page_t));
}

static ush_tp_status_t ush_tp_seg_map(int seg, ucp_mem_map_params_t *mp)
{
    ucp_mem_h    memh;
    ucs_status_t st = ucp_mem_map(ush_tp.context, mp, &memh);
    USH_TP_UCX_CHECK("ucp_mem_map", st);

    ucp_mem_attr_t attr = { .field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH };
    st = ucp_mem_query(memh, &attr);
    USH_TP_UCX_CHECK("ucp_mem_query", st);

    ush_tp.seg_memh[seg] = memh;
    ush_tp.seg_base[seg] = attr.address;
    ush_tp.seg_size[seg] = attr.length;
    if (seg >= ush_tp.nsegs) ush_tp.nsegs = seg + 1;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_seg_alloc(int seg, size_t size, size_t align, size_t lead,
                                 void **base_out)
{
    /* Our own memfd, registered with UCX, rather than UCX's allocation:
     * UCX would take a System V segment (kernel.shmmni caps them, 4096 a
     * node by default) or a file in /dev/shm (often small in containers).
     * Node-local peers map the memfd (ush_tp_map_peer). */
    void           *map;
    ush_tp_status_t st = ush_tp_seg_create(seg, size + align, &map);
    if (st != USH_TP_OK) return st;
    ucp_mem_map_params_t mp = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address    = map,
        .length     = ush_tp.seg_share[seg].len,
    };
    st = ush_tp_seg_map(seg, &mp);
    if (st != USH_TP_OK) {
        ush_tp_seg_destroy(seg);
        return st;
    }
    /* The segment starts less than align bytes into the mapping, where its
     * byte lead is aligned; the rkey covers the whole mapping. */
    uintptr_t base = (((uintptr_t)map + lead + align - 1) & ~(uintptr_t)(align - 1)) - lead;
    ush_tp.seg_share[seg].offset = base - (uintptr_t)map;
    ush_tp.seg_base[seg] = (void *)base;
    ush_tp.seg_size[seg] = size;
    *base_out = (void *)base;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_seg_register(int seg, void *base, size_t size)
{
    ucp_mem_map_params_t mp = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address    = base,
        .length     = size,
    };
    ush_tp_status_t st = ush_tp_seg_map(seg, &mp);
    /* Registration may round to pages; the segment is what we were given. */
    ush_tp.seg_base[seg] = base;
    ush_tp.seg_size[seg] = size;
    return st;
}

/* Wire-up blob: ush_tp_blob_head_t, the worker address, then per segment
 * u64 base, u64 size, u32 rkey_len, rkey, share. */
#define USH_TP_WIREUP_KEY "ushmem.wireup"

static void ush_tp_blob_put(char **p, const void *src, size_t len)
{
    memcpy(*p, src, len);
    *p += len;
}

static int ush_tp_blob_get(const char **p, const char *end, void *dst, size_t len)
{
    if ((size_t)(end - *p) < len) return -1;
    memcpy(dst, *p, len);
    *p += len;
    return 0;
}

/* Our PID namespace (its inode; 0 if unknown): a peer's pid means the
 * same process here only when the namespaces agree. */
uint64_t ush_tp_pidns(void)
{
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

uint64_t ush_tp_proc_start(int pid)
{
    char               path[64], buf[1024];
    unsigned long long start = 0;
    int                fd;
    ssize_t            len;

    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) return 0;
    len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0) return 0;
    buf[len] = '\0';
    /* The name in parentheses may hold anything; the fields after its
     * last ')' are plain: state is the 3rd field, starttime the 22nd. */
    const char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                            "%*d %*d %*d %*d %llu", &start) != 1) {
        return 0;
    }
    return start;
}

static void *ush_tp_dup(const void *src, size_t len)
{
    void *d = malloc(len ? len : 1);
    if (d) memcpy(d, src, len);
    return d;
}

static int ush_tp_peer_unpack(int pe, const void *blob, size_t len, void *arg)
{
    const char    *p = blob, *end = p + len;
    ush_tp_peer_t *peer = arg;
    uint32_t       nsegs;

    if (ush_tp_blob_get(&p, end, &peer->head, sizeof(peer->head)) ||
        peer->head.nsegs > USH_TP_MAX_SEGS || (size_t)(end - p) < peer->head.addr_len) {
        goto bad;
    }
    nsegs             = peer->head.nsegs;
    peer->worker_addr = ush_tp_dup(p, peer->head.addr_len);
    p += peer->head.addr_len;
    for (uint32_t s = 0; s < nsegs; s++) {
        uint32_t rlen;
        if (ush_tp_blob_get(&p, end, &peer->seg_base[s], 8) ||
            ush_tp_blob_get(&p, end, &peer->seg_size[s], 8) ||
            ush_tp_blob_get(&p, end, &rlen, 4) || (size_t)(end - p) < rlen) {
            goto bad;
        }
        peer->rkey_buf[s] = ush_tp_dup(p, rlen);
        p += rlen;
        if (ush_tp_blob_get(&p, end, &peer->share[s], sizeof(peer->share[s]))) goto bad;
    }
    return 0;
bad:
    ush_tp_set_error("wire-up data of PE %d is malformed (%zu bytes)", pe, len);
    return -1;
}

static void ush_tp_peer_release(ush_tp_peer_t *peer)
{
    free(peer->worker_addr);
    for (int s = 0; s < USH_TP_MAX_SEGS; s++) {
        free(peer->rkey_buf[s]);
        if (peer->share_map[s]) munmap(peer->share_map[s], peer->share[s].len);
    }
}

/* A page's records (the look-aheads no access took are gone already). */
static void ush_tp_page_release(void *page)
{
    ush_tp_page_t *pg = page;
    for (int k = 0; k < USH_TP_PAGE_PES; k++) {
        if (!pg->peer[k]) continue;
        ush_tp_peer_release(pg->peer[k]);
        free(pg->peer[k]);
        ush_tp_peer_state_add(-(ssize_t)sizeof(ush_tp_peer_t));
    }
}

static int ush_tp_ahead_map; /* look-aheads map the peers too */

/* A peer's blob arrived on PMIx's thread: read it and (ush_tp_ahead_map)
 * map what the peer shares, here, off the program's path. No lock: a thread loading this
 * peer may hold peer_lock while it waits for exactly this. */
static void ush_tp_peer_arrived(int pe, const void *blob, size_t len, void *arg)
{
    ush_tp_page_t *pg    = arg;
    ush_tp_peer_t *ahead = blob ? calloc(1, sizeof(*ahead)) : NULL;
    int            ok   = ahead && ush_tp_peer_unpack(pe, blob, len, ahead) == 0;

    if (!ok && ahead) {
        ush_tp_peer_release(ahead);
        free(ahead);
        ahead = NULL;
    }
    for (uint32_t s = 0; ok && ush_tp_ahead_map && s < ahead->head.nsegs; s++)
        ahead->share_map[s] = ush_tp_share_map(&ahead->share[s]);
    pg->ahead_peer[pe & USH_TP_PAGE_MASK] = ahead;
    __atomic_store_n(&pg->ahead[pe & USH_TP_PAGE_MASK],
                     ok ? USH_TP_AHEAD_READY : USH_TP_AHEAD_FAILED, __ATOMIC_RELEASE);
}

/* The first access to a node-local peer needs its blob (a PMIx_Get) and
 * the segment mapped (an open and an mmap). Each PMIx_Get hands the
 * request to PMIx's thread and waits for the answer, a thread switch each
 * way; with the PEs outnumbering the cores that thread waits for a core
 * behind every waiting PE: 50-300 us at 32 PEs on 2 cores, and a
 * segment's mapping 15-25 more. Asked for all at once after the wire-up
 * fence, the node's blobs arrive on PMIx's thread in the background, and
 * on up to USH_TP_AHEAD_MAP_MAX PEs a node that thread maps them too: a
 * first access then costs a page fault. Both are n lookups (and maps) by
 * each of n PEs: at 256 PEs on 2 cores the lookups cost start-up nothing
 * measurable and the maps 1.7-2 s of 7; beyond USH_TP_AHEAD_MAX nothing
 * is looked up ahead. */
#define USH_TP_AHEAD_MAX     256
#define USH_TP_AHEAD_MAP_MAX 64

static void ush_tp_peer_ahead(void)
{
    int nlocal = ush_tp.nlocal, me = 0;
    if (nlocal < 2 || nlocal > USH_TP_AHEAD_MAX) return;
    ush_tp_ahead_map = nlocal <= USH_TP_AHEAD_MAP_MAX;
    while (ush_tp.local_pes[me] != ush_tp_job.rank) me++;
    for (int i = 1; i < nlocal; i++) {
        int            pe = ush_tp.local_pes[(me + i) % nlocal]; /* neighbours first */
        ush_tp_page_t *pg = ush_tp_page(pe);
        int           *st = &pg->ahead[pe & USH_TP_PAGE_MASK];
        *st = USH_TP_AHEAD_PENDING;
        if (ush_tp_bootstrap_lookup_nb(USH_TP_WIREUP_KEY, pe, ush_tp_peer_arrived, pg) !=
            USH_TP_OK)
            *st = USH_TP_AHEAD_NONE;
    }
}

/* Wait for every look-ahead still out (they write into the peers array),
 * then drop the ones no access took. */
static void ush_tp_peer_ahead_drain(void)
{
    for (int i = 0; i < ush_tp.nlocal; i++) {
        int            pe = ush_tp.local_pes[i], k = pe & USH_TP_PAGE_MASK;
        ush_tp_page_t *pg = ush_tp_dir_page(&ush_tp_pages, pe);
        if (!pg) continue;
        for (unsigned idle = 0;
             __atomic_load_n(&pg->ahead[k], __ATOMIC_ACQUIRE) == USH_TP_AHEAD_PENDING;)
            ush_tp_idle(idle++);
        if (pg->ahead_peer[k]) {
            ush_tp_peer_release(pg->ahead_peer[k]);
            free(pg->ahead_peer[k]);
            pg->ahead_peer[k] = NULL;
        }
    }
}

ush_tp_peer_t *ush_tp_peer_load(int pe)
{
    if (pe < 0 || pe >= ush_tp_job.size) ush_tp_fatal("no PE %d in a job of %d", pe, ush_tp_job.size);
    ush_tp_page_t *pg = ush_tp_page(pe);
    int            k  = pe & USH_TP_PAGE_MASK;

    pthread_mutex_lock(&ush_tp.peer_lock);
    ush_tp_peer_t *peer = pg->peer[k];
    if (!peer) {
        int ahead;
        for (unsigned idle = 0; (ahead = __atomic_load_n(&pg->ahead[k], __ATOMIC_ACQUIRE)) ==
                                USH_TP_AHEAD_PENDING;)
            ush_tp_idle(idle++);
        int bad = 0;
        if (ahead == USH_TP_AHEAD_READY) {
            peer              = pg->ahead_peer[k];
            pg->ahead_peer[k] = NULL;
        } else if ((peer = calloc(1, sizeof(*peer))) != NULL) {
            bad = ush_tp_bootstrap_lookup(USH_TP_WIREUP_KEY, pe, ush_tp_peer_unpack, peer) !=
                  USH_TP_OK;
        }
        if (!peer) ush_tp_fatal("out of memory for the wire-up record of PE %d", pe);
        if (bad) ush_tp_fatal("wire-up with PE %d: %s", pe, ush_tp_strerror());
        ush_tp_peer_state_add((ssize_t)sizeof(*peer));
        /* release: the record before the pointer, for ush_tp_peer */
        __atomic_store_n(&pg->peer[k], peer, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&ush_tp.peer_lock);
    return peer;
}

static int ush_tp_head_unpack(int pe, const void *blob, size_t len, void *arg)
{
    (void)pe;
    if (len < sizeof(ush_tp_blob_head_t)) return -1;
    memcpy(arg, blob, sizeof(ush_tp_blob_head_t));
    return 0;
}

int ush_tp_peer_head(int pe, ush_tp_blob_head_t *head)
{
    const ush_tp_page_t *pg   = ush_tp_dir_page(&ush_tp_pages, pe);
    const ush_tp_peer_t *peer = pg ? __atomic_load_n(&pg->peer[pe & USH_TP_PAGE_MASK],
                                                     __ATOMIC_ACQUIRE)
                                   : NULL;
    if (peer) {
        *head = peer->head;
        return 0;
    }
    return ush_tp_bootstrap_lookup(USH_TP_WIREUP_KEY, pe, ush_tp_head_unpack, head) ==
                   USH_TP_OK ? 0 : -1;
}

/* Whether UCX has a transport that can do atomics in a network device (the
 * RDMA families rc and dc), read from the context's resource list. */
static int ush_tp_device_atomics(void)
{
    char  *text = NULL, *line, *save;
    size_t len  = 0;
    FILE  *f    = open_memstream(&text, &len);
    int    found = 1; /* when the list cannot be read, assume the worst */

    if (!f) return found;
    ucp_context_print_info(ush_tp.context, f);
    fclose(f);
    found = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* "#      resource 2  :  md 1  dev 2  flags -- rc_mlx5/mlx5_0:1" */
        const char *tl = strstr(line, "resource") ? strstr(line, "-- ") : NULL;
        if (tl && (!strncmp(tl + 3, "rc", 2) || !strncmp(tl + 3, "dc", 2))) found = 1;
    }
    free(text);
    return found;
}

/* Map segment s of node-local peer pe into our address space if the peer
 * shared it through a memfd (its heap, and its static data unless
 * SHMEM_SHARE_STATIC=0); otherwise it stays on UCX. Then the segment is no
 * longer pending (release: the slot is set first). Under map_lock. Each
 * segment on its first access: a mapping is a descriptor and an mmap, and
 * many programs touch only the heap. */
/* This process's address space in KiB (VmSize), or 0. */
static unsigned long long ush_tp_vm_kib(void)
{
    unsigned long long pages = 0;
    FILE              *f     = fopen("/proc/self/statm", "re");
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return pages * (unsigned long long)sysconf(_SC_PAGESIZE) / 1024;
}

/* A mapping refused for want of address space under a limit (ulimit -v):
 * say so, with the figure the node's segments need. */
static void ush_tp_map_seg_as_limit(int pe, int s)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return;
    unsigned long long seg_kib = (unsigned long long)ush_tp_peer(pe)->share[s].len / 1024;
    unsigned long long need    = ush_tp_vm_kib() + (unsigned long long)ush_tp_job.local_size * seg_kib;
    ush_tp_fatal("cannot map the symmetric memory of PE %d (segment %d, %llu KiB), which runs on "
                 "this node: the address-space limit (ulimit -v) is %llu KiB and this PE "
                 "already uses %llu KiB; each PE maps the segments of the node's %d PEs: raise "
                 "the limit to about %llu KiB or more (ulimit -v unlimited), or lower "
                 "SHMEM_SYMMETRIC_SIZE", pe, s, seg_kib,
                 (unsigned long long)lim.rlim_cur / 1024, ush_tp_vm_kib(), ush_tp_job.local_size,
                 need);
}

static void ush_tp_map_seg(int pe, int s)
{
    void *ptr = ush_tp_share_attach(pe, s);
    /* Every PE agreed at start-up that this segment of node-local peers
     * maps (SHMEM_TEAM_SHARED and the collectives rely on it); a peer
     * whose does not is on a node whose processes differ in what they may
     * do to each other, or this one ran out of address space. */
    if (!ptr && (ush_tp_local_mapped & (1u << s))) {
        if (errno == ENOMEM) ush_tp_map_seg_as_limit(pe, s);
        ush_tp_fatal("cannot map the symmetric memory of PE %d (segment %d), which runs on "
                     "this node, although every PE could map its neighbour's at start-up; run "
                     "the PEs of a node in one container and PID namespace, or set "
                     "SHMEM_SHARE_STATIC=0 if segment 1 (static data) is the one", pe, s);
    }
    ush_tp_page_t *pg = ush_tp_page(pe);
    __atomic_store_n(&pg->map[pe & USH_TP_PAGE_MASK][s], ptr, __ATOMIC_RELEASE);
    __atomic_and_fetch(&pg->map_pending[pe & USH_TP_PAGE_MASK], (unsigned char)~(1u << s),
                       __ATOMIC_RELEASE);
}

/* On a node of more than USH_TP_AHEAD_MAP_MAX PEs nothing was mapped
 * ahead, and each segment is mapped on its first access (about 15 us:
 * the peer's descriptor, an mmap, a page fault). A PE that has mapped
 * segment seg of USH_TP_MAP_BATCH_AFTER peers so is taken to talk to all
 * of them (an alltoall, a random access pattern) rather than to a few
 * neighbours (a ring, a dissemination barrier's log2 n partners): the
 * segment of every other peer already read ahead is then mapped at once,
 * about 10 us a peer here, 2.5 ms at 256 PEs a node, instead of on each
 * first access. Mapping them all from the first access would make every
 * PE of a job pay for that, 1 s of the 3.2 s a 256-PE hello takes on 2
 * cores. Peers still being read are left to their own first access.
 * Under map_lock. */
#define USH_TP_MAP_BATCH_AFTER 16

static void ush_tp_map_batch(int seg)
{
    if (ush_tp_ahead_map || ++ush_tp.map_lazy[seg] != USH_TP_MAP_BATCH_AFTER) return;
    for (int i = 0; i < ush_tp.nlocal; i++) {
        int            pe = ush_tp.local_pes[i], k = pe & USH_TP_PAGE_MASK;
        ush_tp_page_t *pg = ush_tp_page(pe);
        if ((pg->map_pending[k] & (1u << seg)) &&
            __atomic_load_n(&pg->ahead[k], __ATOMIC_ACQUIRE) == USH_TP_AHEAD_READY)
            ush_tp_map_seg(pe, seg);
    }
}

char *ush_tp_map_miss(int pe, int seg)
{
    /* No page: a peer not on this node, never touched here. */
    ush_tp_page_t *pg = ush_tp_dir_page(&ush_tp_pages, pe);
    if (!pg) return NULL;
    int           k    = pe & USH_TP_PAGE_MASK;
    char        **slot = &pg->map[k][seg];
    unsigned char bit  = (unsigned char)(1u << seg);

    /* A segment is mapped once, by the first thread to need it; the others
     * see the slot it stored once they see its pending bit cleared
     * (release). */
    if (__atomic_load_n(&pg->map_pending[k], __ATOMIC_ACQUIRE) & bit) {
        pthread_mutex_lock(&ush_tp.map_lock);
        if (pg->map_pending[k] & bit) {
            ush_tp_map_seg(pe, seg);
            ush_tp_map_batch(seg);
        }
        pthread_mutex_unlock(&ush_tp.map_lock);
    }
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

/* The next PE on this node after us, in rank order and around; -1 alone. */
static int ush_tp_local_next(void)
{
    for (int i = 0; i < ush_tp.nlocal; i++) {
        if (ush_tp.local_pes[i] > ush_tp_job.rank) return ush_tp.local_pes[i];
    }
    return ush_tp.nlocal > 1 ? ush_tp.local_pes[0] : -1;
}

unsigned ush_tp_map_probe(void)
{
    int      next = ush_tp_local_next();
    unsigned failed = 0;
    if (next < 0) return 0;
    for (int s = 0; s < ush_tp.nsegs; s++) {
        if (!ush_tp_mapped(next, s)) failed |= 1u << s;
    }
    return failed;
}

void ush_tp_agreed(ush_tp_thread_t thread_max, unsigned unmapped)
{
    int all_local = ush_tp.nlocal == ush_tp_job.size;
    ush_tp_thread_job   = thread_max;
    ush_tp_all_mapped   = unmapped == 0 && all_local && ush_tp_direct_amo;
    ush_tp_local_mapped = ~unmapped & ((1u << ush_tp.nsegs) - 1);
}

int ush_tp_local(int pe)
{
    const ush_tp_page_t *pg = ush_tp_dir_page(&ush_tp_pages, pe);
    return pg && pg->local[pe & USH_TP_PAGE_MASK];
}

void ush_tp_peer_warm(int pe)
{
    if (ush_tp_local(pe)) {
        (void)ush_tp_mapped(pe, 0);
    } else {
        (void)ush_tp_ep(ush_tp_ctx_default, pe);
    }
}

ush_tp_status_t ush_tp_wireup(void)
{
    ush_tp_ctx_t   *c = ush_tp_ctx_default;
    ucp_address_t  *addr;
    size_t          alen;
    void           *rkey_buf[USH_TP_MAX_SEGS] = { 0 };
    size_t          rkey_len[USH_TP_MAX_SEGS] = { 0 };
    ush_tp_status_t ret = USH_TP_OK;
    ucs_status_t    st;

    st = ucp_worker_get_address(c->worker, &addr, &alen);
    USH_TP_UCX_CHECK("ucp_worker_get_address", st);

    size_t blob_len = sizeof(ush_tp_blob_head_t) + alen;
    for (int s = 0; s < ush_tp.nsegs; s++) {
        st = ucp_rkey_pack(ush_tp.context, ush_tp.seg_memh[s], &rkey_buf[s], &rkey_len[s]);
        if (st != UCS_OK) {
            ush_tp_set_error("ucp_rkey_pack: %s", ucs_status_string(st));
            ret = USH_TP_ERR_UCX;
            goto out_release;
        }
        blob_len += 20 + rkey_len[s] + sizeof(ush_tp_share_t);
    }

    char *blob = malloc(blob_len), *p = blob;
    if (!blob) {
        ret = USH_TP_ERR_NOMEM;
        goto out_release;
    }
    ush_tp_blob_head_t head = {
        .nsegs    = (uint32_t)ush_tp.nsegs,
        .addr_len = (uint32_t)alen,
        .pid      = (int32_t)getpid(),
        .thread   = (uint32_t)ush_tp_thread_provided,
        .pidns    = ush_tp_pidns(),
        .start    = ush_tp_proc_start(getpid()),
    };
    ush_tp_blob_put(&p, &head, sizeof(head));
    ush_tp_blob_put(&p, addr, alen);
    for (int s = 0; s < ush_tp.nsegs; s++) {
        uint64_t base = (uintptr_t)ush_tp.seg_base[s], size = ush_tp.seg_size[s];
        uint32_t rlen = (uint32_t)rkey_len[s];
        ush_tp_blob_put(&p, &base, 8);
        ush_tp_blob_put(&p, &size, 8);
        ush_tp_blob_put(&p, &rlen, 4);
        ush_tp_blob_put(&p, rkey_buf[s], rkey_len[s]);
        ush_tp_blob_put(&p, &ush_tp.seg_share[s], sizeof(ush_tp_share_t));
    }
    /* Our own record from our own blob: a self endpoint needs it. */
    int me = ush_tp_job.rank;
    /* One node collects: that moves nothing between nodes (its server
     * holds every blob either way), and may leave the blobs where PMIx's
     * clients read them without asking the server. */
    ush_tp_modex_collected = ush_tp_job.num_nodes <= 1 || ush_tp_wireup_collect_max < 0 ||
                             ush_tp_job.size <= ush_tp_wireup_collect_max;
    ret = ush_tp_bootstrap_publish(USH_TP_WIREUP_KEY, blob, blob_len, &ush_tp_modex_collected);
    ush_tp_page_t *pg   = ush_tp_page(me);
    ush_tp_peer_t *self = calloc(1, sizeof(*self));
    if (ret == USH_TP_OK && (!self || ush_tp_peer_unpack(me, blob, blob_len, self))) {
        ret = self ? USH_TP_ERR_BOOTSTRAP : USH_TP_ERR_NOMEM;
    }
    free(blob);
    if (ret != USH_TP_OK) {
        free(self);
        goto out_release;
    }
    ush_tp_peer_state_add((ssize_t)sizeof(*self));
    __atomic_store_n(&pg->peer[me & USH_TP_PAGE_MASK], self, __ATOMIC_RELEASE);

    /* Before the look-ahead, whose thread may map them: a node-local
     * peer's segments are pending until mapped. */
    for (int s = 0; s < ush_tp.nsegs; s++) pg->map[me & USH_TP_PAGE_MASK][s] = ush_tp.seg_base[s];
    for (int i = 0; i < ush_tp.nlocal; i++) {
        int pe = ush_tp.local_pes[i];
        if (pe == me) continue;
        ush_tp_page(pe)->map_pending[pe & USH_TP_PAGE_MASK] =
            (unsigned char)((1u << ush_tp.nsegs) - 1);
    }
    ush_tp_peer_ahead();
    /* CPU atomics on mapped memory agree with UCX's unless a network
     * device performs atomics on the same memory: UCX's software atomics
     * (TCP, shared memory) are CPU atomics run by the target. */
    ush_tp_direct_amo = ush_tp_job.num_nodes <= 1 || !ush_tp_device_atomics();
    /* What the job agrees on comes later (ush_tp_agreed); until then the
     * choices that must be alike everywhere take their safe side. */
    ush_tp_thread_job   = USH_TP_THREAD_MULTI;
    ush_tp_all_mapped   = 0;
    ush_tp_local_mapped = 0;

out_release:
    for (int s = 0; s < ush_tp.nsegs; s++) {
        if (rkey_buf[s]) ucp_rkey_buffer_release(rkey_buf[s]);
    }
    ucp_worker_release_address(c->worker, addr);
    return ret;
}

ucp_ep_h ush_tp_ep_create(ush_tp_ctx_t *c, int pe)
{
    ush_tp_ctx_page_t *pg = ush_tp_dir_make(&c->peers, pe);
    pthread_mutex_lock(&c->lock);
    ucp_ep_h ep = pg->ep[pe & USH_TP_PAGE_MASK];
    if (!ep) {
        ucp_ep_params_t ep_params = {
            .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
            .address    = ush_tp_peer(pe)->worker_addr,
        };
        ucs_status_t st = ucp_ep_create(c->worker, &ep_params, &ep);
        if (st != UCS_OK) {
            ush_tp_fatal_op("ucp_ep_create", pe, st);
        }
        ush_tp_ep_check_order(ep, pe);
        /* The list first: a quiet that finds the endpoint must find it
         * listed, or it would not flush it. */
        ush_tp_pe_list_t *list = c->ep_list;
        if (!list || c->nep == list->cap) {
            int               cap    = list ? 2 * list->cap : 16;
            ush_tp_pe_list_t *longer = malloc(sizeof(*longer) + (size_t)cap * sizeof(int));
            if (!longer) ush_tp_fatal("out of memory for the endpoint list (PE %d)", pe);
            longer->older = list;
            longer->cap   = cap;
            if (list) memcpy(longer->pe, list->pe, (size_t)c->nep * sizeof(int));
            ush_tp_peer_state_add((ssize_t)(sizeof(*longer) + (size_t)cap * sizeof(int)));
            __atomic_store_n(&c->ep_list, longer, __ATOMIC_RELEASE);
            list = longer;
        }
        list->pe[c->nep] = pe;
        __atomic_store_n(&c->nep, c->nep + 1, __ATOMIC_RELEASE);
        __atomic_store_n(&pg->ep[pe & USH_TP_PAGE_MASK], ep, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&c->lock);
    return ep;
}

ucp_rkey_h ush_tp_rkey_unpack(ush_tp_ctx_t *c, int pe, int seg)
{
    ucp_ep_h           ep = ush_tp_ep(c, pe);
    ush_tp_ctx_page_t *pg = ush_tp_dir_make(&c->peers, pe);
    pthread_mutex_lock(&c->lock);
    ucp_rkey_h *slot = &pg->rkey[pe & USH_TP_PAGE_MASK][seg];
    ucp_rkey_h  rkey = *slot;
    if (!rkey) {
        ucs_status_t st = ucp_ep_rkey_unpack(ep, ush_tp_peer(pe)->rkey_buf[seg], &rkey);
        if (st != UCS_OK) {
            ush_tp_fatal("ucp_ep_rkey_unpack for PE %d segment %d: %s", pe, seg,
                         ucs_status_string(st));
        }
        __atomic_store_n(slot, rkey, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&c->lock);
    return rkey;
}

/* For the job-wide fence of finalize, which takes a PMIx round trip at
 * least: a PE done with its own part makes room (ush_tp_idle) for the PEs
 * and the PMIx server still on their way, which may need this core. */
static int ush_tp_progress_worker(void *worker)
{
    return (int)ucp_worker_progress(worker);
}

/* Free c's endpoint and rkey tables (its endpoints are closed or about
 * to go with their worker). */
static void ush_tp_ctx_page_free(void *page)
{
    ush_tp_ctx_page_t *pg = page;
    for (int k = 0; k < USH_TP_PAGE_PES; k++) {
        for (int s = 0; s < USH_TP_MAX_SEGS; s++) {
            if (pg->rkey[k][s]) ucp_rkey_destroy(pg->rkey[k][s]);
        }
    }
}

static void ush_tp_ctx_free(ush_tp_ctx_t *c)
{
    ush_tp_dir_fini(&c->peers, ush_tp_ctx_page_free);
    for (ush_tp_pe_list_t *list = c->ep_list, *older; list; list = older) {
        older = list->older;
        ush_tp_peer_state_add(-(ssize_t)(sizeof(*list) + (size_t)list->cap * sizeof(int)));
        free(list);
    }
    c->ep_list = NULL;
    c->nep     = 0;
    pthread_mutex_destroy(&c->lock);
}

void ush_tp_ctx_fini(ush_tp_ctx_t *c)
{
    /* Close every endpoint with a flush, so nothing is left queued on it.
     * Every operation has completed by now (the context's own quiet), so
     * a peer that has closed its side first is no loss: over TCP our flush
     * then ends "not connected", "reset" or "timed out", none of which
     * the user needs to hear of. */
    ucp_request_param_t prm = { .op_attr_mask = 0 };
    for (int i = 0; i < c->nep; i++) {
        int                pe = c->ep_list->pe[i];
        ush_tp_ctx_page_t *pg = ush_tp_dir_page(&c->peers, pe);
        ucs_status_t       st = ush_tp_wait(c, ucp_ep_close_nbx(pg->ep[pe & USH_TP_PAGE_MASK], &prm));
        if (st != UCS_OK && st != UCS_ERR_CANCELED && st != UCS_ERR_CONNECTION_RESET &&
            st != UCS_ERR_ENDPOINT_TIMEOUT && st != UCS_ERR_NOT_CONNECTED) {
            fprintf(stderr, "ushmem: PE %d: closing the endpoint to PE %d: %s\n",
                    ush_tp_job.rank, pe, ucs_status_string(st));
        }
    }
    ush_tp_ctx_free(c);
}

void ush_tp_finalize(void)
{
    if (!ush_tp.context) return;
    ush_tp_ctx_t *c = ush_tp_ctx_default;
    /* Completed, agreed, then gone with the worker. Each PE first
     * completes what it issued (the finalize barrier's last messages
     * included); the job-wide fence then says every PE has, and keeps
     * serving peers until it has. Only then do the endpoints go, with the
     * worker, which tears them down without a flush: none is needed any
     * more. Closing them one by one with a flush, as a destroyed context
     * does, raced with peers tearing down theirs over TCP: a flush found
     * its connection already failed and UCX printed "error during flush:
     * Endpoint timeout" (on stdout) in jobs that had succeeded.
     * Where every PE maps every other (one node), nothing of the job went
     * through UCX: the caller's barrier is all the agreement there is to
     * reach, and the fence, every PE's round trip through the launcher,
     * only costs (2.6-3.4 s of a 4.2 s finalize at 1024 PEs on 2 cores). */
    ucp_request_param_t prm = { .op_attr_mask = 0 };
    ucs_status_t        st  = ush_tp_wait(c, ucp_worker_flush_nbx(c->worker, &prm));
    if (st != UCS_OK) {
        fprintf(stderr, "ushmem: PE %d: shmem_finalize: completing operations: %s\n",
                ush_tp_job.rank, ucs_status_string(st));
    }
    if (!ush_tp_all_mapped &&
        ush_tp_bootstrap_fence_progress(ush_tp_progress_worker, c->worker) != USH_TP_OK) {
        fprintf(stderr, "ushmem: PE %d: shmem_finalize: %s\n", ush_tp_job.rank,
                ush_tp_strerror());
    }
    ush_tp_ctx_free(c);
    if (ush_tp_am) ush_tp_eager_fini(c->worker);
    ucp_worker_destroy(c->worker);
    ush_tp_eager_free();
    ush_tp_peer_ahead_drain();
    for (int s = 0; s < ush_tp.nsegs; s++) {
        if (ush_tp.seg_memh[s]) ucp_mem_unmap(ush_tp.context, ush_tp.seg_memh[s]);
        ush_tp_seg_destroy(s);
    }
    /* Our own static data stays on its memfd (the program runs on it, and
     * a later shmem_init shares it again): only peers' mappings go. */
    ush_tp_dir_fini(&ush_tp_pages, ush_tp_page_release);
    pthread_mutex_destroy(&ush_tp.peer_lock);
    pthread_mutex_destroy(&ush_tp.map_lock);
    ucs_log_pop_handler();
    ucp_cleanup(ush_tp.context);
    free(ush_tp.local_pes);
    memset(&ush_tp, 0, sizeof(ush_tp));
}
