/*
 * The job profile (SHMEM_PROFILE=1): every PE counts, per routine, the
 * calls, the bytes and the time spent inside the library (waits included),
 * and the bytes its one-sided routines moved to or from each peer. At the
 * last shmem_finalize PE 0 gathers every PE's counts and writes one report
 * (profile.c says what is in it).
 *
 * A routine opens a scope with USH_PROF_SCOPE(routine) at its top; the
 * scope closes when the routine returns (a cleanup attribute), so every
 * return path is timed. With profiling off a scope costs a load of
 * ush_prof_on and a never-taken branch at each end: the fast paths keep
 * their speed (bench/profile_cost.sh measures it). Scopes nest: only the
 * outermost one of a thread counts, so a routine that calls another public
 * routine is counted once, under its own name.
 */
#ifndef USH_PROFILE_H
#define USH_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "ush_check.h" /* USH_UNLIKELY */

struct ush_prof_slot;

/* Set by ush_prof_init from SHMEM_PROFILE; read on every call. */
extern int ush_prof_on __attribute__((visibility("hidden")));

/* The routine's counters, its call counted and its clock started; NULL
 * inside another counted routine. */
struct ush_prof_slot *ush_prof_enter(const char *routine);
void ush_prof_leave(struct ush_prof_slot *slot);
void ush_prof_add_bytes(struct ush_prof_slot *slot, size_t bytes);
void ush_prof_add_peer(struct ush_prof_slot *slot, size_t bytes, int world_pe);

/* A scope is one pointer, NULL when not counted (profiling off, or a
 * nested call): the start time lives with the thread (only its outermost
 * scope counts), so nothing of the scope needs memory. */
static inline void ush_prof_scope_end(struct ush_prof_slot **slot)
{
    if (USH_UNLIKELY(*slot != NULL)) ush_prof_leave(*slot);
}

#ifndef USH_PROF_NONE
/* Open the scope of `routine` (a string literal: its address is the key). */
#define USH_PROF_SCOPE(routine)                                                    \
    struct ush_prof_slot *ush_prof_scope __attribute__((cleanup(ush_prof_scope_end))) = \
        USH_UNLIKELY(ush_prof_on) ? ush_prof_enter(routine) : NULL

/* Bytes of the data this call names (see profile.c for what counts). */
#define USH_PROF_BYTES(bytes)                                                 \
    do {                                                                      \
        if (USH_UNLIKELY(ush_prof_scope != NULL))                             \
            ush_prof_add_bytes(ush_prof_scope, (bytes));                      \
    } while (0)

/* The same, moved to or from one peer (its world PE number). */
#define USH_PROF_PEER(bytes, world_pe)                                        \
    do {                                                                      \
        if (USH_UNLIKELY(ush_prof_scope != NULL))                             \
            ush_prof_add_peer(ush_prof_scope, (bytes), (world_pe));           \
    } while (0)
#else
/* Hooks compiled out (USHMEM_PROFILE_HOOKS=OFF): the routines as they
 * would be without a profile, for bench/profile_cost.sh. SHMEM_PROFILE=1
 * then writes a report of start-up and finalize only. */
#define USH_PROF_SCOPE(routine)        ((void)0)
#define USH_PROF_BYTES(bytes)          ((void)0)
#define USH_PROF_PEER(bytes, world_pe) ((void)0)
#endif

/* Start counting (shmem_init, once the environment is read); t_start is
 * when shmem_init was entered, so start-up is counted as shmem_init. */
void ush_prof_init(uint64_t t_start);
/* Count the end of start-up (the last step of shmem_init). */
void ush_prof_init_done(void);
/* At the last shmem_finalize, on every PE: gather the counts at PE 0, which
 * writes the report. Collective (a PMIx fence). */
void ush_prof_finalize(uint64_t t_finalize_start);

/* shmem_pcontrol: level 0 pauses counting on this PE, any other resumes
 * it; nothing when the profile is off. */
void ush_prof_control(int level);

uint64_t ush_prof_now(void);

#endif
