/*
 * The predefined teams.
 */
#include "ush_team.h"
#include "ush_check.h"
#include "ush_profiling.h"
#include "ush_rma.h"
#include "ush_symm.h"
#include "transport/ush_tp.h"

struct ush_team ush_team_world;
struct ush_team ush_team_shared;

void ush_team_init(void)
{
    int me = ush_g.my_pe, n = ush_g.n_pes;
    ush_team_world = (struct ush_team){ .start = 0, .stride = 1, .size = n, .my_pe = me };

    /* SHMEM_TEAM_SHARED: the PEs whose heaps this PE maps. A strided team
     * holds them when they are consecutive (the usual block placement);
     * otherwise it is this PE alone, which is always correct. */
    int first = me, last = me;
    while (first > 0 && ush_tp_mapped(first - 1, USH_SEG_HEAP)) first--;
    while (last < n - 1 && ush_tp_mapped(last + 1, USH_SEG_HEAP)) last++;
    ush_team_shared = (struct ush_team){ .start = first, .stride = 1, .size = last - first + 1,
                                         .my_pe = me - first };
}

USH_API(void *, shmem_team_ptr)(shmem_team_t team, const void *dest, int pe)
{
    USH_CHECK_INIT("shmem_team_ptr");
    if (team == SHMEM_TEAM_INVALID) return NULL;
    if (pe < 0 || pe >= team->size) {
        ush_fatal("shmem_team_ptr", "pe %d is out of range: the team has %d PEs (0 to %d)", pe,
                  team->size, team->size - 1);
    }
    return ush_ptr(dest, ush_team_world_pe(team, pe));
}

USH_API(int, shmem_team_my_pe)(shmem_team_t team)
{
    return team == SHMEM_TEAM_INVALID ? -1 : team->my_pe;
}

USH_API(int, shmem_team_n_pes)(shmem_team_t team)
{
    return team == SHMEM_TEAM_INVALID ? -1 : team->size;
}
