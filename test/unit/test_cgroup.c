/*
 * The memory cgroup reader (core/cgroup.c) on made-up trees: each test
 * writes a proc/self/{cgroup,mountinfo} and cgroup files under a scratch
 * directory and passes it as the root, as the real system's "" would be.
 * Covers v1 (limit at the process's level, at an ancestor, memsw), v2
 * (memory.max, swap.max, "max"), a container's subtree mount, a hybrid
 * host whose v2 hierarchy has no memory controller, and no cgroup at all.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ush_cgroup.h"

static char root[PATH_MAX];

/* Writes root/path (creating its directories) with printf's format. */
static void put(const char *path, const char *fmt, ...)
{
    char    file[PATH_MAX * 2];
    va_list ap;
    snprintf(file, sizeof(file), "%s/%s", root, path);
    for (char *p = file + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        cr_assert(mkdir(file, 0700) == 0 || errno == EEXIST, "mkdir %s", file);
        *p = '/';
    }
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f, "cannot write %s", file);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

static void make_root(void)
{
    snprintf(root, sizeof(root), "%s/ush-cgroup-test.XXXXXX", P_tmpdir);
    cr_assert_not_null(mkdtemp(root));
}

static void remove_root(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(cgroup, .init = make_root, .fini = remove_root);

#define MOUNTS_V1                                                                            \
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"                   \
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"                  \
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"            \
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
#define MOUNTS_V2 "30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
#define V1_NONE   "9223372036854771712\n"
#define GIB       ((uint64_t)1 << 30)

static ush_cgroup_mem_t read_ok(int version)
{
    ush_cgroup_mem_t cg;
    cr_assert_eq(ush_cgroup_mem_read(root, &cg), 0, "no memory cgroup found");
    cr_assert_eq(cg.version, version);
    return cg;
}

static void expect_file(const ush_cgroup_mem_t *cg, const char *rel)
{
    char want[PATH_MAX * 2];
    snprintf(want, sizeof(want), "%s%s", root, rel);
    cr_assert_str_eq(cg->limit_file, want);
}

/* Slurm's layout under v1: the limit is on the job, the task is below. */
Test(cgroup, v1_limit_on_an_ancestor)
{
    const char *job = "sys/fs/cgroup/memory/slurm/uid_0/job_7";
    put("proc/self/mountinfo", MOUNTS_V1);
    put("proc/self/cgroup", "4:memory:/slurm/uid_0/job_7/step_0/task_1\n1:cpu:/\n0::/\n");
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_NONE);
    put("sys/fs/cgroup/memory/slurm/memory.limit_in_bytes", V1_NONE);
    put("sys/fs/cgroup/memory/slurm/uid_0/memory.limit_in_bytes", V1_NONE);
    char f[PATH_MAX];
    snprintf(f, sizeof(f), "%s/memory.limit_in_bytes", job);
    put(f, "1073741824\n");
    snprintf(f, sizeof(f), "%s/step_0/memory.limit_in_bytes", job);
    put(f, "2147483648\n");
    snprintf(f, sizeof(f), "%s/step_0/task_1/memory.limit_in_bytes", job);
    put(f, V1_NONE);
    snprintf(f, sizeof(f), "%s/step_0/task_1/memory.oom_control", job);
    put(f, "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");

    ush_cgroup_mem_t cg = read_ok(1);
    cr_assert_eq(cg.mem, GIB);
    cr_assert_eq(cg.swap, USH_CGROUP_UNLIMITED, "no memsw file: swap is not limited");
    expect_file(&cg, "/sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes");
    cr_assert_eq(ush_cgroup_oom_kills(&cg), 3);
}

Test(cgroup, v1_memsw_limits_swap)
{
    put("proc/self/mountinfo", MOUNTS_V1);
    put("proc/self/cgroup", "4:memory:/job\n");
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_NONE);
    put("sys/fs/cgroup/memory/job/memory.limit_in_bytes", "1073741824\n");
    put("sys/fs/cgroup/memory/job/memory.memsw.limit_in_bytes", "1610612736\n");
    ush_cgroup_mem_t cg = read_ok(1);
    cr_assert_eq(cg.mem, GIB);
    cr_assert_eq(cg.swap, GIB / 2);
    cr_assert_eq(ush_cgroup_oom_kills(&cg), -1, "no oom_control: unknown");
}

Test(cgroup, v1_unlimited)
{
    put("proc/self/mountinfo", MOUNTS_V1);
    put("proc/self/cgroup", "4:memory:/\n");
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_NONE);
    put("sys/fs/cgroup/memory/memory.oom_control", "oom_kill_disable 0\noom_kill 0\n");
    ush_cgroup_mem_t cg = read_ok(1);
    cr_assert_eq(cg.mem, USH_CGROUP_UNLIMITED);
    cr_assert_str_eq(cg.limit_file, "");
    cr_assert_eq(ush_cgroup_oom_kills(&cg), 0);
}

/* systemd's layout under v2: the root has no memory.max. */
Test(cgroup, v2_max_and_swap)
{
    put("proc/self/mountinfo", MOUNTS_V2);
    put("proc/self/cgroup", "0::/system.slice/slurmstepd.scope/job_9/step_0/user/task_0\n");
    put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
    put("sys/fs/cgroup/system.slice/memory.max", "max\n");
    put("sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/memory.max", "1073741824\n");
    put("sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/memory.swap.max", "0\n");
    put("sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/step_0/memory.max", "max\n");
    put("sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/step_0/memory.swap.max", "max\n");
    put("sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/step_0/user/task_0/memory.events",
        "low 0\nhigh 0\nmax 5\noom 1\noom_kill 1\noom_group_kill 0\n");
    ush_cgroup_mem_t cg = read_ok(2);
    cr_assert_eq(cg.mem, GIB);
    cr_assert_eq(cg.swap, 0);
    expect_file(&cg, "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/memory.max");
    cr_assert_eq(ush_cgroup_oom_kills(&cg), 1, "oom_kill, not oom or oom_group_kill");
}

/* A container sees its own cgroup mounted as the hierarchy's root. */
Test(cgroup, v2_container_subtree)
{
    put("proc/self/mountinfo",
        "700 600 0:27 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n");
    put("proc/self/cgroup", "0::/docker/abc/app\n");
    put("sys/fs/cgroup/cgroup.controllers", "memory pids\n");
    put("sys/fs/cgroup/memory.max", "536870912\n");
    put("sys/fs/cgroup/app/memory.max", "max\n");
    ush_cgroup_mem_t cg = read_ok(2);
    cr_assert_eq(cg.mem, GIB / 2);
    expect_file(&cg, "/sys/fs/cgroup/memory.max");
    cr_assert_eq(cg.swap, USH_CGROUP_UNLIMITED);
}

/* v1's memory controller next to a v2 hierarchy without it: v1 counts. */
Test(cgroup, hybrid_uses_v1)
{
    put("proc/self/mountinfo", MOUNTS_V1);
    put("proc/self/cgroup", "0::/\n4:memory:/j\n");
    put("sys/fs/cgroup/unified/cgroup.controllers", "\n");
    put("sys/fs/cgroup/memory/j/memory.limit_in_bytes", "268435456\n");
    ush_cgroup_mem_t cg = read_ok(1);
    cr_assert_eq(cg.mem, GIB / 4);
}

Test(cgroup, v2_without_memory_controller)
{
    put("proc/self/mountinfo", MOUNTS_V2);
    put("proc/self/cgroup", "0::/a\n");
    put("sys/fs/cgroup/cgroup.controllers", "cpu pids\n");
    put("sys/fs/cgroup/a/memory.max", "1073741824\n"); /* not enforced: ignored */
    ush_cgroup_mem_t cg;
    cr_assert_eq(ush_cgroup_mem_read(root, &cg), -1);
    cr_assert_eq(cg.version, 0);
    cr_assert_eq(cg.mem, USH_CGROUP_UNLIMITED);
    cr_assert_eq(ush_cgroup_oom_kills(&cg), -1);
}

Test(cgroup, no_proc)
{
    ush_cgroup_mem_t cg;
    cr_assert_eq(ush_cgroup_mem_read(root, &cg), -1);
    cr_assert_eq(cg.mem, USH_CGROUP_UNLIMITED);
}
