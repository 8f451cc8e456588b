/*
 * The job profile (SHMEM_PROFILE=1): every PE counts, per routine, the
 * calls, the bytes and the time spent inside the library (waits included),
 * and the bytes its one-sided routines moved to or from each peer. At the
 * last shmem_finalize PE 0 gathers every PE's counts and writes one report
 * (profile.c says what is in it).
 *
 * A routine opens a scope with USH_PROF_SCOPE(routine) at its top; the
 * scope closes when the routine returns (a cleanup attribute), so every
 * return path is timed. The scope keeps nothing in the routine's frame:
 * each end tests ush_prof_on again, which changes only at shmem_init and
 * shmem_finalize, and the state of the open scope lives with the thread.
 * So with profiling off a scope costs a load and a never-taken branch at
 * each end and holds no register across the routine's calls: the fast
 * paths keep their speed (bench/profile_cost.sh measures it). Scopes
 * nest: only the outermost one of a thread counts, so a routine that
 * calls another public routine is counted once, under its own name.
 */
#ifndef USH_PROFILE_H
#define USH_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "ush_check.h" /* USH_UNLIKELY */

/* Set by ush_prof_init from SHMEM_PROFILE, cleared by ush_prof_finalize;
 * read on every call. shmem_pcontrol pauses the counting, not this. */
extern int ush_prof_on __attribute__((visibility("hidden")));

/* The thread's scope: opened (its call counted and its clock started when
 * it is the outermost and counting is not paused), closed, and the bytes
 * of its call (to or from world PE world_pe, or -1 for no one peer). */
void ush_prof_enter(const char *routine);
void ush_prof_leave(void);
void ush_prof_add(size_t bytes, int world_pe);

static inline void ush_prof_scope_end(const char *unused)
{
    (void)unused;
    if (USH_UNLIKELY(ush_prof_on)) ush_prof_leave();
}

#ifndef USH_PROF_NONE
/* Open the scope of `routine` (a string literal: its address is the key).
 * The variable exists for its cleanup only: nothing reads it. */
#define USH_PROF_SCOPE(routine)                                                     \
    __attribute__((cleanup(ush_prof_scope_end), unused)) const char ush_prof_scope = \
        USH_UNLIKELY(ush_prof_on) ? (ush_prof_enter(routine), 0) : 0

/* Bytes of the data this call names (see profile.c for what counts). */
#define USH_PROF_BYTES(bytes)                                                 \
    do {                                                                      \
        if (USH_UNLIKELY(ush_prof_on)) ush_prof_add((bytes), -1);             \
    } while (0)

/* The same, moved to or from one peer (its world PE number). */
#define USH_PROF_PEER(bytes, world_pe)                                        \
    do {                                                                      \
        if (USH_UNLIKELY(ush_prof_on)) ush_prof_add((bytes), (world_pe));     \
    } while (0)

/* The fastest routines (RMA, atomics, signals) go further: a scope's
 * closing test after their last call keeps that call from being a tail
 * call and holds registers across it, which costs more than the test.
 * Their checking helper fn is written as fn##_do, and this defines fn:
 * with profiling off it is fn##_do itself, behind one never-taken branch;
 * on, the call goes through fn##_prof, out of line, which counts it.
 * params and args are the helper's parameter list and the same names as
 * arguments, both in parentheses; routine is one of the parameters. */
#define USH_PROF_DISPATCH(fn, params, args)                                   \
    static __attribute__((noinline, cold)) void fn##_prof params              \
    {                                                                         \
        ush_prof_enter(routine);                                              \
        fn##_do args;                                                         \
        ush_prof_leave();                                                     \
    }                                                                         \
    static inline __attribute__((always_inline)) void fn params              \
    {                                                                         \
        if (USH_UNLIKELY(ush_prof_on)) {                                      \
            fn##_prof args;                                                   \
        } else {                                                              \
            fn##_do args;                                                     \
        }                                                                     \
    }
/* The same for a helper that returns a value of type type. */
#define USH_PROF_DISPATCH_RET(type, fn, params, args)                         \
    static __attribute__((noinline, cold)) type fn##_prof params              \
    {                                                                         \
        ush_prof_enter(routine);                                              \
        type ush_prof_ret_ = fn##_do args;                                    \
        ush_prof_leave();                                                     \
        return ush_prof_ret_;                                                 \
    }                                                                         \
    static inline __attribute__((always_inline)) type fn params              \
    {                                                                         \
        if (USH_UNLIKELY(ush_prof_on)) return fn##_prof args;                 \
        return fn##_do args;                                                  \
    }
#else
/* Hooks compiled out (USHMEM_PROFILE_HOOKS=OFF): the routines as they
 * would be without a profile, for bench/profile_cost.sh. SHMEM_PROFILE=1
 * then writes a report of start-up and finalize only. */
#define USH_PROF_SCOPE(routine)        ((void)0)
#define USH_PROF_BYTES(bytes)          ((void)0)
#define USH_PROF_PEER(bytes, world_pe) ((void)0)
#define USH_PROF_DISPATCH(fn, params, args)                                   \
    static inline __attribute__((always_inline)) void fn params { fn##_do args; }
#define USH_PROF_DISPATCH_RET(type, fn, params, args)                         \
    static inline __attribute__((always_inline)) type fn params { return fn##_do args; }
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
