/*
 * Teams: an ordered subset of the world's PEs. Today the two predefined
 * teams; team creation and team collectives build on this.
 */
#ifndef USH_TEAM_H
#define USH_TEAM_H

#include "ush.h"

/* What a shmem_team_t points to. Members are world PEs start,
 * start + stride, ..., (size of them). */
struct ush_team {
    int start;
    int stride;
    int size;
    int my_pe;   /* this PE's number in the team, or -1 if not a member */
};

/* Set up SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED; called by shmem_init. */
void ush_team_init(void);

/* World PE of team member pe (0 <= pe < team->size). */
static inline int ush_team_world_pe(const struct ush_team *team, int pe)
{
    return team->start + pe * team->stride;
}

#endif
