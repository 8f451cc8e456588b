/*
 * Which algorithm serves a call: SHMEM_<KIND>_ALGORITHM forces one, else a
 * small table by (collective, bytes, set size). The choice must be the same
 * on every member, so it depends only on arguments all members share.
 */
#include "ush_coll.h"
#include "core/ush.h"
#include "transport/ush_tp.h"

#include <stdlib.h>
#include <string.h>

#define USH_COLL_MAX_ALGOS 5

/* Sets the central barrier serves when every member maps every other:
 * small ones, and any of 3 or more where PEs outnumber cores (every wait
 * then costs a turn on a core: dissemination's log2 n rounds cost n turns
 * each, central's two phases one each; 64 PEs on 2 cores, 164 us against
 * 361). */
#define USH_COLL_CENTRAL_AUTO(n) ((n) >= 3 && ((n) <= 8 || ush_g.crowded))

/* Bytes from which the direct reduction beats recursive doubling. */
#define USH_COLL_DIRECT_MIN (16u << 10)

static const struct {
    const char *var;
    const char *names[USH_COLL_MAX_ALGOS]; /* NULL-terminated */
} ush_coll_algos[USH_COLL_KINDS] = {
    [USH_COLL_BARRIER]  = { "SHMEM_BARRIER_ALGORITHM", { "dissemination", "central" } },
    [USH_COLL_BCAST]    = { "SHMEM_BCAST_ALGORITHM", { "tree", "chain", "linear", "pull" } },
    [USH_COLL_COLLECT]  = { "SHMEM_COLLECT_ALGORITHM", { "linear", "ring", "slots" } },
    [USH_COLL_FCOLLECT] = { "SHMEM_FCOLLECT_ALGORITHM", { "rd", "ring", "linear" } },
    [USH_COLL_ALLTOALL] = { "SHMEM_ALLTOALL_ALGORITHM", { "pairwise", "linear" } },
    [USH_COLL_REDUCE]   = { "SHMEM_REDUCE_ALGORITHM", { "rd", "ring", "linear", "direct" } },
};

/* -1: auto; >= 0: forced. Filled once at shmem_init. */
static int ush_coll_forced[USH_COLL_KINDS];

/* The variables come from the environment table (core/ush_env.h). */
static const char *ush_coll_env(ush_coll_kind_t kind)
{
    const char *const values[USH_COLL_KINDS] = {
        [USH_COLL_BARRIER]  = ush_g.env.barrier_algorithm,
        [USH_COLL_BCAST]    = ush_g.env.bcast_algorithm,
        [USH_COLL_COLLECT]  = ush_g.env.collect_algorithm,
        [USH_COLL_FCOLLECT] = ush_g.env.fcollect_algorithm,
        [USH_COLL_ALLTOALL] = ush_g.env.alltoall_algorithm,
        [USH_COLL_REDUCE]   = ush_g.env.reduce_algorithm,
    };
    return values[kind];
}

void ush_coll_select_init(void)
{
    for (int k = 0; k < USH_COLL_KINDS; k++) {
        const char *v = ush_coll_env((ush_coll_kind_t)k);
        ush_coll_forced[k] = -1;
        if (v == NULL || *v == '\0' || strcmp(v, "auto") == 0) continue;
        int a;
        for (a = 0; a < USH_COLL_MAX_ALGOS && ush_coll_algos[k].names[a]; a++) {
            if (strcmp(v, ush_coll_algos[k].names[a]) == 0) break;
        }
        if (a < USH_COLL_MAX_ALGOS && ush_coll_algos[k].names[a]) {
            ush_coll_forced[k] = a;
            continue;
        }
        char valid[128] = "auto";
        for (int b = 0; b < USH_COLL_MAX_ALGOS && ush_coll_algos[k].names[b]; b++) {
            strncat(valid, ", ", sizeof valid - strlen(valid) - 1);
            strncat(valid, ush_coll_algos[k].names[b], sizeof valid - strlen(valid) - 1);
        }
        ush_fatal(ush_coll_algos[k].var, "unknown algorithm '%s'; valid values: %s", v, valid);
    }
}

int ush_coll_forced_algo(ush_coll_kind_t kind)
{
    return ush_coll_forced[kind];
}

const char *ush_coll_algo_name(ush_coll_kind_t kind, int algo)
{
    return ush_coll_algos[kind].names[algo];
}

/* Whether the direct reduction may serve a set of n: every member maps
 * every other's memory. ush_tp_all_mapped is the same on every PE of a
 * one-node job (and 0 on every PE of a larger one), so all members agree. */
static int ush_coll_direct_ok(int n)
{
    return ush_tp_all_mapped && n <= USH_COLL_DIRECT_MAX;
}

int ush_coll_select(ush_coll_kind_t kind, size_t bytes, int n)
{
    if (ush_coll_forced[kind] >= 0) {
        /* Forced direct where it cannot run: recursive doubling. */
        if (kind == USH_COLL_REDUCE && ush_coll_forced[kind] == 3 && !ush_coll_direct_ok(n))
            return 0;
        return ush_coll_forced[kind];
    }

    /* The table. Indices follow the name lists above. Log-step algorithms
     * win while latency dominates; rings (each byte crosses each link once)
     * once the data is large; linear ones only for tiny sets. */
    switch (kind) {
    case USH_COLL_BARRIER:
        return USH_COLL_CENTRAL_AUTO(n) && ush_tp_all_mapped ? 1 : 0; /* central : dissemination */
    case USH_COLL_BCAST:
        /* linear: its mailboxes let the root run ahead; and on one node,
         * where a put is a copy, one hop beats the tree's log n hops
         * (each a wait for a process that may not be running, with PEs
         * outnumbering cores) until the copies from the root dominate:
         * 4 PEs, 64 KiB: 7.9 us against 13.9; 16 PEs on 2 cores, 8 B
         * back to back: 2.7-3.2 us against 17 */
        if (n <= 2 || (n <= USH_COLL_MBOX_N && bytes <= USH_COLL_MBOX_MAX)) return 2;
        /* pull: members that map each other copy at once, once the copy
         * outweighs the root's extra count (n - 1 atomics on one word):
         * 4 PEs, 128 KiB: 14-19 us against linear's 20-28; 8 KiB: 5.0-6.4
         * against 4.0-5.5 */
        if (ush_tp_all_mapped && bytes >= (32u << 10)) return 3;
        if (bytes >= (256u << 10)) return 1;       /* chain */
        return n <= USH_COLL_LINEAR_MAX && ush_tp_all_mapped ? 2 : 0; /* linear : tree */
    case USH_COLL_COLLECT:
        return n <= 16 ? 2 : 1;                    /* slots : ring */
    case USH_COLL_FCOLLECT:
        return (bytes * (size_t)n >= (256u << 10)) ? 1 : 0; /* ring : rd */
    case USH_COLL_ALLTOALL:
        return 0;                                  /* pairwise */
    case USH_COLL_REDUCE:
        /* direct: members that map each other read in place (no copy into
         * a scratch, no chunks) once the data outweighs its three rounds */
        if (ush_coll_direct_ok(n) && bytes >= USH_COLL_DIRECT_MIN) return 3;
        return (n >= 3 && bytes >= (64u << 10)) ? 1 : 0; /* ring : rd */
    default:
        return 0;
    }
}
