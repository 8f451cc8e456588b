/*
 * Teams: the predefined ones, splits, translation, destruction.
 *
 * Slots. The symmetric state of every team (sync words and scratch) lives
 * in a pool taken from the heap at init, identical on every PE. A split
 * agrees on the lowest slot that is free on every member of the parent:
 * each parent member publishes its free-slot mask, a parent barrier, each
 * reads all masks and ANDs them (every member computes the same answer),
 * and a second barrier before the mask words may be written again. Slot
 * memory is zero whenever the slot is free, so a new team's members need
 * no further agreement before its first collective.
 */
#include "ush_team.h"
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "core/ush_rma.h"
#include "core/ush_symm.h"
#include "transport/ush_tp.h"

#include <stdlib.h>
#include <string.h>

struct ush_team ush_team_world;
struct ush_team ush_team_shared;
_Static_assert(sizeof(struct ush_team) == USH_TEAM_ABI_BYTES,
               "struct ush_team changed size: programs linked against the library hold "
               "copies of its predefined teams (see USH_TEAM_ABI_BYTES)");
uint64_t ush_team_done_by_all[USH_TEAM_MAX];

static uint64_t *ush_team_pool_sync;    /* symmetric [USH_TEAM_MAX][USH_TEAM_SYNC_WORDS] */
static char     *ush_team_pool_scratch; /* symmetric [USH_TEAM_MAX][USH_TEAM_SCRATCH] */
static uint64_t *ush_team_split_masks;  /* symmetric [USH_TEAM_MAX], by parent slot */
static uint64_t  ush_team_free;         /* bit i: slot i is free on this PE */
static struct ush_team ush_team_handles[USH_TEAM_HANDLES]; /* split teams (ush_team.h) */
static unsigned  ush_team_next_handle;  /* where the round-robin search starts */

_Static_assert(USH_TEAM_MAX <= 64, "the free-slot mask is one uint64_t");
_Static_assert(USH_TEAM_MAX <= USH_COLL_CHECK_TEAMS, "a check block for every team slot");

static void ush_team_setup(struct ush_team *team, int start, int stride, int size, int slot)
{
    int me = ush_g.my_pe, my_pe = -1;
    for (int i = 0; i < size; i++) {
        if (start + i * stride == me) my_pe = i;
    }
    *team = (struct ush_team){
        .start   = start,
        .stride  = stride,
        .size    = size,
        .my_pe   = my_pe,
        .slot    = slot,
        .sync    = ush_team_pool_sync + (size_t)slot * USH_TEAM_SYNC_WORDS,
        .scratch = ush_team_pool_scratch + (size_t)slot * USH_TEAM_SCRATCH,
        .config  = { .num_contexts = 0 },
        .alive   = 1,
    };
    ush_team_done_by_all[slot] = 0;
    ush_team_free &= ~(UINT64_C(1) << slot);
}

/* A dead entry, the one after the last handed out first: with at most
 * USH_TEAM_MAX teams alive there always is one. */
static struct ush_team *ush_team_handle_alloc(void)
{
    for (unsigned i = 0; i < USH_TEAM_HANDLES; i++) {
        unsigned k = (ush_team_next_handle + i) % USH_TEAM_HANDLES;
        if (!ush_team_handles[k].alive) {
            ush_team_next_handle = (k + 1) % USH_TEAM_HANDLES;
            return &ush_team_handles[k];
        }
    }
    return NULL;
}

int ush_team_handle_ok(const struct ush_team *team)
{
    if (team == &ush_team_world || team == &ush_team_shared) return 1;
    uintptr_t off = (uintptr_t)team - (uintptr_t)ush_team_handles;
    return off < sizeof(ush_team_handles) && off % sizeof(*team) == 0 && team->alive;
}

void ush_team_fail_handle(const char *routine, const char *arg, const struct ush_team *team)
{
    uintptr_t off = (uintptr_t)team - (uintptr_t)ush_team_handles;
    if (off < sizeof(ush_team_handles) && off % sizeof(*team) == 0) {
        ush_fatal(routine,
                  "%s (%p) is a team that was destroyed by shmem_team_destroy; use a team "
                  "that is still alive, or set destroyed handles to SHMEM_TEAM_INVALID",
                  arg, (const void *)team);
    }
    ush_fatal(routine,
              "%s (%p) is not a team handle: pass SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a "
              "team from shmem_team_split_strided/_2d (is the variable uninitialised?)",
              arg, (const void *)team);
}

void ush_team_init(void)
{
    int n = ush_g.n_pes;

    /* Teams of an earlier init/finalize cycle are gone. */
    memset(ush_team_handles, 0, sizeof(ush_team_handles));
    ush_team_next_handle = 0;

    /* Allocated in the same order on every PE, so the same offsets. */
    ush_team_pool_sync =
        ush_symm_internal_alloc((size_t)USH_TEAM_MAX * USH_TEAM_SYNC_WORDS * sizeof(uint64_t));
    ush_team_pool_scratch = ush_symm_internal_alloc((size_t)USH_TEAM_MAX * USH_TEAM_SCRATCH);
    ush_team_split_masks  = ush_symm_internal_alloc(USH_TEAM_MAX * sizeof(uint64_t));
    /* No memset: the heap's memfd is new at every init, so the pool is
     * zero, and a page a team never uses is never backed. */
    ush_team_free = ~UINT64_C(0) >> (64 - USH_TEAM_MAX);

    ush_team_setup(&ush_team_world, 0, 1, n, 0);
}

void ush_team_shared_init(void)
{
    int me = ush_g.my_pe, n = ush_g.n_pes;

    /* SHMEM_TEAM_SHARED: the PEs whose heaps this PE maps, which are its
     * node's when the job agreed that node-local heaps map. A strided
     * team holds them when they are consecutive (the usual block
     * placement); otherwise it is this PE alone, which is always correct.
     * Shared teams on different nodes are disjoint, so they can all use
     * slot 1. */
    int first = me, last = me;
    if (ush_tp_local_mapped & (1u << USH_SEG_HEAP)) {
        while (first > 0 && ush_tp_local(first - 1)) first--;
        while (last < n - 1 && ush_tp_local(last + 1)) last++;
    }
    ush_team_setup(&ush_team_shared, first, 1, last - first + 1, 1);
}

void ush_team_sync(struct ush_team *team)
{
    ush_coll_set_t set = ush_team_set(team);
    /* The predefined teams' flags are never cleared (barrier.c says why
     * that matters). */
    ush_coll_barrier_seq(&set, team->sync, &team->barrier_seq,
                         team == &ush_team_world || team == &ush_team_shared);
    ush_team_done_by_all[team->slot] = team->coll_calls;
}

/* The slot every parent member can give the new team, or -1. Collective
 * over the parent. */
static int ush_team_agree_slot(struct ush_team *parent)
{
    uint64_t *word = &ush_team_split_masks[parent->slot];
    __atomic_store_n(word, ush_team_free, __ATOMIC_RELAXED);
    ush_team_sync(parent);

    uint64_t common = ~UINT64_C(0);
    for (int i = 0; i < parent->size; i++) {
        uint64_t mask;
        ush_get(SHMEM_CTX_DEFAULT, &mask, word, sizeof(mask), ush_team_world_pe(parent, i));
        common &= mask;
    }
    ush_team_sync(parent); /* all have read before anyone writes again */
    return common ? __builtin_ctzll(common) : -1;
}

static int ush_team_valid_config(const shmem_team_config_t *config, long mask)
{
    return !(mask & SHMEM_TEAM_NUM_CONTEXTS) || (config && config->num_contexts >= 0);
}

/* Create the team of parent members start + i * stride (i < size), all
 * given in parent numbering, with world PEs; or SHMEM_TEAM_INVALID on
 * PEs outside it. Collective over the parent. */
static int ush_team_create(const char *routine, struct ush_team *parent, int start, int stride,
                           int size, const shmem_team_config_t *config, long mask,
                           shmem_team_t *new_team)
{
    *new_team = SHMEM_TEAM_INVALID;
    int slot  = ush_team_agree_slot(parent);
    if (slot < 0) {
        if (parent->my_pe == 0) {
            ush_warn(routine, "no team slot is free on every member (at most %d teams, "
                              "predefined ones included, may exist at once); destroy teams "
                              "that are no longer needed",
                     USH_TEAM_MAX);
        }
        return -1;
    }

    int wstart  = ush_team_world_pe(parent, start);
    int wstride = stride * parent->stride;
    int member  = 0;
    for (int i = 0; i < size; i++) member |= wstart + i * wstride == ush_g.my_pe;
    if (!member) return 0;

    struct ush_team *team = ush_team_handle_alloc();
    if (!team) ush_fatal(routine, "no free team handle (cannot happen: at most %d teams live)",
                         USH_TEAM_MAX);
    ush_team_setup(team, wstart, size > 1 ? wstride : 1, size, slot);
    if (mask & SHMEM_TEAM_NUM_CONTEXTS) team->config.num_contexts = config->num_contexts;
    team->config_mask = mask;
    *new_team = team;
    return 0;
}

USH_API(int, shmem_team_split_strided)(shmem_team_t parent_team, int start, int stride,
                                       int size, const shmem_team_config_t *config,
                                       long config_mask, shmem_team_t *new_team)
{
    USH_PROF_SCOPE("shmem_team_split_strided");
    USH_CHECK_INIT("shmem_team_split_strided");
    ush_hang_enter_coll("shmem_team_split_strided");
    USH_CHECK_TEAM("shmem_team_split_strided", "parent_team", parent_team);
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID) return -1;
    USH_TEAM_CHECK(parent_team, "shmem_team_split_strided");

    /* A valid triplet stays inside the parent without wrapping around. */
    int n    = parent_team->size;
    int last = start + (size - 1) * stride;
    if (size < 1 || (stride == 0 && size != 1) || start < 0 || start >= n || last < 0 ||
        last >= n || !ush_team_valid_config(config, config_mask)) {
        if (parent_team->my_pe == 0 && ush_g.env.debug) {
            ush_warn("shmem_team_split_strided",
                     "invalid triplet (start %d, stride %d, size %d) for a parent team of "
                     "%d PEs; returning SHMEM_TEAM_INVALID",
                     start, stride, size, n);
        }
        return -1;
    }
    return ush_team_create("shmem_team_split_strided", parent_team, start, stride, size, config,
                           config_mask, new_team);
}

USH_API(int, shmem_team_split_2d)(shmem_team_t parent_team, int xrange,
                                  const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                  shmem_team_t *xaxis_team,
                                  const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                  shmem_team_t *yaxis_team)
{
    USH_PROF_SCOPE("shmem_team_split_2d");
    USH_CHECK_INIT("shmem_team_split_2d");
    ush_hang_enter_coll("shmem_team_split_2d");
    USH_CHECK_TEAM("shmem_team_split_2d", "parent_team", parent_team);
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID) return -1;
    USH_TEAM_CHECK(parent_team, "shmem_team_split_2d");
    if (xrange <= 0) return -1;
    if (!ush_team_valid_config(xaxis_config, xaxis_mask) ||
        !ush_team_valid_config(yaxis_config, yaxis_mask)) {
        return -1;
    }

    /* (x, y) = (pe mod xrange, pe div xrange). Every parent member takes
     * part in every row's and column's split in the same order, so slot
     * agreement stays collective; each keeps the two teams it belongs to. */
    int n      = parent_team->size;
    int me     = parent_team->my_pe;
    int xr     = xrange < n ? xrange : n;
    int yrange = (n + xr - 1) / xr;
    int rc     = 0;

    for (int y = 0; y < yrange; y++) {
        int          size = (y == yrange - 1) ? n - y * xr : xr;
        shmem_team_t t;
        rc |= ush_team_create("shmem_team_split_2d", parent_team, y * xr, 1, size, xaxis_config,
                              xaxis_mask, &t);
        if (me / xr == y) *xaxis_team = t;
    }
    for (int x = 0; x < xr; x++) {
        int          size = (n - x + xr - 1) / xr;
        shmem_team_t t;
        rc |= ush_team_create("shmem_team_split_2d", parent_team, x, xr, size, yaxis_config,
                              yaxis_mask, &t);
        if (me % xr == x) *yaxis_team = t;
    }
    return rc ? -1 : 0;
}

USH_API(int, shmem_team_my_pe)(shmem_team_t team)
{
    USH_CHECK_INIT("shmem_team_my_pe");
    USH_CHECK_TEAM("shmem_team_my_pe", "team", team);
    return team == SHMEM_TEAM_INVALID ? -1 : team->my_pe;
}

USH_API(int, shmem_team_n_pes)(shmem_team_t team)
{
    USH_CHECK_INIT("shmem_team_n_pes");
    USH_CHECK_TEAM("shmem_team_n_pes", "team", team);
    return team == SHMEM_TEAM_INVALID ? -1 : team->size;
}

USH_API(int, shmem_team_get_config)(shmem_team_t team, long config_mask,
                                    shmem_team_config_t *config)
{
    USH_CHECK_INIT("shmem_team_get_config");
    USH_CHECK_TEAM("shmem_team_get_config", "team", team);
    if (team == SHMEM_TEAM_INVALID || !config) return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = team->config.num_contexts;
    return 0;
}

USH_API(int, shmem_team_translate_pe)(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    USH_CHECK_INIT("shmem_team_translate_pe");
    /* A bad src_pe returns -1 (the spec's answer); a stale handle is not
     * SHMEM_TEAM_INVALID and has no defined answer, so it stops the job. */
    USH_CHECK_TEAM("shmem_team_translate_pe", "src_team", src_team);
    USH_CHECK_TEAM("shmem_team_translate_pe", "dest_team", dest_team);
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID || src_pe < 0 ||
        src_pe >= src_team->size) {
        return -1;
    }
    int world = ush_team_world_pe(src_team, src_pe);
    int delta = world - dest_team->start;
    if (dest_team->size == 1) return delta == 0 ? 0 : -1;
    if (delta % dest_team->stride) return -1;
    int pe = delta / dest_team->stride;
    return pe >= 0 && pe < dest_team->size ? pe : -1;
}

void ush_team_check(struct ush_team *team, const char *routine, long root, long count)
{
    ush_coll_set_t  set  = ush_team_set(team);
    ush_coll_call_t call = { routine, root, count, 0, 0 };
    ush_coll_check(USH_COLL_CHECK_TEAM(team->slot), &set, &call);
}

USH_API(int, shmem_team_sync)(shmem_team_t team)
{
    USH_PROF_SCOPE("shmem_team_sync");
    USH_CHECK_INIT("shmem_team_sync");
    ush_hang_enter_coll("shmem_team_sync");
    USH_CHECK_TEAM("shmem_team_sync", "team", team);
    if (team == SHMEM_TEAM_INVALID) return -1;
    USH_TEAM_CHECK(team, "shmem_team_sync");
    ush_team_sync(team);
    return 0;
}

USH_API(void, shmem_team_destroy)(shmem_team_t team)
{
    USH_PROF_SCOPE("shmem_team_destroy");
    USH_CHECK_INIT("shmem_team_destroy");
    ush_hang_enter_coll("shmem_team_destroy");
    USH_CHECK_TEAM("shmem_team_destroy", "team", team);
    if (team == SHMEM_TEAM_INVALID) return;
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED) {
        ush_fatal("shmem_team_destroy",
                  "SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED cannot be destroyed");
    }
    USH_TEAM_CHECK(team, "shmem_team_destroy");
    /* Every member has finished with the team before its slot is cleared
     * (a free slot's memory is zero) and handed back. */
    ush_quiet(SHMEM_CTX_DEFAULT);
    ush_team_sync(team);
    memset(team->sync, 0, USH_TEAM_SYNC_WORDS * sizeof(uint64_t));
    memset(team->scratch, 0, USH_TEAM_SCRATCH);
    ush_coll_seq_drop(team->sync, USH_TEAM_SYNC_WORDS);
    ush_team_free |= UINT64_C(1) << team->slot;
    team->alive = 0; /* the entry stays, so later use of the handle is caught */
}

USH_API(void *, shmem_team_ptr)(shmem_team_t team, const void *dest, int pe)
{
    USH_CHECK_INIT("shmem_team_ptr");
    USH_CHECK_TEAM("shmem_team_ptr", "team", team);
    if (team == SHMEM_TEAM_INVALID) return NULL;
    if (pe < 0 || pe >= team->size) {
        ush_fatal("shmem_team_ptr", "pe %d is out of range: the team has %d PEs (0 to %d)", pe,
                  team->size, team->size - 1);
    }
    return ush_ptr(dest, ush_team_world_pe(team, pe));
}

/* SOS's shmemx_ names of these team routines (USHMEM_X_LIST_TEAM of
 * <shmemx.h>; its context routines are in ctx.c). */
USH_SHMEMX_ALIAS(team_my_pe)
USH_SHMEMX_ALIAS(team_n_pes)
USH_SHMEMX_ALIAS(team_translate_pe)
USH_SHMEMX_ALIAS(team_split_strided)
USH_SHMEMX_ALIAS(team_split_2d)
USH_SHMEMX_ALIAS(team_sync)
