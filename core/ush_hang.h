/*
 * Where each PE is, for hang reports.
 *
 * Each PE keeps one record saying which routine it is in, how many
 * collectives it has called, whether it waits, for how long and for which
 * PE. Its waits write it only once they have lasted a while (the wait
 * beacon's threshold), so a job that does not hang pays two thread-local
 * stores per blocking call. The record is read by others:
 *   - by peers, in the symmetric heap: SHMEM_HANG_REPORT=SECONDS makes a PE
 *     whose wait has made no progress for that long read every PE's record
 *     and print the report (hang.c);
 *   - by oshrun, in a file of the job's own directory that every PE maps
 *     (USHMEM_STATE_FILE, one record per rank): at --timeout and on SIGURG.
 * The report itself (hang_report.c) is built into the library and oshrun
 * alike: it groups the PEs and follows who waits for whom to the PE the
 * others wait for.
 */
#ifndef USH_HANG_H
#define USH_HANG_H

#include <stdint.h>
#include <stdio.h>

#define USH_HANG_NAME 40

typedef enum {
    USH_HANG_IDLE = 0, /* not in a blocking routine (or never was) */
    USH_HANG_WAITING,  /* in a wait of `routine` */
    USH_HANG_INSIDE,   /* in `routine`, not (yet) in a long wait */
    USH_HANG_GONE      /* exited (set by the reader that knows it) */
} ush_hang_state_t;

#define USH_HANG_F_COLL     1 /* routine is a collective: call counts it */
#define USH_HANG_F_REPORTED 2 /* this PE printed a report (SHMEM_HANG_REPORT) */

/* 64 bytes, one line; seq is odd while its PE writes it. */
typedef struct ush_hang_rec {
    uint32_t seq;
    int32_t  waits_for; /* world PE this PE waits for; -1: none known */
    uint16_t state;     /* ush_hang_state_t */
    uint16_t flags;     /* USH_HANG_F_* */
    uint32_t waited_ms; /* how long the current wait has lasted */
    uint64_t call;      /* collectives this PE has called, the current one included */
    char     routine[USH_HANG_NAME];
} ush_hang_rec_t;

_Static_assert(sizeof(ush_hang_rec_t) == 64, "a hang record is one cache line");

/* The environment variable through which oshrun names its state file. */
#define USH_HANG_STATE_FILE_ENV "USHMEM_STATE_FILE"

/* A consistent copy of *src (which its PE may be writing): 0, or -1 when
 * it kept changing. */
int ush_hang_rec_read(ush_hang_rec_t *dst, const volatile ush_hang_rec_t *src);

/* The report on recs[0..n-1] to f, every line starting with prefix: one
 * line that names what the PEs wait for and the PE it comes down to, then
 * one line per group of PEs in the same state. why says what asked for it
 * ("the job ran longer than --timeout 5 s"). */
void ush_hang_report_write(FILE *f, const char *prefix, const char *why,
                           const ush_hang_rec_t *recs, int n);

/* ---- the library's side (hang.c) ---------------------------------------- */

/* The routine this thread is in, set at the entry of blocking routines;
 * a collective also counts itself. */
extern __thread const char *ush_hang_routine;
extern __thread int         ush_hang_peer; /* the PE a wait is for, or -1 */
extern __thread int         ush_hang_in_coll;
extern uint64_t             ush_hang_calls;

static inline void ush_hang_enter(const char *routine)
{
    ush_hang_routine = routine;
    ush_hang_in_coll = 0;
}

static inline void ush_hang_enter_coll(const char *routine)
{
    ush_hang_routine = routine;
    ush_hang_in_coll = 1;
    __atomic_add_fetch(&ush_hang_calls, 1, __ATOMIC_RELAXED);
}

/* shmem_init: the symmetric record, and the state file under oshrun.
 * shmem_finalize, before the heap goes: the symmetric record is
 * forgotten, and the file says "waiting in shmem_finalize" (the
 * launcher's fence, which needs every PE, comes next); after that fence,
 * _fini_file unmaps the file. */
void ush_hang_init(void);
void ush_hang_fini(void);
void ush_hang_fini_file(void);

/* Publish "in routine, waiting waited_ms" (state USH_HANG_WAITING), or
 * that the wait is over (USH_HANG_INSIDE); USH_HANG_IDLE at finalize's
 * end. Called by long waits only (wait.c), and by finalize. */
void ush_hang_publish(ush_hang_state_t state, uint32_t waited_ms);

#endif
