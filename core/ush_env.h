/*
 * Configuration: one table of every environment variable ushmem reads.
 * Parsed once at init (ush_env_load); printed by SHMEM_INFO=1.
 *
 * X(field, NAME, type, default, help)
 *   field   member of ush_env_t
 *   NAME    variable name without the SHMEM_ prefix
 *   type    BOOL (0/1, yes/no, on/off, true/false), INT (decimal long),
 *           SIZE (bytes, optional k/m/g/t suffix, powers of 1024),
 *           STRING (a word from a list its user checks), PATH (a file name)
 *   default the value used when the variable is unset, written as the user
 *           would write it
 */
#ifndef USH_ENV_H
#define USH_ENV_H

#include <stddef.h>
#include <stdio.h>

#define USH_ENV_TABLE(X)                                                              \
    X(symmetric_size, SYMMETRIC_SIZE, SIZE, "256M",                                   \
      "Bytes of symmetric heap per PE (k/m/g/t suffixes), all for shmem_malloc & "    \
      "co.: the library's own 12 MiB come on top. SMA_SYMMETRIC_SIZE is read when "    \
      "this is unset.")                                                               \
    X(debug, DEBUG, BOOL, "0",                                                        \
      "Checks that cost time: the members of every collective make the same call "    \
      "(routine, root, count), every PE allocates the same sizes, pSync holds "       \
      "SHMEM_SYNC_VALUE on entry. Cheap checks always run.")                          \
    X(hang_report, HANG_REPORT, INT, "0",                                             \
      "Seconds: a PE whose wait has made no progress for that long prints where "     \
      "every PE is (routine, call, the PE it waits for), once, and keeps waiting. "   \
      "0: never.")                                                                    \
    X(info, INFO, BOOL, "0",                                                          \
      "PE 0 prints the library version and every variable with its value at init.")   \
    X(version, VERSION, BOOL, "0",                                                    \
      "PE 0 prints the library name and version at init.")                            \
    X(yield, YIELD, STRING, "auto",                                                   \
      "Yield the CPU in waiting loops: auto (at once when node-local PEs outnumber "  \
      "cores, else after spinning briefly), always or never.")                       \
    X(fence, FENCE, STRING, "auto",                                                   \
      "How shmem_fence, put-with-signal and the collectives order operations to "     \
      "PEs on other nodes: auto (UCX's fence, no round trip, where each endpoint "    \
      "carries RMA and atomics on one lane that keeps order; else a flush) or flush.") \
    X(progress_thread, PROGRESS_THREAD, STRING, "auto",                               \
      "A thread that serves peers' UCX requests while this PE computes: auto (when "  \
      "the job spans several nodes, or static data is not shared, unless node-local " \
      "PEs outnumber cores), on or off.")                                            \
    X(wireup_collect, WIREUP_COLLECT, INT, "4096",                                    \
      "Jobs over several nodes of at most this many PEs hand every PE's wire-up "    \
      "data to every node at start-up; in larger ones a PE asks a peer's node for "  \
      "it on first use (direct modex), where the launcher serves that. 0: always "    \
      "on first use; -1: always at start-up.")                                        \
    X(ctx_workers, CTX_WORKERS, INT, "0",                                             \
      "UCX workers for created contexts: each of the first this many contexts gets "  \
      "its own, later ones share them. 0: the node's hardware threads divided by "    \
      "its PEs, at least 2.")                                                         \
    X(cpu_features, CPU_FEATURES, STRING, "auto",                                     \
      "x86-64: the CPU features a put's copy may use: auto, none (SSE2), or some of "  \
      "avx512, avx2, erms, fsrm joined by commas, each one this CPU runs. For "         \
      "comparing the copies; other CPUs have one copy and take auto or none.")         \
    X(share_static, SHARE_STATIC, BOOL, "1",                                          \
      "Back the program's static data with shared memory so PEs on the same node "   \
      "reach it with loads and stores; 0 sends it through UCX.")                      \
    X(barrier_algorithm, BARRIER_ALGORITHM, STRING, "auto",                           \
      "Algorithm of shmem_barrier_all, shmem_sync_all and shmem_team_sync: auto, "    \
      "central or dissemination.")                                                    \
    X(bcast_algorithm, BCAST_ALGORITHM, STRING, "auto",                               \
      "Broadcast algorithm: auto, tree, chain, linear or pull.")                      \
    X(collect_algorithm, COLLECT_ALGORITHM, STRING, "auto",                           \
      "collect algorithm: auto, linear or ring.")                                     \
    X(fcollect_algorithm, FCOLLECT_ALGORITHM, STRING, "auto",                         \
      "fcollect algorithm: auto, rd (recursive doubling), ring or linear.")           \
    X(alltoall_algorithm, ALLTOALL_ALGORITHM, STRING, "auto",                         \
      "alltoall/alltoalls algorithm: auto, pairwise or linear.")                      \
    X(reduce_algorithm, REDUCE_ALGORITHM, STRING, "auto",                             \
      "Reduction algorithm: auto, rd (recursive doubling), ring, linear or direct.")  \
    X(coll_eager_size, COLL_EAGER_SIZE, SIZE, "64k",                                  \
      "Largest message a collective sends to a PE on another node before that PE "   \
      "asks for it (the receiver's library keeps it until then): one message per "   \
      "hop instead of a ready and the data. 0: every such transfer waits for its "    \
      "receiver. Must be the same on every PE.")                                     \
    X(profile, PROFILE, BOOL, "0",                                                    \
      "Count calls, bytes and time per routine and bytes per peer on every PE; at "   \
      "the end PE 0 writes the job's profile (SHMEM_PROFILE_FILE).")                   \
    X(profile_file, PROFILE_FILE, PATH, "ushmem-profile.txt",                       \
      "The profile's file, relative to PE 0's working directory; <base>-matrix.csv "  \
      "and, with gnuplot, <base>-matrix.png and <base>-time.png go beside it.")

typedef enum { USH_ENV_BOOL, USH_ENV_INT, USH_ENV_SIZE, USH_ENV_STRING, USH_ENV_PATH } ush_env_type_t;

#define USH_ENV_CTYPE_BOOL   int
#define USH_ENV_CTYPE_INT    long
#define USH_ENV_CTYPE_SIZE   size_t
#define USH_ENV_CTYPE_STRING const char *
#define USH_ENV_CTYPE_PATH   const char *

typedef struct {
#define USH_ENV_FIELD(field, name, type, def, help) USH_ENV_CTYPE_##type field;
    USH_ENV_TABLE(USH_ENV_FIELD)
#undef USH_ENV_FIELD
} ush_env_t;

/* Parse a size: decimal digits, optional single k/K/m/M/g/G/t/T suffix
 * (powers of 1024), optional trailing 'b'/'B' after the suffix. Rejects
 * empty strings, signs, garbage and values that overflow size_t.
 * Returns 0 and sets *out, or -1. */
int ush_env_parse_size(const char *s, size_t *out);
/* Parse a boolean: 1/0, y/n, yes/no, on/off, true/false (any case). */
int ush_env_parse_bool(const char *s, int *out);
/* Parse a decimal long, rejecting garbage and overflow. */
int ush_env_parse_int(const char *s, long *out);

/* Fill env from the table defaults, then from getenv("SHMEM_<NAME>")
 * (SMA_SYMMETRIC_SIZE as a fallback for SYMMETRIC_SIZE; SHMEM_ wins).
 * On a malformed value: writes "SHMEM_<NAME>=<value>: <why>; expected <form>"
 * into err (errlen bytes) and returns -1. Returns 0 on success. */
int ush_env_load(ush_env_t *env, char *err, size_t errlen);

/* Print every variable, its value and its help text, one per line. */
void ush_env_print(const ush_env_t *env, FILE *out);

/* One row of the table as a reporting tool (oshinfo) shows it: the value
 * in force, worked out from this process's environment alone. */
typedef struct {
    const char *name;      /* without the SHMEM_ prefix */
    const char *type;      /* "bool", "int", "size", "string" or "path" */
    const char *def;       /* the default, as the user would write it */
    const char *help;
    const char *raw;       /* the environment's string, NULL when unset */
    char        source[64];/* the variable that supplied raw, or "" */
    char        value[64]; /* the value in force, formatted like SHMEM_INFO */
    char        why[96];   /* why raw does not parse, or "" */
} ush_env_row_t;

/* The variable of ours (its name without SHMEM_) that SHMEM_<name> - the
 * first len bytes of name - is most likely a misspelling of, or NULL: for
 * one of ours itself, and for names too far from all of ours to be
 * anything but another library's. */
const char *ush_env_typo_of(const char *name, size_t len);

/* Number of variables in the table. */
size_t ush_env_count(void);
/* Fill row for variable i (0 <= i < ush_env_count()). Returns 0, or -1 when
 * the environment's value is malformed: then value holds raw, why the reason
 * and expected (if not NULL) the form wanted. */
int ush_env_row(size_t i, ush_env_row_t *row, const char **expected);

#endif
