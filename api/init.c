/*
 * Start-up and shut-down of a PE: bootstrap, configuration, transport,
 * symmetric segments, wire-up.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_team.h"
#include "collectives/ush_coll.h"
#include "core/ush.h"
#include "core/ush_fault.h"
#include "core/ush_hang.h"
#include "core/ush_rma.h"
#include "core/ush_symm.h"
#include "transport/ush_tp.h"
#include "arch/ush_arch.h"

#include <hwloc.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hardware threads of this node (hwloc), or 0 if unknown. */
static int ush_node_pus(void)
{
    hwloc_topology_t topo;
    int              npus = 0;
    if (hwloc_topology_init(&topo) == 0) {
        if (hwloc_topology_load(topo) == 0) npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        hwloc_topology_destroy(topo);
    }
    return npus;
}

/* Waiting loops yield when this node runs more PEs than it has cores, or
 * may: a spinning PE would otherwise hold the core its peer needs. */
static int ush_decide_yield(int npus)
{
    const char *mode = ush_g.env.yield;
    if (!strcmp(mode, "always")) return 1;
    if (!strcmp(mode, "never")) return 0;
    if (strcmp(mode, "auto")) {
        ush_fatal("shmem_init", "SHMEM_YIELD=%s: expected auto, always or never", mode);
    }
    return npus <= 0 || ush_node_oversubscribed(npus);
}

/* Workers for created contexts before they share: more than this PE's
 * share of the node's hardware threads would not run at once anyway, and
 * each costs about 1 MiB of /dev/shm and ten descriptors. */
static int ush_decide_ctx_workers(int npus)
{
    long n = ush_g.env.ctx_workers;
    if (n < 0 || n > 65536) {
        ush_fatal("shmem_init", "SHMEM_CTX_WORKERS=%ld: expected 0 (automatic) to 65536", n);
    }
    if (n > 0) return (int)n;
    n = npus / (ush_g.local_size > 0 ? ush_g.local_size : 1);
    return n > 2 ? (int)n : 2;
}

/* The CPU features the copies of puts use: the architecture layer's own
 * choice, or the set SHMEM_CPU_FEATURES names, which must be one this CPU
 * can run (a forced `rep movsb` is only slower; AVX2 or AVX-512 on a CPU
 * without them would kill the first put with SIGILL). */
static void ush_decide_cpu_features(void)
{
    const char *v = ush_g.env.cpu_features;
    char        bad[32], can[64];
    unsigned    set;

    ush_arch_features_format(ush_arch_features_cpu(), can, sizeof(can));
    if (ush_arch_features_parse(v, &set, bad, sizeof(bad))) {
        ush_fatal("shmem_init",
                  "SHMEM_CPU_FEATURES=%s: '%s' is not a feature; expected auto, none, or "
                  "features joined by commas (this CPU runs: %s)", v, bad, can);
    }
    if (set == ~0u) set = ush_arch_features_auto();
    if (set & ~ush_arch_features_cpu()) {
        char lacks[64];
        ush_arch_features_format(set & ~ush_arch_features_cpu(), lacks, sizeof(lacks));
        ush_fatal("shmem_init",
                  "SHMEM_CPU_FEATURES=%s: this CPU lacks %s; it runs %s (or set auto)", v, lacks,
                  can);
    }
    ush_arch_features_use(set);
}

/* Serving peers from a thread is needed where UCX emulates remote access
 * in software: between nodes (TCP) and, on one node, for static data that
 * is not shared (atomics on it are emulated). Node-local heap and shared
 * static data are loads and stores, which need no one's help.
 *
 * Not on a node with more PEs than hardware threads: there every PE's
 * waits already yield, and a second thread per PE on the thread-safe
 * worker it needs stalled start-up for 20 to 150 s in about one run of
 * three (4 emulated nodes x 8 PEs on 2 cores: a wait's yields, the
 * thread's naps and UCX's worker lock, with 3 threads per PE queued on the
 * cores), against 0.8-1.0 s every time without it. A PE that computes
 * there without calling the library is served when it next calls it. */
static int ush_decide_progress_thread(int npus)
{
    const char *mode = ush_g.env.progress_thread;
    if (!strcmp(mode, "on")) return 1;
    if (!strcmp(mode, "off")) return 0;
    if (strcmp(mode, "auto")) {
        ush_fatal("shmem_init", "SHMEM_PROGRESS_THREAD=%s: expected auto, on or off", mode);
    }
    if (ush_node_oversubscribed(npus)) return 0;
    return ush_tp_job.num_nodes > 1 || (!ush_g.env.share_static && ush_g.local_size > 1);
}

/* A misspelt variable (SHMEM_SYMETRIC_SIZE) would otherwise leave its
 * default in force without a word. Only near misses of our own names are
 * reported: other SHMEM_* variables may belong to another library or to
 * the launcher (SHMEM_LAUNCHER), and must not be called errors. PE 0 only,
 * so a job prints each warning once. */
static void ush_env_warn_typos(void)
{
    extern char **environ;
    if (ush_g.my_pe != 0 || environ == NULL) return;
    for (char **e = environ; *e != NULL; e++) {
        if (strncmp(*e, "SHMEM_", 6) != 0) continue;
        const char *name = *e + 6;
        const char *eq   = strchr(name, '=');
        size_t      len  = eq != NULL ? (size_t)(eq - name) : strlen(name);
        const char *best = ush_env_typo_of(name, len);
        if (best != NULL) {
            ush_warn("shmem_init", "SHMEM_%.*s is not a variable ushmem reads (its value is "
                     "ignored); did you mean SHMEM_%s?", (int)len, name, best);
        }
    }
}

static void ush_print_info(void)
{
    if (ush_g.my_pe != 0) return;
    if (ush_g.env.version || ush_g.env.info) {
        printf("ushmem %s: OpenSHMEM %d.%d (%s)\n", USH_VERSION_STRING, SHMEM_MAJOR_VERSION,
               SHMEM_MINOR_VERSION, SHMEM_VENDOR_STRING);
    }
    if (ush_g.env.info) {
        char copy[64];
        ush_arch_features_format(ush_arch_features(), copy, sizeof(copy));
        printf("job: %d PEs on %d node(s), %d on this node; thread level %d; "
               "progress thread %s; waits %s; wire-up data %s\n",
               ush_g.n_pes, ush_tp_job.num_nodes, ush_g.local_size, ush_g.thread_level,
               ush_g.progress_thread ? "on" : "off", ush_tp_yield_at_once ? "yield" : "spin",
               ush_tp_modex_collected ? "collected" : "on demand");
        printf("copies of puts to this node's PEs use CPU features: %s\n", copy);
        ush_env_print(&ush_g.env, stdout);
    }
    fflush(stdout);
}

static void ush_atexit(int code, void *arg)
{
    (void)arg;
    /* A program that returns from main without shmem_finalize is
     * finalized here (collective). First every PE must be seen exiting:
     * a barrier on flags of its own, since the finalize barrier would
     * match a user barrier the others are waiting in, and a launcher's
     * fence cannot be trusted for it (Slurm 22.05's returns at once for a
     * node's only task). If the others do not follow within a moment,
     * this PE left early and they would wait for it for ever: the
     * watchdog ends the job, saying why (fault.c). PMIx stays up from the
     * first shmem_init to exit, so the library can be initialised again
     * after a finalize. */
    if (ush_g.initialized) {
        if (ush_g.n_pes > 1) {
            ush_fault_exit_watchdog(code);
            ush_exit_barrier();
            ush_fault_exit_watchdog_done(); /* every PE is exiting */
        }
        ush_g.init_count = 1;
        pshmem_finalize();
    }
    ush_tp_bootstrap_finalize();
}

static void ush_tp_check(const char *what, ush_tp_status_t st)
{
    if (st != USH_TP_OK) {
        ush_fatal("shmem_init", "%s failed: %s", what,
                  st == USH_TP_ERR_NOMEM ? "out of memory" : ush_tp_strerror());
    }
}

/* The thread level the transport can honour: requested, lowered to what
 * UCX's worker provides. */
static int ush_thread_level(int requested)
{
    int level = requested < SHMEM_THREAD_SINGLE ? SHMEM_THREAD_SINGLE
              : requested > SHMEM_THREAD_MULTIPLE ? SHMEM_THREAD_MULTIPLE
                                                  : requested;
    int cap = ush_tp_thread_provided == USH_TP_THREAD_MULTI      ? SHMEM_THREAD_MULTIPLE
            : ush_tp_thread_provided == USH_TP_THREAD_SERIALIZED ? SHMEM_THREAD_SERIALIZED
                                                                  : SHMEM_THREAD_FUNNELED;
    return level < cap ? level : cap;
}

/* Start-up and tear-down run one at a time. The specification forbids
 * concurrent shmem_init calls, but programs whose threads each "make sure
 * the library is up" do it, and two start-ups at once crash or hang (two
 * transports, two heaps). Serialised, the first caller initialises and the
 * others wait and return as nested calls do. Recursive: a fatal error
 * during start-up exits, and the exit handler finalizes. */
static pthread_mutex_t ush_init_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* Calls nest: every shmem_init (or start_pes) is matched by a
 * shmem_finalize, and the last finalize tears the library down. After
 * that a new shmem_init starts it again. */
static void ush_init_locked(int requested)
{
    if (ush_g.initialized) {
        ush_g.init_count++;
        return;
    }

    uint64_t t_start = ush_prof_now();
    ush_tp_check("PMIx bootstrap", ush_tp_bootstrap_init());
    ush_g.my_pe      = ush_tp_job.rank;
    ush_g.n_pes      = ush_tp_job.size;
    ush_g.local_rank = ush_tp_job.local_rank;
    ush_g.local_size = ush_tp_job.local_size;

    char err[256];
    if (ush_env_load(&ush_g.env, err, sizeof(err))) {
        ush_fatal("shmem_init", "%s", err);
    }
    ush_env_warn_typos();
    ush_prof_init(t_start);
    /* Everything a bad environment can stop the job for is checked before
     * UCX exists: a PE killed because its peer stopped first then has no
     * UCX state to leave half made. */
    ush_coll_select_init();
    ush_symm_check_limits();
    ush_decide_cpu_features();
    int npus         = ush_node_pus();
    ush_tp_yield_at_once = ush_decide_yield(npus);
    ush_tp_yield         = strcmp(ush_g.env.yield, "never") != 0;
    ush_tp_npus          = npus;
    ush_tp_ctx_workers_max = ush_decide_ctx_workers(npus);
    if (strcmp(ush_g.env.fence, "auto") && strcmp(ush_g.env.fence, "flush")) {
        ush_fatal("shmem_init", "SHMEM_FENCE=%s: expected auto or flush", ush_g.env.fence);
    }
    ush_tp_unordered = !strcmp(ush_g.env.fence, "flush");
    if (ush_g.env.wireup_collect < -1) {
        ush_fatal("shmem_init", "SHMEM_WIREUP_COLLECT=%ld: expected a number of PEs, 0 or -1",
                  (long)ush_g.env.wireup_collect);
    }
    ush_tp_wireup_collect_max = ush_g.env.wireup_collect;

    /* FUNNELED and SERIALIZED need no locking of ours; MULTIPLE gets a
     * thread-safe UCX worker. */
    ush_tp_thread_t tmode = requested >= SHMEM_THREAD_MULTIPLE ? USH_TP_THREAD_MULTI
                          : requested == SHMEM_THREAD_SERIALIZED ? USH_TP_THREAD_SERIALIZED
                                                                 : USH_TP_THREAD_SINGLE;
    ush_g.progress_thread = ush_decide_progress_thread(npus);
    ush_tp_check("UCX initialisation", ush_tp_init(tmode, ush_g.progress_thread));
    ush_g.thread_level = ush_thread_level(requested);
    ush_ctx_table_init();
    ush_ctx_default = (struct ush_ctx){ .tp = ush_tp_ctx_default, .team = SHMEM_TEAM_WORLD,
                                        .pe_start = 0, .pe_stride = 1, .pe_size = ush_g.n_pes,
                                        .state = USH_CTX_LIVE };

    ush_symm_init();
    ush_coll_init();
    ush_agree_init();
    ush_wait_beacon_init();
    ush_hang_init();
    ush_tp_check("wire-up", ush_tp_wireup());
    if (ush_g.progress_thread) ush_tp_check("progress thread", ush_tp_progress_thread_start());
    ush_team_init();
    ush_g.initialized = 1;
    ush_g.init_count  = 1;
    ush_g.finalized   = 0;
    ush_fault_init();
    static int atexit_done;
    if (!atexit_done) {
        on_exit(ush_atexit, NULL); /* the exit status goes into the report */
        atexit_done = 1;
    }
    ush_print_info();
    /* The closing barrier of start-up (a quiet, then an exchange that no
     * PE leaves before every PE has entered it), which also settles what
     * every PE must see alike; SHMEM_TEAM_SHARED depends on it. */
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_agree();
    ush_team_shared_init();
    /* Peers still loading and starting up took the cores from our waits:
     * that says nothing about the program that runs now. */
    ush_tp_idle_reset();
    /* Nor does a long wait of start-up's say where the PE is now: without
     * this, a PE that waited long in start-up (a loaded machine) and then
     * computed was reported "not waiting (last in ?)" instead of running
     * outside the library. */
    ush_hang_publish(USH_HANG_IDLE, 0);
    ush_prof_init_done();
}

static void ush_init(int requested)
{
    pthread_mutex_lock(&ush_init_lock);
    ush_init_locked(requested);
    pthread_mutex_unlock(&ush_init_lock);
}

USH_API(void, shmem_init)(void)
{
    ush_init(SHMEM_THREAD_SINGLE);
}

USH_API(int, shmem_init_thread)(int requested, int *provided)
{
    ush_init(requested);
    if (provided) *provided = ush_g.thread_level;
    return 0;
}

USH_API(void, shmem_query_thread)(int *provided)
{
    USH_CHECK_INIT("shmem_query_thread");
    *provided = ush_g.thread_level;
}

USH_API(void, shmem_query_initialized)(int *initialized)
{
    *initialized = ush_g.initialized;
}

static void ush_finalize_locked(void)
{
    if (!ush_g.initialized || --ush_g.init_count > 0) return;
    uint64_t t_start = ush_prof_now();
    ush_hang_enter_coll("shmem_finalize");
    ush_hang_publish(USH_HANG_INSIDE, 0);
    USH_TEAM_CHECK(SHMEM_TEAM_WORLD, "shmem_finalize");
    /* Contexts left alive complete their operations; then everything
     * outstanding completes and every PE arrives before any PE tears down
     * memory a peer may still be writing. */
    ush_ctx_destroy_all();
    ush_barrier_all();
    ush_g.initialized = 0;
    ush_g.finalized   = 1;
    ush_fault_fini();
    ush_tp_progress_thread_stop();
    ush_wait_beacon_fini();
    ush_hang_fini();
    ush_symm_fini();
    ush_tp_finalize();
    ush_hang_fini_file();
    /* Last: the report's gather needs only the launcher. */
    ush_prof_finalize(t_start);
}

USH_API(void, shmem_finalize)(void)
{
    pthread_mutex_lock(&ush_init_lock);
    ush_finalize_locked();
    pthread_mutex_unlock(&ush_init_lock);
}

USH_API(void, shmem_global_exit)(int status)
{
    fflush(stdout);
    fflush(stderr);
    ush_tp_abort(status, ush_fault_global_exit_msg(status));
}

USH_API(void, start_pes)(int npes)
{
    (void)npes; /* ignored, as the spec says */
    ush_init(SHMEM_THREAD_SINGLE);
}

/* SOS's shmemx_ name (USHMEM_X_LIST_SETUP of <shmemx.h>). */
USH_SHMEMX_ALIAS(query_initialized)
