/*
 * Binding of the embedded launcher's PEs, the one place that decides it.
 *
 *   core    PE i runs on core i (round robin past the last core)
 *   socket  PE i runs on package (socket) i mod the number of packages
 *   none    PEs go where the kernel puts them
 *   default core when the PEs fit on the cores, none when they do not: a
 *           pinned PE sharing its core with another spinning PE would wait
 *           for it, while an unpinned one can move to a free moment.
 *
 * The plan is made in the parent with hwloc and applied in each child with
 * sched_setaffinity alone, since a child of the threaded launcher may only
 * make async-signal-safe calls before exec. The topology is restricted to
 * the CPUs oshrun itself may run on (cgroup, taskset, a batch system's
 * binding): PEs must stay inside what the job was given.
 */
#include "oshrun.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdlib.h>

/* Objects PEs are bound to: cores where hwloc knows them, hardware threads
 * otherwise (some virtual machines report no cores); packages for socket. */
static int ush_run_binding_units(hwloc_topology_t topo, ush_run_bind_t bind,
                                 hwloc_obj_type_t *type_out)
{
    hwloc_obj_type_t type = (bind == USH_RUN_BIND_SOCKET) ? HWLOC_OBJ_PACKAGE :
                                                            HWLOC_OBJ_CORE;
    int              n    = hwloc_get_nbobjs_by_type(topo, type);

    if (n <= 0 && type == HWLOC_OBJ_CORE) {
        type = HWLOC_OBJ_PU;
        n    = hwloc_get_nbobjs_by_type(topo, type);
    }
    *type_out = type;
    return n;
}

/* --report-bindings: one line per PE, as hwloc names what it is bound to. */
static void ush_run_binding_report(hwloc_obj_t obj, int pe)
{
    char pus[256];

    if (obj == NULL) {
        ush_run_msg("PE %d not bound", pe);
        return;
    }
    hwloc_bitmap_list_snprintf(pus, sizeof(pus), obj->cpuset);
    ush_run_msg("PE %d bound to %s %u (PUs %s)", pe,
                obj->type == HWLOC_OBJ_PACKAGE ? "socket" :
                obj->type == HWLOC_OBJ_CORE    ? "core" : "PU",
                obj->logical_index, pus);
}

static void ush_run_binding_report_none(const ush_run_opts_t *opts)
{
    for (int pe = 0; opts->report_bindings && pe < opts->npes; pe++) {
        ush_run_binding_report(NULL, pe);
    }
}

ush_run_status_t ush_run_binding_plan(const ush_run_opts_t *opts, cpu_set_t **sets_out)
{
    hwloc_topology_t topo;
    hwloc_obj_type_t type;
    ush_run_bind_t   bind = opts->bind;
    ush_run_status_t st   = USH_RUN_OK;
    int              npes = opts->npes, nunits;

    *sets_out = NULL;
    if (bind == USH_RUN_BIND_NONE) {
        if (opts->verbose) {
            ush_run_msg("binding: none (--bind-to none)");
        }
        ush_run_binding_report_none(opts);
        return USH_RUN_OK;
    }
    if (hwloc_topology_init(&topo) != 0) {
        ush_run_msg("--bind-to: hwloc_topology_init failed (use --bind-to none)");
        return USH_RUN_ERR_SYS;
    }
    if (hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM |
                                       HWLOC_TOPOLOGY_FLAG_RESTRICT_TO_CPUBINDING) != 0 ||
        hwloc_topology_load(topo) != 0) {
        if (bind == USH_RUN_BIND_DEFAULT) {
            /* the default must not stop a job that could run unbound */
            ush_run_msg("warning: hwloc cannot read this machine's topology; PEs are "
                        "not bound");
            ush_run_binding_report_none(opts);
            goto out_topo;
        }
        ush_run_msg("--bind-to: hwloc cannot read this machine's topology "
                    "(use --bind-to none)");
        st = USH_RUN_ERR_SYS;
        goto out_topo;
    }

    if (bind == USH_RUN_BIND_DEFAULT) {
        nunits = ush_run_binding_units(topo, USH_RUN_BIND_CORE, &type);
        if (nunits > 0 && npes <= nunits) {
            bind = USH_RUN_BIND_CORE;
            if (opts->verbose) {
                ush_run_msg("binding: core (%d PEs fit on %d cores; --bind-to none to "
                            "change)", npes, nunits);
            }
        } else {
            if (opts->verbose) {
                ush_run_msg("binding: none (%d PEs on %d cores: more PEs than cores; "
                            "--bind-to core to bind anyway)", npes, nunits);
            }
            ush_run_binding_report_none(opts);
            goto out_topo;
        }
    } else if (opts->verbose) {
        ush_run_msg("binding: %s (--bind-to %s)", bind == USH_RUN_BIND_CORE ? "core" :
                    "socket", bind == USH_RUN_BIND_CORE ? "core" : "socket");
    }

    nunits = ush_run_binding_units(topo, bind, &type);
    if (nunits <= 0) {
        ush_run_msg("--bind-to %s: hwloc finds no %s on this machine (use --bind-to "
                    "none)", bind == USH_RUN_BIND_CORE ? "core" : "socket",
                    bind == USH_RUN_BIND_CORE ? "cores" : "sockets");
        st = USH_RUN_ERR_SYS;
        goto out_topo;
    }
    if (bind == USH_RUN_BIND_CORE && npes > nunits) {
        ush_run_msg("warning: %d PEs on %d cores: --bind-to core puts several PEs on "
                    "one core", npes, nunits);
    }

    cpu_set_t *sets = calloc((size_t)npes, sizeof(cpu_set_t));
    if (sets == NULL) {
        ush_run_msg("out of memory for the cpu sets of %d PEs", npes);
        st = USH_RUN_ERR_NOMEM;
        goto out_topo;
    }
    for (int pe = 0; pe < npes; pe++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)(pe % nunits));
        if (obj == NULL || obj->cpuset == NULL ||
            hwloc_cpuset_to_glibc_sched_affinity(topo, obj->cpuset, &sets[pe],
                                                 sizeof(cpu_set_t)) != 0) {
            ush_run_msg("--bind-to: hwloc gives no cpu set for %s %d",
                        hwloc_obj_type_string(type), pe % nunits);
            free(sets);
            st = USH_RUN_ERR_SYS;
            goto out_topo;
        }
        if (opts->report_bindings) {
            ush_run_binding_report(obj, pe);
        }
    }
    *sets_out = sets;

out_topo:
    hwloc_topology_destroy(topo);
    return st;
}
