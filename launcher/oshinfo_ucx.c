/*
 * oshinfo --transports: which UCX transports a PE would use.
 *
 * UCX chooses per endpoint, from what both ends have, so the only faithful
 * answer is to ask it: start UCX exactly as libushmem does (ush_tp_init, the
 * library's own code, so features and parameters cannot drift), create a
 * second worker and connect to it, then read the lanes ucp_ep_print_info
 * reports.
 *  - on-node: the peer's full worker address, as a PE on the same node has.
 *  - off-node: the peer's network-only address (UCP_WORKER_ADDRESS_FLAG_NET_ONLY),
 *    with loopback interfaces left out (UCX_NET_DEVICES), since no other node
 *    is reached through them. That models a peer whose node has the same
 *    network devices as this one.
 * Each probe runs in a child process that hands its findings back through a
 * pipe: the transport layer keeps one context per process and its finalize
 * needs a running job, so a child that simply exits is the clean way to
 * start UCX twice with different settings.
 */
#include "oshinfo.h"

#include "transport/ush_tp_impl.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <uct/api/uct.h>
#include <unistd.h>

#define USH_INFO_MAX_LANES 16
#define USH_INFO_MAX_DEVS  32

typedef struct {
    char tl_dev[64]; /* "posix/memory", "tcp/eth0" */
    char usage[96];  /* as ucp_ep_print_info says: "am am_bw#0 amo#0 wireup" */
} ush_info_lane_t;

typedef struct {
    char tl_dev[64];
    int  loopback;
} ush_info_dev_t;

/* What a probe child finds; plain data, written whole to the pipe. */
typedef struct {
    int             ok;
    char            err[256];
    int             nlanes;
    ush_info_lane_t lane[USH_INFO_MAX_LANES];
    int             rma;   /* UCX has lanes that do put/get in hardware/shm */
    int             amo;   /* ... and atomics */
    int             ndevs; /* network devices (off-node probe only) */
    ush_info_dev_t  dev[USH_INFO_MAX_DEVS];
    int             net_devices_from_user; /* UCX_NET_DEVICES was set */
} ush_info_probe_t;

const char *ush_info_ucx_version(void)
{
    return ucp_get_version_string();
}

static int ush_info_is_loopback(const char *ifname)
{
    struct ifaddrs *ifs, *i;
    int             lo = 0;
    if (getifaddrs(&ifs) != 0) {
        return strcmp(ifname, "lo") == 0;
    }
    for (i = ifs; i != NULL; i = i->ifa_next) {
        if (i->ifa_name != NULL && strcmp(i->ifa_name, ifname) == 0 &&
            (i->ifa_flags & IFF_LOOPBACK)) {
            lo = 1;
        }
    }
    freeifaddrs(ifs);
    return lo;
}

/* The network devices UCX has on this machine (UCT's device type NET),
 * whatever UCX_TLS says; loopback interfaces marked. */
static void ush_info_net_devices(ush_info_probe_t *p)
{
    uct_component_h *comps;
    unsigned         ncomps;

    if (uct_query_components(&comps, &ncomps) != UCS_OK) {
        return;
    }
    for (unsigned c = 0; c < ncomps; c++) {
        uct_component_attr_t attr = { .field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT };
        if (uct_component_query(comps[c], &attr) != UCS_OK || attr.md_resource_count == 0) {
            continue;
        }
        uct_md_resource_desc_t mds[attr.md_resource_count];
        attr.field_mask    = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
        attr.md_resources  = mds;
        if (uct_component_query(comps[c], &attr) != UCS_OK) {
            continue;
        }
        for (unsigned m = 0; m < attr.md_resource_count; m++) {
            uct_md_config_t        *cfg;
            uct_md_h                md;
            uct_tl_resource_desc_t *res;
            unsigned                nres;
            if (uct_md_config_read(comps[c], NULL, NULL, &cfg) != UCS_OK) {
                continue;
            }
            ucs_status_t st = uct_md_open(comps[c], mds[m].md_name, cfg, &md);
            uct_config_release(cfg);
            if (st != UCS_OK) {
                continue;
            }
            if (uct_md_query_tl_resources(md, &res, &nres) == UCS_OK) {
                for (unsigned r = 0; r < nres && p->ndevs < USH_INFO_MAX_DEVS; r++) {
                    if (res[r].dev_type != UCT_DEVICE_TYPE_NET) {
                        continue;
                    }
                    ush_info_dev_t *d = &p->dev[p->ndevs++];
                    snprintf(d->tl_dev, sizeof(d->tl_dev), "%s/%s", res[r].tl_name,
                             res[r].dev_name);
                    d->loopback = ush_info_is_loopback(res[r].dev_name);
                }
                uct_release_tl_resource_list(res);
            }
            uct_md_close(md);
        }
    }
    uct_release_component_list(comps);
}

/* UCX_NET_DEVICES for the off-node probe: every non-loopback network
 * device, each device name once. Empty when there is none. */
static void ush_info_net_device_list(const ush_info_probe_t *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0]      = '\0';
    for (int i = 0; i < p->ndevs; i++) {
        const char *dev = strchr(p->dev[i].tl_dev, '/') + 1;
        int         dup = 0;
        for (int j = 0; j < i; j++) {
            dup |= strcmp(strchr(p->dev[j].tl_dev, '/') + 1, dev) == 0;
        }
        if (p->dev[i].loopback || dup) {
            continue;
        }
        int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", dev);
        if (n < 0 || (size_t)n >= len - used) {
            break;
        }
        used += (size_t)n;
    }
}

/* Lines such as
 *   "#   lane[0]:  3:sysv/memory.0 md[2]   -> md[2]/sysv/sysdev[255] amo#0 am am_bw#0"
 *   "#   put[0]: 0..<short>..4294967296..<bcopy>..(inf)"
 * UCX's text is not an API: anything unrecognised is skipped, so a format
 * change shows up as "no lanes", not as a crash. */
static void ush_info_parse_ep(char *text, ush_info_probe_t *p)
{
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *lane = strstr(line, "lane[");
        if (strstr(line, "put[") || strstr(line, "get[")) {
            p->rma = 1;
        }
        if (lane == NULL || p->nlanes == USH_INFO_MAX_LANES) {
            continue;
        }
        char *colon = strchr(lane, ':');
        char *arrow = strstr(lane, "->");
        if (colon == NULL || arrow == NULL) {
            continue;
        }
        char *tl = colon + 1;
        tl += strspn(tl, " ");
        tl += strspn(tl, "0123456789");  /* resource index */
        if (*tl == ':') {
            tl++;
        }
        ush_info_lane_t *l = &p->lane[p->nlanes++];
        size_t           n = strcspn(tl, " ");
        snprintf(l->tl_dev, sizeof(l->tl_dev), "%.*s", (int)n, tl);
        char *dot = strrchr(l->tl_dev, '.'); /* ".0": the path index */
        if (dot != NULL && dot > strchr(l->tl_dev, '/')) {
            *dot = '\0';
        }
        /* Usage words follow the remote "md[..]/tl/sysdev[..]" token. */
        char *usage = arrow + 2;
        usage += strspn(usage, " ");
        usage += strcspn(usage, " ");
        usage += strspn(usage, " ");
        snprintf(l->usage, sizeof(l->usage), "%s", usage);
        if (strstr(l->usage, "amo#")) {
            p->amo = 1;
        }
        if (strstr(l->usage, "rma")) {
            p->rma = 1;
        }
    }
}

/* In the child: start UCX as the library does, connect, describe. */
static void ush_info_probe_child(int npes, int off_node, ush_info_probe_t *p)
{
    char         devs[512];
    ucp_worker_h peer;
    ucp_ep_h     ep;
    char        *text = NULL;
    size_t       textlen;

    if (off_node) {
        ush_info_net_devices(p);
        p->net_devices_from_user = getenv("UCX_NET_DEVICES") != NULL;
        ush_info_net_device_list(p, devs, sizeof(devs));
        if (!p->net_devices_from_user) {
            if (devs[0] == '\0') {
                snprintf(p->err, sizeof(p->err),
                         "no network device other than loopback: this machine cannot reach "
                         "PEs on other nodes");
                return;
            }
            setenv("UCX_NET_DEVICES", devs, 1);
        }
    }

    ush_tp_job = (ush_tp_job_t){ .rank = 0, .size = npes, .local_rank = 0,
                                 .local_size = off_node ? 1 : npes,
                                 .num_nodes = off_node ? 2 : 1 };
    if (ush_tp_init(USH_TP_THREAD_SINGLE, 0) != USH_TP_OK) {
        snprintf(p->err, sizeof(p->err), "starting UCX as libushmem does: %s",
                 ush_tp_strerror());
        return;
    }
    ush_tp_thread_t mode = USH_TP_THREAD_SINGLE;
    if (ush_tp_worker_create(&mode, &peer) != USH_TP_OK) {
        snprintf(p->err, sizeof(p->err), "a second worker: %s", ush_tp_strerror());
        return;
    }
    ucp_worker_attr_t attr = {
        .field_mask    = UCP_WORKER_ATTR_FIELD_ADDRESS | UCP_WORKER_ATTR_FIELD_ADDRESS_FLAGS,
        .address_flags = off_node ? UCP_WORKER_ADDRESS_FLAG_NET_ONLY : 0,
    };
    ucs_status_t st = ucp_worker_query(peer, &attr);
    if (st != UCS_OK) {
        snprintf(p->err, sizeof(p->err), "ucp_worker_query: %s", ucs_status_string(st));
        return;
    }
    ucp_ep_params_t ep_params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address    = attr.address,
    };
    st = ucp_ep_create(ush_tp_ctx_default->worker, &ep_params, &ep);
    if (st != UCS_OK) {
        snprintf(p->err, sizeof(p->err), "ucp_ep_create: %s%s", ucs_status_string(st),
                 off_node ? " (no network transport reaches a peer)" : "");
        return;
    }
    FILE *mem = open_memstream(&text, &textlen);
    if (mem == NULL) {
        snprintf(p->err, sizeof(p->err), "open_memstream: out of memory");
        return;
    }
    ucp_ep_print_info(ep, mem);
    fclose(mem);
    ush_info_parse_ep(text, p);
    free(text);
    if (p->nlanes == 0) {
        snprintf(p->err, sizeof(p->err),
                 "found no lanes in ucp_ep_print_info's output (UCX %s): its format changed",
                 ucp_get_version_string());
        return;
    }
    p->ok = 1;
    /* No teardown: the process exits, and the transport's finalize would
     * wait for a job that does not exist. */
}

/* Run one probe in a child; 0 with *p filled, or -1 with p->err set. */
static int ush_info_probe(int npes, int off_node, ush_info_probe_t *p)
{
    int fds[2];
    memset(p, 0, sizeof(*p));
    if (pipe(fds) != 0) {
        snprintf(p->err, sizeof(p->err), "pipe: %m");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(p->err, sizeof(p->err), "fork: %m");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        ush_info_probe_child(npes, off_node, p);
        ssize_t n = write(fds[1], p, sizeof(*p));
        _exit(n == (ssize_t)sizeof(*p) ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof(*p)) {
        ssize_t n = read(fds[0], (char *)p + got, sizeof(*p) - got);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (got != sizeof(*p)) {
        memset(p, 0, sizeof(*p));
        snprintf(p->err, sizeof(p->err), "the UCX probe process died (%s %d)",
                 WIFSIGNALED(status) ? "signal" : "status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return -1;
    }
    return p->ok ? 0 : -1;
}

static void ush_info_print_lanes(const ush_info_probe_t *p, FILE *out)
{
    for (int i = 0; i < p->nlanes; i++) {
        fprintf(out, "    lane %-2d %-20s %s\n", i, p->lane[i].tl_dev, p->lane[i].usage);
    }
    fprintf(out, "    transports:");
    for (int i = 0; i < p->nlanes; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++) {
            dup |= strcmp(p->lane[i].tl_dev, p->lane[j].tl_dev) == 0;
        }
        if (!dup) {
            fprintf(out, " %s", p->lane[i].tl_dev);
        }
    }
    static const char *const how[] = { "emulated by UCX in software (the target must progress)",
                                       "by the transport" };
    fprintf(out, "\n    remote memory access: %s\n    atomics: %s\n", how[p->rma], how[p->amo]);
}

int ush_info_transports(int npes, FILE *out, int *off_node_emulated)
{
    ush_info_probe_t on, off;
    int              ret = 0;

    fprintf(out, "Transports (UCX %s, for a job of %d PEs)\n", ucp_get_version_string(), npes);
    fprintf(out, "  on-node (an endpoint to another PE on this node):\n");
    if (ush_info_probe(npes, 0, &on) == 0) {
        ush_info_print_lanes(&on, out);
        fprintf(out, "    ushmem maps node-local peers' symmetric heap (and static data with\n"
                     "    SHMEM_SHARE_STATIC=1) and reaches it with loads and stores;\n"
                     "    UCX carries what is not mapped over these lanes.\n");
    } else {
        fprintf(stderr, "oshinfo: on-node transport probe: %s\n", on.err);
        ret = -1;
    }

    fprintf(out, "  off-node (an endpoint to a PE on another node with the same devices):\n");
    int probed = ush_info_probe(npes, 1, &off) == 0;
    fprintf(out, "    network devices:");
    for (int i = 0; i < off.ndevs; i++) {
        fprintf(out, "%s %s%s", i ? "," : "", off.dev[i].tl_dev,
                off.dev[i].loopback ? " (loopback: not used off-node)" : "");
    }
    fprintf(out, "%s\n", off.ndevs == 0 ? " none" : "");
    if (off.net_devices_from_user) {
        fprintf(out, "    UCX_NET_DEVICES=%s (from the environment) limits them\n",
                getenv("UCX_NET_DEVICES"));
    }
    *off_node_emulated = probed && (!off.rma || !off.amo);
    if (probed) {
        ush_info_print_lanes(&off, out);
    } else {
        fprintf(out, "    none: %s\n", off.err);
    }
    fprintf(out, "    UCX makes the real choice per peer when the job runs, from what both\n"
                 "    ends have; a peer with other devices may get other transports.\n");
    return ret;
}
