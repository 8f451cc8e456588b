/*
 * A context that cannot be created: with no file descriptor, or too few,
 * left for a UCX worker, shmem_ctx_create returns non-zero, sets
 * SHMEM_CTX_INVALID and reports it in one line of ushmem's naming the
 * routine and what to do, instead of UCX's own error line for every
 * transport that failed to open. Once one context exists, later ones
 * share its worker when no new worker can be made: they succeed, silently.
 *
 * What the library prints is captured by pointing descriptors 1 and 2 at
 * a file around the calls (UCX logs to stdout).
 */
#include "ctx_res.h"

#include <fcntl.h>

#define NSHARE 8

static long box[NSHARE];
static long total;

static FILE *capture;
static int   saved_out, saved_err;

static void capture_start(void)
{
    fflush(stdout);
    fflush(stderr);
    capture = tmpfile();
    CHECK(capture != NULL);
    saved_out = dup(1);
    saved_err = dup(2);
    CHECK(saved_out >= 0 && saved_err >= 0);
    CHECK(dup2(fileno(capture), 1) == 1 && dup2(fileno(capture), 2) == 2);
}

/* Stops capturing; returns what was written, lines counted in *nlines. */
static char *capture_stop(int *nlines)
{
    static char text[16384];
    fflush(stdout);
    fflush(stderr);
    CHECK(dup2(saved_out, 1) == 1 && dup2(saved_err, 2) == 2);
    close(saved_out);
    close(saved_err);
    size_t len = (size_t)pread(fileno(capture), text, sizeof(text) - 1, 0);
    text[len < sizeof(text) ? len : 0] = '\0';
    fclose(capture);
    *nlines = 0;
    for (char *p = text; *p; p++) *nlines += *p == '\n';
    return text;
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, right = (me + 1) % pe_npes;
    char      prefix[64];
    snprintf(prefix, sizeof(prefix), "ushmem: PE %d: shmem_ctx_create: ", me);

    pe_section("no descriptor left: one line, an invalid context");
    shmem_ctx_t ctx = (shmem_ctx_t)&box; /* anything but SHMEM_CTX_INVALID */
    int         nlines;
    capture_start();
    rlim_t old_limit = ctx_res_set_nofile((rlim_t)ctx_res_fds());
    int    rc        = shmem_ctx_create(0, &ctx);
    ctx_res_set_nofile(old_limit);
    char *said = capture_stop(&nlines);
    printf("PE %d: shmem_ctx_create said: %s", me, said);
    CHECK(rc != 0);
    CHECK(ctx == SHMEM_CTX_INVALID);
    CHECK_MSG(nlines == 1, "%d lines printed", nlines);
    CHECK_MSG(strncmp(said, prefix, strlen(prefix)) == 0, "the line starts with '%s'", prefix);
    CHECK_MSG(strstr(said, "ulimit -n") != NULL, "the line names ulimit -n");
    shmem_barrier_all();

    /* A few descriptors left, fewer than a worker takes: UCX 1.13 ran out
     * inside ucp_worker_create and spun there for ever (or aborted). */
    pe_section("a few descriptors left: one line each, never a hang");
    for (int room = 1; room <= 24; room += 1) {
        ctx = (shmem_ctx_t)&box;
        capture_start();
        old_limit = ctx_res_set_nofile((rlim_t)ctx_res_fds() + (rlim_t)room);
        rc        = shmem_ctx_create(0, &ctx);
        ctx_res_set_nofile(old_limit);
        said = capture_stop(&nlines);
        if (rc == 0) {
            CHECK_MSG(nlines == 0, "%d free descriptors: %d lines printed: %s", room, nlines, said);
            shmem_ctx_destroy(ctx);
            continue;
        }
        CHECK(ctx == SHMEM_CTX_INVALID);
        CHECK_MSG(nlines == 1, "%d free descriptors: %d lines printed: %s", room, nlines, said);
        CHECK_MSG(strstr(said, "ulimit -n") != NULL, "%d free descriptors: the line names "
                  "ulimit -n: %s", room, said);
    }
    shmem_barrier_all();

    pe_section("later contexts share the worker of the first");
    shmem_ctx_t first = SHMEM_CTX_INVALID, more[NSHARE];
    CHECK_EQ(shmem_ctx_create(0, &first), 0);
    capture_start();
    old_limit = ctx_res_set_nofile((rlim_t)ctx_res_fds());
    for (int i = 0; i < NSHARE; i++) {
        more[i] = SHMEM_CTX_INVALID;
        rc      = shmem_ctx_create(i % 2 ? SHMEM_CTX_PRIVATE : 0, &more[i]);
        if (rc != 0) break;
    }
    ctx_res_set_nofile(old_limit);
    said = capture_stop(&nlines);
    CHECK_EQ(rc, 0);
    CHECK_MSG(nlines == 0, "%d lines printed: %s", nlines, said);
    for (int i = 0; i < NSHARE; i++) {
        long v = (long)me * 100 + i;
        shmem_ctx_long_put(more[i], &box[i], &v, 1, right);
        shmem_ctx_long_atomic_add(more[i], &total, 1, right);
        shmem_ctx_quiet(more[i]);
    }
    shmem_barrier_all();
    const int left = (me + pe_npes - 1) % pe_npes;
    for (int i = 0; i < NSHARE; i++) CHECK_EQ(box[i], (long)left * 100 + i);
    CHECK_EQ(total, (long)NSHARE);
    for (int i = 0; i < NSHARE; i++) shmem_ctx_destroy(more[i]);
    shmem_ctx_destroy(first);
    return pe_test_finish();
}
