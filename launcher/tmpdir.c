/*
 * The private directories of a job: the one PMIx keeps its rendezvous and
 * data-store files in, and the one in /dev/shm where UCX creates its
 * shared-memory files. Pointing PMIx's tmpdirs and UCX_POSIX_DIR there
 * (instead of the shared /tmp and /dev/shm) means one recursive removal
 * at exit leaves nothing behind, whatever they created: UCX unlinks each
 * file a few milliseconds after creating it, but a PE killed in between
 * (the job failing while others are still in shmem_init) would leave it
 * in /dev/shm for good, taking RAM.
 */
#include "oshrun.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ush_run_status_t ush_run_tmpdir_create(char **path_out)
{
    const char *base = getenv("TMPDIR");
    char        templ[4096];

    if (base == NULL || *base == '\0') {
        base = "/tmp";
    }
    if (snprintf(templ, sizeof(templ), "%s/oshrun.XXXXXX", base) >= (int)sizeof(templ)) {
        ush_run_msg("TMPDIR is too long: %s", base);
        return USH_RUN_ERR_USAGE;
    }
    if (mkdtemp(templ) == NULL) {
        ush_run_msg("cannot create a temporary directory in %s: %s", base, strerror(errno));
        return USH_RUN_ERR_SYS;
    }
    *path_out = strdup(templ);
    if (*path_out == NULL) {
        rmdir(templ);
        return USH_RUN_ERR_NOMEM;
    }
    return USH_RUN_OK;
}

/* The UCX directory: none where /dev/shm is not ours to use, or where
 * the user chose UCX_POSIX_DIR; UCX then uses /dev/shm as usual. Its name
 * carries oshrun's pid, so a directory whose oshrun is gone is known for
 * a leftover. */
void ush_run_shmdir_create(char **path_out)
{
    const char *user = getenv("UCX_POSIX_DIR");
    char        templ[64];

    *path_out = NULL;
    snprintf(templ, sizeof(templ), "/dev/shm/oshrun.%ld.XXXXXX", (long)getpid());
    if ((user != NULL && *user != '\0') || access("/dev/shm", W_OK | X_OK) != 0) {
        return;
    }
    if (mkdtemp(templ) != NULL) {
        *path_out = strdup(templ);
        if (*path_out == NULL) {
            rmdir(templ);
        }
    }
}

/* Whether this pass of ush_run_tmpdir_remove is the last: only its
 * failures are reported. */
static int ush_run_tmpdir_last_pass;

static int ush_run_tmpdir_rm_one(const char *path, const struct stat *sb, int flag,
                                 struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    if (remove(path) != 0 && errno != ENOENT && ush_run_tmpdir_last_pass) {
        ush_run_msg("cannot remove %s: %s", path, strerror(errno));
    }
    return 0;   /* keep going: remove as much as we can */
}

void ush_run_tmpdir_remove(const char *path)
{
    struct stat st;

    if (path == NULL) {
        return;
    }
    /* Depth first so directories are empty when their turn comes; never
     * follow symlinks out of the directory. When a job ends without
     * PMIx_server_finalize (ush_run_server_can_finalize), libpmix's
     * threads still run and may add a file (a late PE connecting) while
     * we remove: a few passes, 10 ms apart, then report what is left. */
    for (int pass = 0; pass < 5; pass++) {
        ush_run_tmpdir_last_pass = pass == 4;
        nftw(path, ush_run_tmpdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
        if (lstat(path, &st) != 0) {
            return;
        }
        usleep(10000);
    }
}
