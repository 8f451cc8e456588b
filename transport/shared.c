/*
 * Static data that node-local peers can map.
 *
 * Without XPMEM no transport maps another process's ordinary memory, so
 * every access to a peer's global variable would go through UCX (CMA or
 * active-message emulation, which needs the peer to call into the
 * library). Instead, at start-up the executable's data and bss are moved
 * onto a memfd in place: same address, same contents, now MAP_SHARED. A
 * peer on the node takes the memfd (ush_tp_share_fd) and maps it,
 * after which puts, gets and atomics to static data are plain loads,
 * stores and CPU atomics, like the heap's.
 *
 * Memory ordering: the copy and the swap are made by this thread before
 * the wire-up exchange publishes the memfd (ucx.c), and a peer maps it
 * only after that exchange has returned: PMIx's fence goes through the
 * server's sockets, whose system calls order everything before the
 * publication on this side before everything after the receipt on the
 * peer's (the kernel's locks on the socket are release/acquire). Both
 * sides then see the same physical pages, coherent like any shared
 * memory, and every later access to them follows the RMA rules
 * (rma.c). Nobody writes into this process's static data through the
 * memfd before it is published, so no store can be lost in the swap. The
 * per-process record (ush_tp_shared) is touched only by start-up, which
 * runs in one thread at a time.
 */
#include "ush_tp_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What was shared, per segment: the program keeps running on the memfd
 * after shmem_finalize, so a later shmem_init shares the same one again. */
static ush_tp_share_t ush_tp_shared[USH_TP_MAX_SEGS];

#if defined(__SANITIZE_ADDRESS__)
#define USH_TP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define USH_TP_ASAN 1
#endif
#endif

/* Copy a whole segment, pages and all. Under AddressSanitizer the data and
 * bss hold poisoned redzones between globals, which this copy reads on
 * purpose (they are moved with the rest); memcpy is intercepted and would
 * report them, so the copy is an uninstrumented loop there (volatile, so
 * the compiler does not turn it back into memcpy). */
#ifdef USH_TP_ASAN
__attribute__((no_sanitize_address))
static void ush_tp_copy_pages(void *dst, const void *src, size_t len)
{
    volatile uintptr_t       *d = dst;
    const volatile uintptr_t *s = src;
    for (size_t i = 0; i < len / sizeof(uintptr_t); i++) {
        d[i] = s[i];
    }
}
#else
static void ush_tp_copy_pages(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}
#endif

/* Whether [start, end) is mapped readable and writable from end to end,
 * by /proc/self/maps. The segment is rounded out to whole pages, and the
 * copy reads and the swap replaces all of them: on a kernel whose pages
 * are larger than the alignment the program was linked with, the rounded
 * range may take in a hole or a read-only page next to the data (QEMU
 * with 64 KiB guest pages over 4 KiB host pages is one such case), where
 * the copy would crash and the swap would make read-only data writable.
 * Then the data is not shared and its peers reach it through UCX. */
static int ush_tp_range_rw(uintptr_t start, uintptr_t end)
{
    FILE         *f = fopen("/proc/self/maps", "re");
    char          line[512];
    unsigned long lo, hi;
    char          perm[5];
    uintptr_t     next = start; /* the first byte not yet seen mapped rw */

    if (f == NULL) return 0;
    while (next < end && fgets(line, sizeof line, f)) {
        /* A line longer than the buffer (a long path): its start holds
         * the range and permissions; skip the rest. */
        if (strchr(line, '\n') == NULL) {
            int c;
            while ((c = getc(f)) != EOF && c != '\n') {
            }
        }
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perm) != 3) continue;
        if (hi <= next) continue;
        if (lo > next || perm[0] != 'r' || perm[1] != 'w') break; /* a hole, or not rw */
        next = hi;
    }
    fclose(f);
    return next >= end;
}

/* A memfd named name (flags: memfd_create's), mode 0600 (memfds start at
 * 0777; peers of the job open it as the same user), *len bytes rounded up
 * to the file's page size (huge with MFD_HUGETLB), mapped shared. Returns
 * the mapping and sets *fd_out and *len; MAP_FAILED, with errno, if any
 * step fails. */
static void *ush_tp_memfd_map(const char *name, unsigned flags, size_t *len, int *fd_out)
{
    struct stat st;
    void       *map = MAP_FAILED;
    int         fd  = memfd_create(name, flags);

    if (fd < 0) return MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_blksize > 0) { /* the file's page size */
        size_t page = (size_t)st.st_blksize;
        *len = (*len + page - 1) / page * page;
    }
    if (fchmod(fd, 0600) == 0 && ftruncate(fd, (off_t)*len) == 0) {
        map = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (map == MAP_FAILED) {
        int err = errno;
        close(fd);
        errno = err;
        return MAP_FAILED;
    }
    *fd_out = fd;
    return map;
}

ush_tp_status_t ush_tp_seg_share(int seg, void *base, size_t size)
{
    size_t    page  = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)base & ~(page - 1);
    uintptr_t end   = ((uintptr_t)base + size + page - 1) & ~(page - 1);
    size_t    len   = end - start;
    char     *copy;

    ush_tp_share_t *done = &ush_tp_shared[seg];
    if (done->len && done->pid == (int32_t)getpid() && done->offset == (uintptr_t)base - start &&
        done->len == len) {
        ush_tp.seg_share[seg] = *done;
        return USH_TP_OK;
    }

    if (!ush_tp_range_rw(start, end)) {
        ush_tp_set_error("the %zu bytes of static data, rounded out to whole pages of %zu "
                         "bytes, take in memory that is not writable data",
                         size, page);
        return USH_TP_ERR_NOMEM;
    }

    int fd;
    copy = ush_tp_memfd_map("ushmem-static", MFD_CLOEXEC, &len, &fd);
    if (copy == MAP_FAILED) goto err;
    ush_tp_copy_pages(copy, (void *)start, len); /* len: whole pages */
    munmap(copy, len);

    /* Replace the pages in place. Nothing else runs in this process's
     * static data between the copy and the swap: start-up is single
     * threaded, and UCX's threads keep their state in libucs. */
    if (mmap((void *)start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
        MAP_FAILED) {
        /* The old mapping is intact when MAP_FIXED fails. */
        goto err_close;
    }
    ush_tp.seg_share[seg] = (ush_tp_share_t){ .pid = (int32_t)getpid(), .fd = fd,
                                              .offset = (uintptr_t)base - start, .len = len };
    *done = ush_tp.seg_share[seg];
    return USH_TP_OK;

err_close:
    close(fd);
err:
    ush_tp_set_error("sharing static data (%zu bytes): %m", size);
    return USH_TP_ERR_NOMEM;
}

/* A mapping of len bytes on a memfd of its own, shared like static data.
 * Huge pages first, when the system has reserved enough of them (the
 * reservation is taken at mmap, so a shortage shows there, not later as
 * a SIGBUS); otherwise ordinary pages. Either way the memory is backed
 * lazily, lives outside /dev/shm and System V's limits, and goes with the
 * last process that maps it: a killed job leaves nothing behind. */
ush_tp_status_t ush_tp_seg_create(int seg, size_t len, void **map_out)
{
    static const unsigned flags[] = { MFD_CLOEXEC | MFD_HUGETLB, MFD_CLOEXEC };

    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        size_t maplen = len;
        int    fd;
        void  *map = ush_tp_memfd_map("ushmem-heap", flags[i], &maplen, &fd);
        if (map == MAP_FAILED) continue; /* no huge pages to be had: ordinary ones */
        ush_tp.seg_share[seg] = (ush_tp_share_t){ .pid = (int32_t)getpid(), .fd = fd,
                                                  .offset = 0, .len = maplen };
        ush_tp.seg_owned[seg] = map;
        *map_out = map;
        return USH_TP_OK;
    }
    ush_tp_set_error("memfd of %zu bytes: %m", len);
    return USH_TP_ERR_NOMEM;
}

void ush_tp_seg_destroy(int seg)
{
    if (!ush_tp.seg_owned[seg]) return;
    munmap(ush_tp.seg_owned[seg], ush_tp.seg_share[seg].len);
    close(ush_tp.seg_share[seg].fd);
    ush_tp.seg_owned[seg] = NULL;
}

/* A descriptor of our own for the peer's memfd. pidfd_getfd (Linux 5.6)
 * copies it straight from the peer's table: 7-8 us a peer here, against
 * 20-30 us for a first open of /proc/<pid>/fd/<fd>, which builds three
 * procfs dentries on the way. It needs ptrace's attach permission, which
 * Yama's ptrace_scope=1 and some container profiles refuse; the /proc
 * path needs only read permission, so it stays the fallback, and the
 * first refusal makes it the only way for the rest of the process. */
static int ush_tp_share_fd(const ush_tp_share_t *sh)
{
    char path[64];

#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    static int no_getfd;
    if (!__atomic_load_n(&no_getfd, __ATOMIC_RELAXED)) {
        int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)sh->pid, 0);
        int fd    = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, (int)sh->fd, 0);
        int err   = errno;
        if (pidfd >= 0) close(pidfd);
        if (fd >= 0) return fd; /* pidfd_getfd sets close-on-exec */
        /* a kernel before 5.6, or a refusal: neither changes per peer */
        if (err == ENOSYS || err == EPERM || err == EACCES)
            __atomic_store_n(&no_getfd, 1, __ATOMIC_RELAXED);
    }
#endif
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)sh->pid, (int)sh->fd);
    return open(path, O_RDWR | O_CLOEXEC);
}

char *ush_tp_share_map(const ush_tp_share_t *sh)
{
    if (sh->len == 0) return NULL;
    int fd = ush_tp_share_fd(sh);
    if (fd < 0) return NULL; /* not permitted here: the peer stays on UCX */
    char *map = mmap(NULL, sh->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int   err = errno; /* the caller's message tells ENOMEM apart */
    close(fd);
    errno = err;
    return map == MAP_FAILED ? NULL : map;
}

char *ush_tp_share_attach(int pe, int seg)
{
    ush_tp_peer_t *peer = ush_tp_peer(pe);

    /* Mapped already when the peer was read ahead. */
    if (!peer->share_map[seg]) peer->share_map[seg] = ush_tp_share_map(&peer->share[seg]);
    return peer->share_map[seg] ? peer->share_map[seg] + peer->share[seg].offset : NULL;
}

/* UCX creates its System V segments (each worker's receive FIFO, when the
 * user's UCX_TLS brings back the sysv transport) with mode 0660, fixed in its source, and the shmid is all a member
 * of the job's group needs to attach one. Take the group's access away
 * from every segment this process created: peers of the job run as the
 * same user. Linux only (SHM_STAT walks the kernel's table); SysV IPC
 * ignores the umask, so there is no way to ask for 0600 up front. */
void ush_tp_private_sysv(void)
{
    struct shm_info info;
    int             max = shmctl(0, SHM_INFO, (struct shmid_ds *)&info);
    pid_t           me  = getpid();

    for (int i = 0; i <= max; i++) {
        struct shmid_ds ds;
        int             id = shmctl(i, SHM_STAT, &ds);
        if (id < 0 || ds.shm_cpid != me || (ds.shm_perm.mode & 077) == 0) continue;
        ds.shm_perm.mode &= ~077u;
        if (shmctl(id, IPC_SET, &ds) != 0) {
            /* %m, not strerror: another thread may be in strerror too */
            fprintf(stderr, "ushmem: PE %d: cannot make System V segment %d private (mode %o): %m\n",
                    ush_tp_job.rank, id, ds.shm_perm.mode);
        }
    }
}
