/*
 * The shmemx_ names of Sandia OpenSHMEM whose signature differs from the
 * standard routine's, as thin wrappers over it (see <shmemx.h> and
 * docs/compatibility.md). The names with the standard signature are plain
 * aliases, defined next to their routines (USH_SHMEMX_ALIAS).
 *
 * Each wrapper calls pshmem_X, as the aliases run pshmem_X's code, and is
 * weak like every exported name, so a program's own definition wins.
 */
#include "ush_profiling.h"
#include "core/ush.h"

#define USH_SHMEMX_WRAPPER __attribute__((weak))

USH_SHMEMX_WRAPPER void shmemx_init_thread(int requested, int *provided)
{
    /* Never fails: a library that cannot start stops the job itself. */
    (void)pshmem_init_thread(requested, provided);
}

/* Fills every member SOS's configuration had (num_contexts); an invalid
 * team leaves *config as it was, the standard routine's answer. */
USH_SHMEMX_WRAPPER void shmemx_team_get_config(shmemx_team_t team, shmemx_team_config_t *config)
{
    (void)pshmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, config);
}

USH_SHMEMX_WRAPPER int shmemx_team_destroy(shmemx_team_t team)
{
    pshmem_team_destroy(team);
    return 0;
}

/* The signed and/or/xor reductions as their unsigned counterparts
 * (shmemx_int_and_reduce runs shmem_uint_and_reduce): reading an int object
 * through an unsigned int lvalue is allowed, and a bitwise result has the
 * same bits either way. T is written `unsigned T` to get the counterpart,
 * which every type of the list (short, int, long, long long) allows. */
#define USH_SHMEMX_SIGNED_BIT_OP_(T, N, OP)                                                   \
    USH_SHMEMX_WRAPPER int shmemx_##N##OP##_reduce(shmemx_team_t team, T *dest,               \
                                                   const T *source, size_t nreduce)           \
    {                                                                                         \
        return pshmem_u##N##OP##_reduce(team, (unsigned T *)dest, (const unsigned T *)source, \
                                        nreduce);                                             \
    }
#define USH_SHMEMX_SIGNED_BIT_(T, N)                                                          \
    USH_SHMEMX_SIGNED_BIT_OP_(T, N, _and)                                                     \
    USH_SHMEMX_SIGNED_BIT_OP_(T, N, _or)                                                      \
    USH_SHMEMX_SIGNED_BIT_OP_(T, N, _xor)
USHMEM_TO_ALL_BIT_TYPES(USH_SHMEMX_SIGNED_BIT_)
