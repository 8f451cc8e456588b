/*
 * This PE's hang record (ush_hang.h): written by its long waits, read by
 * peers for SHMEM_HANG_REPORT and by oshrun through the state file.
 */
#include "ush.h"
#include "ush_hang.h"
#include "ush_rma.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

__thread const char *ush_hang_routine;
__thread int         ush_hang_peer = -1;
__thread int         ush_hang_in_coll;
uint64_t             ush_hang_calls;

static ush_hang_rec_t *ush_hang_sym;  /* symmetric: this PE's, at the same offset on every PE */
static ush_hang_rec_t *ush_hang_file; /* oshrun's state file, mapped; NULL elsewhere */
static size_t          ush_hang_file_bytes;
static int             ush_hang_reported; /* SHMEM_HANG_REPORT: 1 looked, 2 printed */

void ush_hang_init(void)
{
    ush_hang_sym = ush_symm_internal_alloc(sizeof(*ush_hang_sym));
    memset(ush_hang_sym, 0, sizeof(*ush_hang_sym));
    ush_hang_calls    = 0;
    ush_hang_reported = 0;

    /* oshrun made the file, n records long, before it started any PE. */
    const char *path = getenv(USH_HANG_STATE_FILE_ENV);
    int         fd   = path ? open(path, O_RDWR | O_CLOEXEC) : -1;
    struct stat st;
    size_t      bytes = (size_t)ush_g.n_pes * sizeof(ush_hang_rec_t);
    if (fd < 0) return;
    /* A file of another job's size would fault past its end: not ours. */
    void *map = fstat(fd, &st) == 0 && (size_t)st.st_size == bytes
                    ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                    : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED) return;
    ush_hang_file       = (ush_hang_rec_t *)map + ush_g.my_pe;
    ush_hang_file_bytes = bytes;
}

void ush_hang_fini(void)
{
    ush_hang_sym = NULL; /* the heap goes away */
    ush_hang_peer = -1;
    ush_hang_publish(USH_HANG_WAITING, 0);
}

void ush_hang_fini_file(void)
{
    if (ush_hang_file) {
        munmap(ush_hang_file - ush_g.my_pe, ush_hang_file_bytes);
        ush_hang_file = NULL;
    }
}

/* A sequence lock: odd while written. Threads of one PE may publish at
 * once; the one that makes seq odd writes, the other waits its turn. */
static void ush_hang_write(ush_hang_rec_t *dst, const ush_hang_rec_t *src)
{
    uint32_t seq = __atomic_load_n(&dst->seq, __ATOMIC_RELAXED);
    do {
        while (seq & 1) seq = __atomic_load_n(&dst->seq, __ATOMIC_RELAXED);
    } while (!__atomic_compare_exchange_n(&dst->seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE,
                                          __ATOMIC_RELAXED));
    __atomic_thread_fence(__ATOMIC_RELEASE);
    memcpy((char *)dst + sizeof(dst->seq), (const char *)src + sizeof(src->seq),
           sizeof(*src) - sizeof(src->seq));
    __atomic_store_n(&dst->seq, seq + 2, __ATOMIC_RELEASE);
}

/* Every PE's record: loads where mapped, gets elsewhere. */
static void ush_hang_gather(ush_hang_rec_t *out)
{
    int remote = 0;
    for (int pe = 0; pe < ush_g.n_pes; pe++) {
        const ush_hang_rec_t *r = ush_ptr(ush_hang_sym, pe);
        if (r == NULL) {
            ush_get_nbi(SHMEM_CTX_DEFAULT, &out[pe], ush_hang_sym, sizeof(*out), pe);
            remote = 1;
        } else if (ush_hang_rec_read(&out[pe], r) != 0) {
            memcpy(&out[pe], (const void *)r, sizeof(*out));
        }
    }
    if (remote) ush_quiet(SHMEM_CTX_DEFAULT);
    for (int pe = 0; pe < ush_g.n_pes; pe++) out[pe].routine[USH_HANG_NAME - 1] = '\0';
}

/* SHMEM_HANG_REPORT: this wait has made no progress for that long. The
 * report comes from the lowest PE that has waited as long, so one prints
 * it (two may, where their waits crossed the line at once); the wait goes
 * on. */
static void ush_hang_check_report(uint32_t waited_ms)
{
    long limit_s = ush_g.env.hang_report;

    if (limit_s <= 0 || waited_ms < (uint64_t)limit_s * 1000 ||
        __atomic_exchange_n(&ush_hang_reported, 1, __ATOMIC_RELAXED)) {
        return;
    }
    ush_hang_rec_t *all = calloc((size_t)ush_g.n_pes, sizeof(*all));
    if (all == NULL) return;
    ush_hang_gather(all);
    for (int pe = 0; pe < ush_g.n_pes; pe++) {
        if ((all[pe].flags & USH_HANG_F_REPORTED) ||
            (pe < ush_g.my_pe && all[pe].state == USH_HANG_WAITING &&
             all[pe].waited_ms >= limit_s * 1000)) {
            free(all);
            return;
        }
    }
    ush_hang_reported = 2;
    ush_hang_publish(USH_HANG_WAITING, waited_ms); /* others: printed */

    /* One write, so that the lines of two PEs' reports do not mix. */
    char  *text = NULL, why[128];
    size_t len  = 0;
    FILE  *mem  = open_memstream(&text, &len);
    snprintf(why, sizeof(why), "PE %d has waited %ld s: SHMEM_HANG_REPORT=%ld; the job goes on",
             ush_g.my_pe, limit_s, limit_s);
    if (mem != NULL) {
        ush_hang_report_write(mem, "ushmem: ", why, all, ush_g.n_pes);
        fclose(mem);
        if (write(2, text, len) < 0) { /* nowhere to say so */
        }
        free(text);
    }
    free(all);
}

void ush_hang_publish(ush_hang_state_t state, uint32_t waited_ms)
{
    ush_hang_rec_t rec = { .waits_for = state == USH_HANG_WAITING ? ush_hang_peer : -1,
                           .state     = state,
                           .flags     = (uint16_t)((ush_hang_in_coll ? USH_HANG_F_COLL : 0) |
                                                   (ush_hang_reported == 2 ? USH_HANG_F_REPORTED : 0)),
                           .waited_ms = waited_ms,
                           .call      = __atomic_load_n(&ush_hang_calls, __ATOMIC_RELAXED) };
    if (ush_hang_routine) { /* snprintf's cost, on every long wait: no */
        size_t len = strnlen(ush_hang_routine, sizeof(rec.routine) - 1);
        memcpy(rec.routine, ush_hang_routine, len);
    }

    if (ush_hang_sym) ush_hang_write(ush_hang_sym, &rec);
    if (ush_hang_file) ush_hang_write(ush_hang_file, &rec);
    if (state == USH_HANG_WAITING) ush_hang_check_report(waited_ms);
}
