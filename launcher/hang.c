/*
 * The job's state file: one hang record (core/ush_hang.h) per PE, which
 * each PE maps and writes from its long waits. oshrun reads it when the
 * job outlives --timeout and when it receives SIGURG, and prints which PEs
 * wait in what, for whom.
 */
#include "oshrun.h"

#include "core/ush_hang.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

ush_run_status_t ush_run_hang_create(ush_run_job_t *job)
{
    size_t bytes = (size_t)job->opts.npes * sizeof(ush_hang_rec_t);
    size_t len   = strlen(job->tmpdir) + sizeof("/state");
    char  *path  = malloc(len);
    if (path == NULL) return USH_RUN_ERR_NOMEM;
    snprintf(path, len, "%s/state", job->tmpdir);

    /* Without it the job runs as before; only the report is lost. */
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
        ush_run_msg("%s: %s; no hang report for this job", path, strerror(errno));
        if (fd >= 0) close(fd);
        free(path);
        return USH_RUN_OK;
    }
    void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        ush_run_msg("mmap %s: %s; no hang report for this job", path, strerror(errno));
        free(path);
        return USH_RUN_OK;
    }
    job->state_path = path;
    job->state      = map;
    return USH_RUN_OK;
}

void ush_run_hang_report(const ush_run_job_t *job, const char *why)
{
    int             n    = job->nspawned;
    ush_hang_rec_t *recs = job->state && n > 0 ? calloc((size_t)n, sizeof(*recs)) : NULL;

    if (recs == NULL) return;
    for (int r = 0; r < n; r++) {
        if (ush_hang_rec_read(&recs[r], &job->state[r]) != 0) {
            memcpy(&recs[r], (const void *)&job->state[r], sizeof(recs[r]));
            recs[r].routine[USH_HANG_NAME - 1] = '\0';
        }
        if (!job->pes[r].alive) recs[r].state = USH_HANG_GONE;
    }
    ush_hang_report_write(stderr, "oshrun: ", why, recs, n);
    free(recs);
}

void ush_run_hang_free(ush_run_job_t *job)
{
    if (job->state) munmap((void *)(uintptr_t)job->state, (size_t)job->opts.npes * sizeof(ush_hang_rec_t));
    job->state = NULL;
    free(job->state_path);
    job->state_path = NULL;
}
