/*
 * Finding a program the way the shell does, for the PEs' program and for
 * srun / mpirun: checked before anything starts, so a typo gives one line
 * instead of N failed PEs or an exec error from deep inside a launcher.
 */
#include "oshrun.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ush_run_path_check(const char *cand)
{
    struct stat sb;

    if (stat(cand, &sb) != 0) {
        return (errno == ENOTDIR) ? ENOENT : errno;
    }
    if (S_ISDIR(sb.st_mode)) {
        return EISDIR;
    }
    return access(cand, X_OK) == 0 ? 0 : EACCES;
}

int ush_run_path_find(const char *name, char **path_out)
{
    int not_exec = 0;

    if (strchr(name, '/') != NULL) {
        int err = ush_run_path_check(name);
        if (err != 0) {
            return err;
        }
        *path_out = strdup(name);
        return *path_out ? 0 : ENOMEM;
    }

    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0') {
        path = "/usr/local/bin:/usr/bin:/bin";
    }
    for (const char *p = path;; ) {
        const char *colon = strchr(p, ':');
        size_t      dlen  = colon ? (size_t)(colon - p) : strlen(p);
        char        cand[PATH_MAX];
        int         n;

        /* an empty PATH element means the current directory */
        n = dlen ? snprintf(cand, sizeof(cand), "%.*s/%s", (int)dlen, p, name) :
                   snprintf(cand, sizeof(cand), "./%s", name);
        if (n > 0 && n < (int)sizeof(cand)) {
            int err = ush_run_path_check(cand);
            if (err == 0) {
                *path_out = strdup(cand);
                return *path_out ? 0 : ENOMEM;
            }
            not_exec |= (err == EACCES);
        }
        if (colon == NULL) {
            break;
        }
        p = colon + 1;
    }
    return not_exec ? EACCES : ENOENT;
}
