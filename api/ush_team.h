/*
 * Teams: an ordered, strided subset of the world's PEs, with the symmetric
 * state its collectives need.
 *
 * Each team holds one slot of a pool allocated from the symmetric heap at
 * init, the same on every PE: slot i's memory on PE x serves whichever team
 * containing x holds slot i. A split agrees on a slot that is free on every
 * member, so teams that share a PE never share a slot, and no allocation
 * (which would have to be collective over the whole job) happens later.
 */
#ifndef USH_TEAM_H
#define USH_TEAM_H

#include "ush_check.h"
#include "collectives/ush_coll.h"
#include "core/ush.h"

#define USH_TEAM_MAX         64          /* teams alive at once, predefined ones included */
/* Team collectives rotate over banks of sync words, so a member up to
 * USH_TEAM_BANKS - 1 calls ahead never signals into words a slower member
 * still uses; before a bank comes round again, a team barrier bounds the
 * lead, unless a later call already proved that every member is past the
 * bank's last use (coll_team_api.c). */
#define USH_TEAM_BANKS       4
#define USH_TEAM_SYNC_WORDS  (USH_COLL_BARRIER_ROUNDS + USH_TEAM_BANKS * USH_COLL_W_TEAM)
#define USH_TEAM_SCRATCH     (16u << 10) /* bytes of symmetric scratch per team */
/* Handles of split teams come from a private table, handed out round-robin,
 * never from malloc: a destroyed handle stays recognisable (its entry is
 * marked dead, not freed) until USH_TEAM_HANDLES - USH_TEAM_MAX further
 * teams have been created, and a check never dereferences a pointer that
 * is not in the table. */
#define USH_TEAM_HANDLES     256

/* What a shmem_team_t points to. Members are world PEs start,
 * start + stride, ..., (size of them). */
struct ush_team {
    int                 start;
    int                 stride;
    int                 size;
    int                 my_pe;        /* this PE's number in the team */
    int                 slot;         /* in the pool */
    /* Symmetric, USH_TEAM_SYNC_WORDS words, zero when the slot is taken.
     * The first USH_COLL_BARRIER_ROUNDS are the team barrier's flags; then
     * USH_TEAM_BANKS banks of USH_COLL_W_TEAM words for the collectives. */
    uint64_t           *sync;
    uint64_t            barrier_seq;  /* barriers run on sync[] so far */
    uint64_t            coll_calls;   /* collectives run on the team so far */
    void               *scratch;      /* symmetric, USH_TEAM_SCRATCH bytes */
    shmem_team_config_t config;
    long                config_mask;
    int                 alive;        /* 0 once destroyed (or before shmem_init) */
};

/* Programs compiled against <shmem.h> hold copies of SHMEM_TEAM_WORLD's
 * and SHMEM_TEAM_SHARED's objects (copy relocations, sized when the
 * program was linked), and the library then uses those copies: a struct
 * that grew would run past them into the program's own data. So its size
 * is fixed; new per-team state goes into tables indexed by slot. */
#define USH_TEAM_ABI_BYTES 80

/* Per team slot: how many of the team's collectives every member is known
 * to have finished (coll_team_api.c says how that is known). */
extern uint64_t ush_team_done_by_all[USH_TEAM_MAX];

/* Set up the pool and SHMEM_TEAM_WORLD; then, once the job agreed
 * whether node-local memory maps (ush_agree), SHMEM_TEAM_SHARED.
 * shmem_init. */
void ush_team_init(void);
void ush_team_shared_init(void);

/* World PE of team member pe (0 <= pe < team->size). */
static inline int ush_team_world_pe(const struct ush_team *team, int pe)
{
    return team->start + pe * team->stride;
}

static inline ush_coll_set_t ush_team_set(const struct ush_team *team)
{
    return (ush_coll_set_t){ .start = team->start, .stride = team->stride,
                             .size = team->size, .me = team->my_pe };
}

/* team is SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a live split team. */
int ush_team_handle_ok(const struct ush_team *team);
void ush_team_fail_handle(const char *routine, const char *arg, const struct ush_team *team)
    __attribute__((noreturn, cold));

/* Always on: a stale or stray handle would read freed state and index the
 * slot pool with garbage. SHMEM_TEAM_INVALID passes (the spec defines what
 * each routine does with it). */
#define USH_CHECK_TEAM(routine, arg, team)                                    \
    do {                                                                      \
        if (USH_UNLIKELY((team) != SHMEM_TEAM_INVALID && !ush_team_handle_ok(team))) \
            ush_team_fail_handle(routine, arg, team);                         \
    } while (0)

/* Barrier over the team's members (no quiet). */
void ush_team_sync(struct ush_team *team);

/* SHMEM_DEBUG=1: the members of a collective over team compare their calls
 * (collectives/check.c); count and root -1 where not compared. */
void ush_team_check(struct ush_team *team, const char *routine, long root, long count);
#define USH_TEAM_CHECK(team, routine)                                         \
    do {                                                                      \
        if (USH_UNLIKELY(ush_g.env.debug)) ush_team_check(team, routine, -1, -1); \
    } while (0)

#endif
