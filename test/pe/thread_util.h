/*
 * Helpers shared by the threaded tests (thread_*.c): initialisation at
 * SHMEM_THREAD_MULTIPLE and running a body on several threads of each PE.
 *
 * The tests avoid data races of their own, so ThreadSanitizer (test/sanitize/)
 * reports only the library's: every buffer a thread writes is its own, and
 * what the threads share is either symmetric memory written by other PEs
 * (read after a barrier) or SHMEM atomics.
 */
#ifndef THREAD_UTIL_H
#define THREAD_UTIL_H

#include "pe_test.h"

#include <pthread.h>

/* Threads per PE; the issue asks for at least 4 threads x 2 PEs. */
#ifndef TU_NTHREADS
#define TU_NTHREADS 4
#endif

/* shmem_init_thread(SHMEM_THREAD_MULTIPLE), and the level it grants is
 * exactly MULTIPLE, both as returned and as shmem_query_thread reports. */
static inline void tu_init_multiple(void)
{
    int provided = -1, queried = -1;
    int rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pe_test_started();
    pe_section("shmem_init_thread(SHMEM_THREAD_MULTIPLE)");
    CHECK_EQ(rc, 0);
    CHECK_EQ(provided, SHMEM_THREAD_MULTIPLE);
    shmem_query_thread(&queried);
    CHECK_EQ(queried, SHMEM_THREAD_MULTIPLE);
}

/* Runs body(i) on threads i = 0 .. n-1 of this PE and joins them. */
static inline void tu_run_threads(int n, void *(*body)(void *))
{
    pthread_t t[16];
    CHECK(n <= 16);
    for (int i = 0; i < n; i++)
        CHECK_EQ(pthread_create(&t[i], NULL, body, (void *)(intptr_t)i), 0);
    for (int i = 0; i < n; i++)
        CHECK_EQ(pthread_join(t[i], NULL), 0);
}

/* Context options named on the command line ("0", "private",
 * "serialized", "nostore"), so one program covers each kind. Arguments
 * of the form name=value are the program's own. */
static inline long tu_ctx_options(int argc, char **argv)
{
    long opts = 0;
    for (int i = 1; i < argc; i++) {
        if (strchr(argv[i], '='))
            continue;
        if (!strcmp(argv[i], "private"))
            opts |= SHMEM_CTX_PRIVATE;
        else if (!strcmp(argv[i], "serialized"))
            opts |= SHMEM_CTX_SERIALIZED;
        else if (!strcmp(argv[i], "nostore"))
            opts |= SHMEM_CTX_NOSTORE;
        else
            CHECK_MSG(!strcmp(argv[i], "0"), "unknown context option '%s'", argv[i]);
    }
    return opts;
}

/* Value of a name=value argument, or def. */
static inline long tu_arg_long(int argc, char **argv, const char *name, long def)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], name, len) && argv[i][len] == '=')
            return strtol(argv[i] + len + 1, NULL, 10);
    return def;
}

/* After a put of src[0..n) to remote on tgt through ctx: complete it, read
 * it back through the same context and check every element. */
static inline void tu_check_round_trip(shmem_ctx_t ctx, long *remote, const long *src, int n,
                                       int tgt)
{
    long back[64];
    CHECK(n <= 64);
    shmem_ctx_quiet(ctx);
    memset(back, 0, sizeof(back));
    shmem_ctx_long_get(ctx, back, remote, (size_t)n, tgt);
    for (int i = 0; i < n; i++)
        CHECK_EQ(back[i], src[i]);
}

#endif /* THREAD_UTIL_H */
