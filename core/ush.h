/*
 * Core state of one PE, read by every layer above the transport.
 */
#ifndef USH_H
#define USH_H

#include <shmem.h>
#include <pthread.h>
#include <stdarg.h>
#include "ush_env.h"
#include "ush_heap.h"

struct ush_tp_ctx;
struct ush_team;

/* What a shmem_ctx_t points to. PE numbers given with a context count
 * members of its team, world PEs pe_start + pe * pe_stride (0 and 1 for
 * the world), copied from the team since teams never change. Created
 * contexts live in one table (ctx.c), 64 bytes each, so a handle is
 * checked without reading memory that is not a context (ush_check.h). */
struct ush_ctx {
    struct ush_tp_ctx *tp;        /* transport state: worker, endpoints, rkeys */
    long               options;   /* SHMEM_CTX_* options it was created with */
    struct ush_team   *team;      /* the team it was created on */
    int                pe_start;
    int                pe_stride;
    int                pe_size;   /* 0 once destroyed */
    unsigned           state;     /* USH_CTX_LIVE, USH_CTX_DESTROYED, or 0: never used */
    struct ush_ctx    *next, *prev; /* live: created contexts; destroyed: slots to reuse */
} __attribute__((aligned(64)));

#define USH_CTX_LIVE      0x6c697665u /* "live" */
#define USH_CTX_DESTROYED 0x64656164u /* "dead" */

/* The table of created contexts, [base, base + bytes): mapped by the first
 * shmem_init (bytes is 0 before) and kept until exit. A slot is reused
 * only after every other one has been used, so a stale handle is caught
 * for as long as possible. Not static data: a program linked statically
 * would copy it into its shared static segment. */
#define USH_CTX_MAX 65536
struct ush_ctx_table {
    struct ush_ctx *base;
    size_t          bytes;
};
extern struct ush_ctx_table ush_ctx_table __attribute__((visibility("hidden")));
void ush_ctx_table_init(void);

/* The world PE of member pe of ctx's team. */
static inline int ush_ctx_world_pe(const struct ush_ctx *ctx, int pe)
{
    return ctx->pe_start + pe * ctx->pe_stride;
}

typedef struct {
    int         initialized;    /* between init and finalize */
    int         init_count;     /* shmem_init calls not yet matched by finalize */
    int         finalized;      /* torn down, and not initialised since */
    int         my_pe;
    int         n_pes;
    int         thread_level;   /* level provided */
    int         local_rank;     /* among PEs on this node */
    int         local_size;
    int         progress_thread; /* a thread serves peers' UCX requests */
    int         crowded;        /* some node runs more PEs than its PEs' cores (agreed) */
    ush_env_t   env;
    ush_heap_t *heap;
} ush_state_t;

extern ush_state_t ush_g;

/* Whether this node runs more PEs than it has hardware threads (npus: as
 * hwloc counts them, 0 when it could not say). */
static inline int ush_node_oversubscribed(int npus)
{
    return npus > 0 && ush_g.local_size > npus;
}

extern struct ush_ctx ush_ctx_default;

/* A created context (ctx.c), for the routine of that name: on the team at
 * team, whose members are world PEs pe_start + i * pe_stride (i < pe_size),
 * with SHMEM_CTX_* options. 0 and *ctx set, or -1 after a warning; the
 * caller checked its arguments. */
int ush_ctx_create(const char *routine, struct ush_team *team, int pe_start, int pe_stride,
                   int pe_size, long options, shmem_ctx_t *ctx);
/* Completes c's operations, closes its transport and marks its slot
 * destroyed, for reuse once every other slot has been used. */
void ush_ctx_free(struct ush_ctx *c);
/* Complete and free every context the program created and did not
 * destroy (at finalize). */
void ush_ctx_destroy_all(void);
/* Progress the workers of created contexts this thread may drive: a
 * waiting PE must keep its own contexts' operations moving (an endpoint
 * still wiring up, a queued send), or a peer waiting for them, while it
 * waits for that peer, never sees them. */
void ush_ctx_progress_all(void);

/* Symmetric memory set-up (symm.c): the heap and static data segments,
 * the allocator over the heap, and the internal symmetric objects. */
void ush_symm_init(void);
void ush_symm_fini(void);
/* Symmetric memory for the library itself, from the library's part of the
 * heap segment (USH_SYMM_LIB_BYTES, ush_symm.h), never the user's: taken
 * in the same order on every PE (so the same offsets everywhere) and kept
 * until finalize. 64-byte aligned. */
void *ush_symm_internal_alloc(size_t size);

/* The start-up agreement (agree.c): _init with the other internal objects,
 * before wire-up; ush_agree at the end of shmem_init, whose closing
 * barrier it is (no PE returns from it before every PE has called it).
 * Sets ush_tp_thread_job, ush_tp_all_mapped and ush_tp_local_mapped
 * alike on every PE. */
void ush_agree_init(void);
void ush_agree(void);

/* The Fortran routine this thread is in (fortran/ush_fortran.h sets it
 * around the C routine it runs), so a message names what the program
 * called: "SHMEM_PUT8 (Fortran; runs shmem_put64): ...". NULL from C. */
extern __thread const char *ush_f_routine;

/* state.c: "ushmem: PE <n>: <routine>: <message>" on stderr, then the whole job
 * ends with status 1 (through PMIx, so no PE is left waiting). */
void ush_fatal(const char *routine, const char *fmt, ...)
    __attribute__((noreturn, cold, format(printf, 2, 3)));
/* Same prefix, no exit. */
void ush_warn(const char *routine, const char *fmt, ...)
    __attribute__((cold, format(printf, 2, 3)));

#endif
