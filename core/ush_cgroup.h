/*
 * The memory cgroup a process runs in (v1 or v2): its limit, and how many
 * processes the kernel's out-of-memory killer has ended in it. A batch
 * system's memory request (Slurm's --mem) is such a limit, usually far
 * below the node's memory: a check against the node alone lets a job
 * start that the OOM killer ends later.
 *
 * Plain C and libc only: the library (start-up memory check) and oshrun
 * (the report of a PE's death) both build it.
 */
#ifndef USH_CGROUP_H
#define USH_CGROUP_H

#include <limits.h>
#include <stdint.h>

#define USH_CGROUP_UNLIMITED UINT64_MAX

typedef struct {
    int      version;  /* 1 or 2; 0 when no memory cgroup was found */
    uint64_t mem;      /* the lowest memory limit from the process's cgroup
                        * up to the root, in bytes, or USH_CGROUP_UNLIMITED */
    uint64_t swap;     /* swap the cgroup may use on top of mem (v1:
                        * memsw minus mem, v2: memory.swap.max), or
                        * USH_CGROUP_UNLIMITED */
    char     dir[PATH_MAX]; /* the process's own memory cgroup directory */
    char     limit_file[PATH_MAX]; /* the file that set mem ("" if none) */
} ush_cgroup_mem_t;

/* Reads the calling process's memory cgroup through /proc/self/cgroup and
 * /proc/self/mountinfo. Every path is taken under root: "" on a running
 * system; the unit tests pass a directory holding a made-up tree. Returns
 * 0, or -1 (out->version 0, no limits) when there is no memory cgroup. */
int ush_cgroup_mem_read(const char *root, ush_cgroup_mem_t *out);

/* Processes the OOM killer has ended in cg->dir so far (v1: oom_kill of
 * memory.oom_control, v2: of memory.events, which counts descendants
 * too), or -1 when the kernel does not say. */
int64_t ush_cgroup_oom_kills(const ush_cgroup_mem_t *cg);

#endif
