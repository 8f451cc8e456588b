/*
 * What a PE holds of the resources contexts cost: open file
 * descriptors, System V segments it created, and the open-file limit the
 * context tests lower to stand for a node's share per PE. Linux only.
 */
#ifndef CTX_RES_H
#define CTX_RES_H

#include "pe_test.h"

#include <dirent.h>
#include <sys/resource.h>
#include <sys/shm.h>

/* Descriptors open in this process. */
static inline int ctx_res_fds(void)
{
    DIR           *d = opendir("/proc/self/fd");
    struct dirent *e;
    int            n = 0;

    CHECK(d != NULL);
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') n++;
    }
    closedir(d);
    return n - 1; /* the directory's own */
}

/* System V segments this process created and has not removed (a removed
 * one lingers while a peer still has it attached). */
static inline int ctx_res_sysv(void)
{
    struct shm_info info;
    int             max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&info), n = 0;

    for (int i = 0; i <= max; i++) {
        struct shmid_ds ds;
        if (shmctl(i, SHM_STAT, &ds) >= 0 && ds.shm_cpid == getpid() &&
            !(ds.shm_perm.mode & SHM_DEST)) {
            n++;
        }
    }
    return n;
}

/* Sets the soft open-file limit; returns the old one. */
static inline rlim_t ctx_res_set_nofile(rlim_t soft)
{
    struct rlimit rl;
    CHECK_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
    rlim_t old = rl.rlim_cur;
    if (soft > rl.rlim_max) soft = rl.rlim_max;
    rl.rlim_cur = soft;
    CHECK_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
    return old;
}

#endif
