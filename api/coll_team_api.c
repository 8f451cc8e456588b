/*
 * The team-based collectives (1.5/1.6): broadcast, collect, fcollect,
 * alltoall(s) in typed and mem forms, the *_reduce family and the 1.6
 * prefix sums. Each returns 0, or -1 for SHMEM_TEAM_INVALID.
 *
 * They run the algorithms of collectives/ on one bank of the team's sync
 * words and on its scratch. Consecutive calls use consecutive banks, so a
 * member that is ahead by fewer than USH_TEAM_BANKS calls signals only into
 * words its slower peers are not using; before a bank comes round again
 * every member must have finished with it (its counts are then all zero).
 * A team barrier makes sure of it, unless the calls since the bank's last
 * use include one that no member leaves before all have entered it
 * (collect, fcollect, alltoall, reduce; not broadcast or scan), or a team
 * barrier: then every member finished the calls before that one. So a
 * loop of such calls runs no barrier at all, and a loop of broadcasts one
 * every USH_TEAM_BANKS calls. Back-to-back collectives need no barrier of
 * the user's, and a late member only delays those who wait for it.
 */
#include "ush_check.h"
#include "ush_profile.h"
#include "ush_profiling.h"
#include "ush_team.h"
#include "collectives/ush_coll.h"
#include "core/ush.h"
#include "core/ush_rma.h"

#include <string.h>


/* Builds the sync state, or returns -1 for an invalid team. Under
 * SHMEM_DEBUG the members first compare their calls (call->routine is
 * routine). */
static int team_begin(const ush_coll_call_t *call, shmem_team_t team, ush_coll_sync_t *s)
{
    const char *routine = call->routine;
    USH_CHECK_INIT(routine);
    ush_hang_enter_coll(routine);
    USH_CHECK_TEAM(routine, "team", team);
    if (team == SHMEM_TEAM_INVALID) {
        if (ush_g.env.debug) ush_warn(routine, "called with SHMEM_TEAM_INVALID; nothing done");
        return -1;
    }
    if (team->my_pe < 0) {
        ush_fatal(routine, "this PE is not a member of the team it was given");
    }
    if (USH_UNLIKELY(ush_g.env.debug)) {
        ush_coll_set_t set = ush_team_set(team);
        ush_coll_check(USH_COLL_CHECK_TEAM(team->slot), &set, call);
    }
    uint64_t bank = team->coll_calls % USH_TEAM_BANKS;
    /* The bank's last use was call coll_calls - USH_TEAM_BANKS. */
    if (bank == 0 && team->coll_calls > 0 &&
        ush_team_done_by_all[team->slot] + USH_TEAM_BANKS <= team->coll_calls)
        ush_team_sync(team);
    *s = (ush_coll_sync_t){ .set = ush_team_set(team),
                            .w = team->sync + USH_COLL_BARRIER_ROUNDS + bank * USH_COLL_W_TEAM,
                            .lay = &ush_coll_layout_team,
                            .scratch = team->scratch, .scratch_bytes = USH_TEAM_SCRATCH };
    return 0;
}

/* all_in: no member returns from this call before every member entered
 * it, so every member has finished the calls before it. */
static int team_end(shmem_team_t team, int all_in)
{
    if (all_in) ush_team_done_by_all[team->slot] = team->coll_calls;
    team->coll_calls++;
    return 0;
}

static int team_bcast(const char *routine, shmem_team_t team, void *dest, const void *source,
                      size_t nelems, size_t esize, int PE_root)
{
    USH_PROF_SCOPE(routine);
    ush_coll_sync_t s;
    size_t          bytes;
    ush_coll_call_t call = { routine, PE_root, (long)nelems, 0, 0 };
    if (team_begin(&call, team, &s)) return -1;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    USH_PROF_BYTES(bytes);
    if (PE_root < 0 || PE_root >= team->size) {
        ush_fatal(routine, "PE_root %d is out of range: the team has %d PEs (0 to %d)", PE_root,
                  team->size, team->size - 1);
    }
    USH_CHECK_SYMM(routine, "dest", dest, bytes);
    if (bytes == 0) return 0; /* every member has nothing to do (buffers may be NULL) */
    /* Team broadcast also fills the root's dest (the specification's team
     * broadcast page). */
    if (team->my_pe == PE_root && dest != source) memmove(dest, source, bytes);
    ush_coll_bcast(&s, dest, source, bytes, PE_root);
    return team_end(team, 0);
}

static int team_collect(const char *routine, int fixed, shmem_team_t team, void *dest,
                        const void *source, size_t nelems, size_t esize)
{
    USH_PROF_SCOPE(routine);
    ush_coll_sync_t s;
    size_t          bytes, total;
    /* collect's members may give different counts */
    ush_coll_call_t call = { routine, -1, fixed ? (long)nelems : -1, 0, 0 };
    if (team_begin(&call, team, &s)) return -1;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    USH_PROF_BYTES(bytes);
    if (fixed) {
        USH_CHECK_NBYTES(routine, "nelems (times the team size)", nelems,
                         esize * (size_t)team->size, &total);
        USH_CHECK_SYMM(routine, "dest", dest, total);
        if (bytes == 0) return 0;
        ush_coll_fcollect(&s, dest, source, bytes);
    } else {
        ush_coll_collect(&s, dest, source, bytes);
    }
    return team_end(team, 1);
}

static int team_alltoall(const char *routine, shmem_team_t team, void *dest, const void *source,
                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t esize)
{
    USH_PROF_SCOPE(routine);
    ush_coll_sync_t s;
    ush_coll_call_t call = { routine, -1, (long)nelems, dst, sst };
    if (team_begin(&call, team, &s)) return -1;
    if (dst < 1 || sst < 1) ush_fatal(routine, "dst (%td) and sst (%td) must be at least 1", dst, sst);
    USH_PROF_BYTES(nelems * esize * (size_t)team->size);
    if (nelems) {
        /* dest holds team-size blocks of nelems elements dst apart. */
        size_t blocks, span;
        USH_CHECK_NBYTES(routine, "nelems (times the team size)", nelems, team->size, &blocks);
        USH_CHECK_NBYTES(routine, "nelems (times the team size and dst)", blocks - 1,
                         (size_t)dst, &span);
        USH_CHECK_NBYTES(routine, "nelems (times the team size, dst and element size)",
                         span + 1, esize, &span);
        USH_CHECK_SYMM(routine, "dest", dest, span);
    }
    if (nelems == 0) return 0;
    ush_coll_alltoall(&s, dest, source, dst, sst, nelems, esize);
    return team_end(team, 1);
}

static int team_reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                       size_t nreduce, size_t esize, ush_coll_op_fn_t op)
{
    USH_PROF_SCOPE(routine);
    ush_coll_sync_t s;
    size_t          bytes;
    ush_coll_call_t call = { routine, -1, (long)nreduce, 0, 0 };
    if (team_begin(&call, team, &s)) return -1;
    USH_CHECK_NBYTES(routine, "nreduce", nreduce, esize, &bytes);
    USH_PROF_BYTES(bytes);
    USH_CHECK_SYMM(routine, "dest", dest, bytes);
    if (bytes == 0) return 0;
    ush_coll_reduce(&s, dest, source, nreduce, esize, op);
    return team_end(team, 1);
}

static int team_scan(const char *routine, shmem_team_t team, void *dest, const void *source,
                     size_t nelems, size_t esize, ush_coll_op_fn_t sum, int exclusive)
{
    USH_PROF_SCOPE(routine);
    ush_coll_sync_t s;
    size_t          bytes;
    ush_coll_call_t call = { routine, -1, (long)nelems, 0, 0 };
    if (team_begin(&call, team, &s)) return -1;
    USH_CHECK_NBYTES(routine, "nelems", nelems, esize, &bytes);
    USH_PROF_BYTES(bytes);
    USH_CHECK_SYMM(routine, "dest", dest, bytes);
    if (bytes == 0) return 0;
    ush_coll_scan(&s, dest, source, nelems, esize, sum, exclusive);
    return team_end(team, 0);
}

/* ---- broadcast, collect, fcollect, alltoall, alltoalls ----------------- */

#define USH_TEAM_COLL_(T, N)                                                                 \
    USH_API(int, shmem_##N##_broadcast)(shmem_team_t team, T *dest, const T *source,         \
                                        size_t nelems, int PE_root)                          \
    {                                                                                        \
        return team_bcast("shmem_" #N "_broadcast", team, dest, source, nelems, sizeof(T),   \
                          PE_root);                                                          \
    }                                                                                        \
    USH_API(int, shmem_##N##_collect)(shmem_team_t team, T *dest, const T *source,           \
                                      size_t nelems)                                         \
    {                                                                                        \
        return team_collect("shmem_" #N "_collect", 0, team, dest, source,                   \
                            nelems, sizeof(T));                                              \
    }                                                                                        \
    USH_API(int, shmem_##N##_fcollect)(shmem_team_t team, T *dest, const T *source,          \
                                       size_t nelems)                                        \
    {                                                                                        \
        return team_collect("shmem_" #N "_fcollect", 1, team, dest, source,                  \
                            nelems, sizeof(T));                                              \
    }                                                                                        \
    USH_API(int, shmem_##N##_alltoall)(shmem_team_t team, T *dest, const T *source,          \
                                       size_t nelems)                                        \
    {                                                                                        \
        return team_alltoall("shmem_" #N "_alltoall", team, dest, source, 1, 1, nelems,      \
                             sizeof(T));                                                     \
    }                                                                                        \
    USH_API(int, shmem_##N##_alltoalls)(shmem_team_t team, T *dest, const T *source,         \
                                        ptrdiff_t dst, ptrdiff_t sst, size_t nelems)         \
    {                                                                                        \
        return team_alltoall("shmem_" #N "_alltoalls", team, dest, source, dst, sst, nelems, \
                             sizeof(T));                                                     \
    }
USHMEM_RMA_TYPES(USH_TEAM_COLL_)

USH_API(int, shmem_broadcastmem)(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems, int PE_root)
{
    return team_bcast("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
}

USH_API(int, shmem_collectmem)(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_collect("shmem_collectmem", 0, team, dest, source, nelems, 1);
}

USH_API(int, shmem_fcollectmem)(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_collect("shmem_fcollectmem", 1, team, dest, source, nelems, 1);
}

USH_API(int, shmem_alltoallmem)(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_alltoall("shmem_alltoallmem", team, dest, source, 1, 1, nelems, 1);
}

USH_API(int, shmem_alltoallsmem)(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                                 ptrdiff_t sst, size_t nelems)
{
    return team_alltoall("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1);
}

/* ---- reductions and prefix sums ----------------------------------------- */

#define USH_TEAM_REDUCE_(T, N, OP)                                                           \
    USH_API(int, shmem_##N##_##OP##_reduce)(shmem_team_t team, T *dest, const T *source,     \
                                            size_t nreduce)                                  \
    {                                                                                        \
        return team_reduce("shmem_" #N "_" #OP "_reduce", team, dest, source, nreduce,       \
                           sizeof(T), ush_coll_op_##OP##_##N);                               \
    }
#define USH_TEAM_BIT_(T, N)    USH_TEAM_REDUCE_(T, N, and) USH_TEAM_REDUCE_(T, N, or) USH_TEAM_REDUCE_(T, N, xor)
#define USH_TEAM_MINMAX_(T, N) USH_TEAM_REDUCE_(T, N, max) USH_TEAM_REDUCE_(T, N, min)
#define USH_TEAM_ARITH_(T, N)                                                                \
    USH_TEAM_REDUCE_(T, N, sum)                                                              \
    USH_TEAM_REDUCE_(T, N, prod)                                                             \
    USH_API(int, shmem_##N##_sum_inscan)(shmem_team_t team, T *dest, const T *source,        \
                                         size_t nelems)                                      \
    {                                                                                        \
        return team_scan("shmem_" #N "_sum_inscan", team, dest, source, nelems, sizeof(T),   \
                         ush_coll_op_sum_##N, 0);                                            \
    }                                                                                        \
    USH_API(int, shmem_##N##_sum_exscan)(shmem_team_t team, T *dest, const T *source,        \
                                         size_t nelems)                                      \
    {                                                                                        \
        return team_scan("shmem_" #N "_sum_exscan", team, dest, source, nelems, sizeof(T),   \
                         ush_coll_op_sum_##N, 1);                                            \
    }
USHMEM_REDUCE_BIT_TYPES(USH_TEAM_BIT_)
USHMEM_REDUCE_MINMAX_TYPES(USH_TEAM_MINMAX_)
USHMEM_REDUCE_ARITH_TYPES(USH_TEAM_ARITH_)

/* SOS's shmemx_ names of the team-based collectives and scans (<shmemx.h>). */
USHMEM_X_LIST_COLL
