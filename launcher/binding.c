/*
 * --bind-to core: PE i runs on core i (round robin past the last core).
 * The plan is made in the parent with hwloc and applied in each child with
 * sched_setaffinity alone, since a child of the threaded launcher may only
 * make async-signal-safe calls before exec.
 */
#include "oshrun.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdlib.h>

ush_run_status_t ush_run_binding_plan(int npes, cpu_set_t **sets_out)
{
    hwloc_topology_t topo;
    ush_run_status_t st = USH_RUN_OK;

    if (hwloc_topology_init(&topo) != 0) {
        ush_run_msg("--bind-to core: hwloc_topology_init failed");
        return USH_RUN_ERR_SYS;
    }
    if (hwloc_topology_load(topo) != 0) {
        ush_run_msg("--bind-to core: hwloc cannot read this machine's topology");
        st = USH_RUN_ERR_SYS;
        goto out_topo;
    }

    /* Cores where hwloc knows them, hardware threads otherwise (some
     * virtual machines report no cores). */
    hwloc_obj_type_t type   = HWLOC_OBJ_CORE;
    int              nunits = hwloc_get_nbobjs_by_type(topo, type);
    if (nunits <= 0) {
        type   = HWLOC_OBJ_PU;
        nunits = hwloc_get_nbobjs_by_type(topo, type);
    }
    if (nunits <= 0) {
        ush_run_msg("--bind-to core: hwloc finds no cores on this machine");
        st = USH_RUN_ERR_SYS;
        goto out_topo;
    }
    if (npes > nunits) {
        ush_run_msg("warning: %d PEs on %d cores: --bind-to core puts several PEs on "
                    "one core", npes, nunits);
    }

    cpu_set_t *sets = calloc((size_t)npes, sizeof(cpu_set_t));
    if (sets == NULL) {
        st = USH_RUN_ERR_NOMEM;
        goto out_topo;
    }
    for (int pe = 0; pe < npes; pe++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)(pe % nunits));
        if (obj == NULL || obj->cpuset == NULL ||
            hwloc_cpuset_to_glibc_sched_affinity(topo, obj->cpuset, &sets[pe],
                                                 sizeof(cpu_set_t)) != 0) {
            ush_run_msg("--bind-to core: hwloc gives no cpu set for core %d", pe % nunits);
            free(sets);
            st = USH_RUN_ERR_SYS;
            goto out_topo;
        }
    }
    *sets_out = sets;

out_topo:
    hwloc_topology_destroy(topo);
    return st;
}
