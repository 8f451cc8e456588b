/*
 * The memory cgroup of this process (see ush_cgroup.h).
 *
 * /proc/self/cgroup names the process's cgroup relative to its
 * hierarchy's root; /proc/self/mountinfo says where that hierarchy is
 * mounted (and which part of it, in a container). A limit anywhere on the
 * way up binds the process, so the effective one is the lowest from its
 * own directory up to the mount point.
 */
#include "ush_cgroup.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v1 writes "no limit" as the largest page-aligned signed 64-bit value;
 * anything this large (4 EiB) is no limit either. */
#define USH_CGROUP_V1_HUGE ((uint64_t)1 << 62)

typedef struct {
    char mount[PATH_MAX];  /* where the hierarchy is mounted */
    char mroot[PATH_MAX];  /* the hierarchy's directory mounted there */
} ush_cgroup_mnt_t;

/* root + path into buf; 0, or -1 when it does not fit. */
static int ush_cgroup_path(char *buf, size_t len, const char *root, const char *path,
                           const char *file)
{
    int n = snprintf(buf, len, "%s%s%s%s", root, path, file ? "/" : "", file ? file : "");
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Whether the comma-separated list has the item. */
static int ush_cgroup_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    for (const char *p = list; p != NULL; p = strchr(p, ',')) {
        if (*p == ',') p++;
        if (!strncmp(p, item, n) && (p[n] == ',' || p[n] == '\0')) return 1;
    }
    return 0;
}

/* The cgroup path of the memory controller (v1) or of the unified
 * hierarchy (v2) from /proc/self/cgroup. */
static int ush_cgroup_self(const char *root, int version, char *path, size_t len)
{
    char  file[PATH_MAX], line[PATH_MAX + 256];
    FILE *f;
    int   found = 0;

    if (ush_cgroup_path(file, sizeof(file), root, "/proc/self/cgroup", NULL)) return -1;
    if ((f = fopen(file, "r")) == NULL) return -1;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char *ctrl = strchr(line, ':'), *p;
        if (ctrl == NULL || (p = strchr(++ctrl, ':')) == NULL) continue;
        *p++ = '\0';
        p[strcspn(p, "\n")] = '\0';
        found = version == 1 ? ush_cgroup_has(ctrl, "memory")
                             : (!strncmp(line, "0:", 2) && *ctrl == '\0');
        if (found && snprintf(path, len, "%s", p) >= (int)len) found = 0;
    }
    fclose(f);
    return found ? 0 : -1;
}

/* Where the v1 memory hierarchy or the v2 one is mounted. */
static int ush_cgroup_mount(const char *root, int version, ush_cgroup_mnt_t *m)
{
    char  file[PATH_MAX], line[3 * PATH_MAX];
    FILE *f;
    int   found = 0;

    if (ush_cgroup_path(file, sizeof(file), root, "/proc/self/mountinfo", NULL)) return -1;
    if ((f = fopen(file, "r")) == NULL) return -1;
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        /* id parent dev root mount-point options... - fstype source super-options */
        char *sep = strstr(line, " - "), fstype[64], super[1024] = "";
        if (sep == NULL || sscanf(sep + 3, "%63s %*s %1023s", fstype, super) < 1) continue;
        if (version == 1 ? strcmp(fstype, "cgroup") || !ush_cgroup_has(super, "memory")
                         : strcmp(fstype, "cgroup2")) {
            continue;
        }
        found = sscanf(line, "%*s %*s %*s %4095s %4095s", m->mroot, m->mount) == 2;
    }
    fclose(f);
    return found ? 0 : -1;
}

/* The first number in a file: a limit ("max" is none), or the value after
 * `key` in a "key value" file. */
static uint64_t ush_cgroup_read(const char *dir, const char *name, const char *key)
{
    char     file[PATH_MAX], line[256];
    uint64_t v = USH_CGROUP_UNLIMITED;
    FILE    *f;

    if (ush_cgroup_path(file, sizeof(file), "", dir, name)) return v;
    if ((f = fopen(file, "r")) == NULL) return v;
    while (fgets(line, sizeof(line), f) != NULL) {
        size_t   k = key ? strlen(key) : 0;
        uint64_t n;
        if (key && (strncmp(line, key, k) || line[k] != ' ')) continue;
        if (sscanf(line + k, "%" SCNu64, &n) == 1) v = n;
        break;
    }
    fclose(f);
    return v;
}

/* The process's cgroup directory for that version, or -1. */
static int ush_cgroup_dir(const char *root, int version, ush_cgroup_mnt_t *m, char *dir,
                          size_t len)
{
    char        path[PATH_MAX];
    const char *rel;
    size_t      n;

    if (ush_cgroup_mount(root, version, m) || ush_cgroup_self(root, version, path, sizeof(path))) {
        return -1;
    }
    /* in a container the mount may be a subtree: the path is below it */
    n   = strlen(m->mroot);
    rel = path;
    if (strcmp(m->mroot, "/") && !strncmp(path, m->mroot, n) &&
        (path[n] == '/' || path[n] == '\0')) {
        rel = path + n;
    }
    if (!strcmp(rel, "/")) rel = "";
    return snprintf(dir, len, "%s%s%s", root, m->mount, rel) >= (int)len ? -1 : 0;
}

int ush_cgroup_mem_read(const char *root, ush_cgroup_mem_t *out)
{
    static const struct {
        const char *mem, *swap; /* v1's swap file is memory and swap together */
    } files[3] = {
        [1] = { "memory.limit_in_bytes", "memory.memsw.limit_in_bytes" },
        [2] = { "memory.max", "memory.swap.max" },
    };
    ush_cgroup_mnt_t m;
    char             top[PATH_MAX], level[PATH_MAX];

    memset(out, 0, sizeof(*out));
    out->mem = out->swap = USH_CGROUP_UNLIMITED;
    for (int v = 1; v <= 2 && !out->version; v++) {
        if (ush_cgroup_dir(root, v, &m, out->dir, sizeof(out->dir))) continue;
        if (v == 2) {
            /* a v2 hierarchy without the memory controller (next to v1's) */
            char ctrl[PATH_MAX];
            FILE *f;
            char  line[512] = "";
            if (ush_cgroup_path(ctrl, sizeof(ctrl), root, m.mount, "cgroup.controllers") ||
                (f = fopen(ctrl, "r")) == NULL) {
                continue;
            }
            if (fgets(line, sizeof(line), f) == NULL) line[0] = '\0';
            fclose(f);
            line[strcspn(line, "\n")] = '\0';
            for (char *p = line; *p; p++) *p = *p == ' ' ? ',' : *p;
            if (!ush_cgroup_has(line, "memory")) continue;
        }
        out->version = v;
    }
    if (!out->version) return -1;

    /* the levels, own directory first, up to the mount point */
    uint64_t memsw = USH_CGROUP_UNLIMITED;
    if (ush_cgroup_path(top, sizeof(top), root, m.mount, NULL) ||
        ush_cgroup_path(level, sizeof(level), "", out->dir, NULL)) {
        out->version = 0;
        return -1;
    }
    for (;;) {
        uint64_t mem  = ush_cgroup_read(level, files[out->version].mem, NULL);
        uint64_t swap = ush_cgroup_read(level, files[out->version].swap, NULL);
        if (out->version == 1 && mem >= USH_CGROUP_V1_HUGE) mem = USH_CGROUP_UNLIMITED;
        if (out->version == 1 && swap >= USH_CGROUP_V1_HUGE) swap = USH_CGROUP_UNLIMITED;
        if (mem < out->mem) {
            out->mem = mem;
            if (ush_cgroup_path(out->limit_file, sizeof(out->limit_file), "", level,
                                files[out->version].mem)) {
                out->limit_file[0] = '\0';
            }
        }
        if (out->version == 1 && swap < memsw) memsw = swap;
        if (out->version == 2 && swap < out->swap) out->swap = swap;

        char *slash = strrchr(level, '/');
        if (strlen(level) <= strlen(top) || slash == NULL) break;
        *slash = '\0';
        if (strlen(level) < strlen(top)) break;
    }
    if (out->version == 1 && memsw != USH_CGROUP_UNLIMITED) {
        out->swap = memsw > out->mem ? memsw - out->mem : 0;
    }
    return 0;
}

int64_t ush_cgroup_oom_kills(const ush_cgroup_mem_t *cg)
{
    uint64_t n = USH_CGROUP_UNLIMITED;
    if (cg->version == 1) n = ush_cgroup_read(cg->dir, "memory.oom_control", "oom_kill");
    if (cg->version == 2) n = ush_cgroup_read(cg->dir, "memory.events", "oom_kill");
    return n == USH_CGROUP_UNLIMITED ? -1 : (int64_t)n;
}
