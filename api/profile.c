/*
 * The job profile (ush_profile.h): counting on each PE, and at the last
 * shmem_finalize the report, written by PE 0 from every PE's counts.
 *
 * What is counted, per routine and PE:
 *   calls  every call (a nested public routine is not counted again);
 *   time   wall-clock time from entry to return, waits included;
 *   bytes  RMA and signals: the data moved; atomics: the operand's size;
 *          collectives: nelems times the element size, as passed on that
 *          PE; shmem_malloc and co.: the size asked for.
 * And per peer, for the one-sided routines (RMA, atomics, signals): the
 * bytes each PE's calls moved to or from it, counted where the call was
 * made. And how the PE's waits spent their time (the "(waits)" rows,
 * from the transport's count): yields, naps, the naps a peer's signal
 * ended, yields that lost the core and the holds they began; that time
 * is already the routines', so it is not added to the library's.
 *
 * Gathering goes through PMIx, not the symmetric heap: each PE publishes
 * its counts as one blob (a fence), and PE 0 reads them all. That works
 * the same under oshrun, srun and mpirun, whatever state the program left
 * the heap in.
 *
 * The report (SHMEM_PROFILE_FILE, default ushmem-profile.txt, in the
 * working directory of PE 0): the routines sorted by time, with calls,
 * bytes, time and its spread over the PEs; next to it <base>-matrix.csv
 * (PE x PE bytes) and, when gnuplot is on PATH, <base>-matrix.png (a heat
 * map of it) and <base>-time.png (time per routine).
 */

#include "ush_profile.h"
#include "core/ush.h"
#include "transport/ush_tp.h"

#include <fcntl.h>

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int ush_prof_on;

/* Routines a PE calls: an open-addressing table keyed by the address of
 * the routine's name (a literal: one address per routine, so no string is
 * compared while counting). A program calls a few dozen routines; a full
 * table counts the rest under one slot. */
#define USH_PROF_SLOTS    1024
#define USH_PROF_OVERFLOW "(other routines)"

struct ush_prof_slot {
    const char *name;
    uint64_t    calls, bytes, ns;
};

static struct ush_prof_slot ush_prof_slots[USH_PROF_SLOTS + 1];

/* Rows for what the waits did inside the routines (the transport's
 * count): their time is part of those routines', so it is not added to
 * the library's again. Names are literals: the table's keys. */
#define USH_PROF_WAITS "(waits) "
static int ush_prof_is_wait(const char *name)
{
    return strncmp(name, USH_PROF_WAITS, sizeof(USH_PROF_WAITS) - 1) == 0;
}

static uint64_t            *ush_prof_peer; /* [n_pes] bytes to or from each peer */
static int                  ush_prof_npes;
static uint64_t             ush_prof_t_start; /* shmem_init entered */
static int                  ush_prof_paused;  /* shmem_pcontrol(0) */

/* The calling thread's scope: how deep it is in counted routines, and the
 * outermost one's counters (NULL while paused) and start. */
static __thread struct {
    struct ush_prof_slot *slot;
    uint64_t              t0;
    int                   depth;
} ush_prof_cur;

uint64_t ush_prof_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct ush_prof_slot *ush_prof_slot_of(const char *name)
{
    uintptr_t h = ((uintptr_t)name >> 3) * 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < USH_PROF_SLOTS; i++) {
        struct ush_prof_slot *s   = &ush_prof_slots[(h + i) % USH_PROF_SLOTS];
        const char           *cur = __atomic_load_n(&s->name, __ATOMIC_ACQUIRE);
        if (cur == name) return s;
        if (cur == NULL) {
            /* threads of one PE may claim a slot at once */
            if (__atomic_compare_exchange_n(&s->name, &cur, name, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE) ||
                cur == name)
                return s;
        }
    }
    ush_prof_slots[USH_PROF_SLOTS].name = USH_PROF_OVERFLOW;
    return &ush_prof_slots[USH_PROF_SLOTS];
}

void ush_prof_enter(const char *routine)
{
    if (ush_prof_cur.depth++ > 0) return; /* inside another counted routine */
    if (__atomic_load_n(&ush_prof_paused, __ATOMIC_RELAXED)) {
        ush_prof_cur.slot = NULL;
        return;
    }
    struct ush_prof_slot *s = ush_prof_slot_of(routine);
    __atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
    ush_prof_cur.slot = s;
    ush_prof_cur.t0   = ush_prof_now();
}

void ush_prof_leave(void)
{
    /* depth 0: a scope opened before the profile started */
    if (ush_prof_cur.depth <= 0 || --ush_prof_cur.depth > 0 || !ush_prof_cur.slot) return;
    __atomic_fetch_add(&ush_prof_cur.slot->ns, ush_prof_now() - ush_prof_cur.t0,
                       __ATOMIC_RELAXED);
    ush_prof_cur.slot = NULL;
}

void ush_prof_add(size_t bytes, int world_pe)
{
    /* the outermost routine's own bytes, not those of a routine it calls */
    if (ush_prof_cur.depth != 1 || !ush_prof_cur.slot) return;
    __atomic_fetch_add(&ush_prof_cur.slot->bytes, (uint64_t)bytes, __ATOMIC_RELAXED);
    if (world_pe >= 0 && world_pe < ush_prof_npes)
        __atomic_fetch_add(&ush_prof_peer[world_pe], (uint64_t)bytes, __ATOMIC_RELAXED);
}

/* Scopes that close on return do not fit start-up and tear-down, which are
 * counted here under their routines' names. */
static void ush_prof_count(const char *name, uint64_t ns)
{
    struct ush_prof_slot *s = ush_prof_slot_of(name);
    s->calls++;
    s->ns += ns;
}

void ush_prof_init(uint64_t t_start)
{
    ush_prof_on = 0;
    free(ush_prof_peer);
    ush_prof_peer = NULL;
    memset(ush_prof_slots, 0, sizeof(ush_prof_slots));
    if (!ush_g.env.profile) return;
    ush_prof_npes = ush_g.n_pes;
    ush_prof_peer = calloc((size_t)ush_prof_npes, sizeof(*ush_prof_peer));
    if (!ush_prof_peer) ush_fatal("shmem_init", "SHMEM_PROFILE: out of memory for %d PEs' counts",
                                  ush_prof_npes);
    ush_prof_t_start   = t_start;
    ush_prof_paused    = 0;
    ush_prof_cur.depth = 0;
    ush_prof_on        = 1;
}

void ush_prof_control(int level)
{
    __atomic_store_n(&ush_prof_paused, level == 0, __ATOMIC_RELAXED);
}

void ush_prof_init_done(void)
{
    if (ush_prof_on) ush_prof_count("shmem_init", ush_prof_now() - ush_prof_t_start);
}

/* ---- One PE's counts as a blob ---------------------------------------------
 * Native byte order (every PE of a job runs the same program):
 *   u32 magic, u32 routines, u32 peers, u32 pad, u64 job_ns,
 *   per routine: u64 calls, u64 bytes, u64 ns, u32 name length, name,
 *   per peer with bytes: u32 pe, u64 bytes. */
#define USH_PROF_MAGIC 0x50485355u /* "USHP" */

typedef struct {
    char  *buf;
    size_t len, cap;
} ush_prof_buf_t;

static int ush_prof_put(ush_prof_buf_t *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n) cap *= 2;
        char *nb = realloc(b->buf, cap);
        if (!nb) return -1;
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, p, n);
    b->len += n;
    return 0;
}

static int ush_prof_pack(ush_prof_buf_t *b, uint64_t job_ns)
{
    uint32_t nroutines = 0, npeers = 0, pad = 0;
    for (unsigned i = 0; i <= USH_PROF_SLOTS; i++) nroutines += ush_prof_slots[i].name != NULL;
    for (int p = 0; p < ush_prof_npes; p++) npeers += ush_prof_peer[p] != 0;
    uint32_t magic = USH_PROF_MAGIC;
    int      bad   = ush_prof_put(b, &magic, 4) | ush_prof_put(b, &nroutines, 4) |
              ush_prof_put(b, &npeers, 4) | ush_prof_put(b, &pad, 4) | ush_prof_put(b, &job_ns, 8);
    for (unsigned i = 0; i <= USH_PROF_SLOTS; i++) {
        const struct ush_prof_slot *s = &ush_prof_slots[i];
        if (!s->name) continue;
        uint32_t len = (uint32_t)strlen(s->name);
        bad |= ush_prof_put(b, &s->calls, 8) | ush_prof_put(b, &s->bytes, 8) |
               ush_prof_put(b, &s->ns, 8) | ush_prof_put(b, &len, 4) |
               ush_prof_put(b, s->name, len);
    }
    for (int p = 0; p < ush_prof_npes; p++) {
        if (!ush_prof_peer[p]) continue;
        uint32_t pe = (uint32_t)p;
        bad |= ush_prof_put(b, &pe, 4) | ush_prof_put(b, &ush_prof_peer[p], 8);
    }
    return bad;
}

/* ---- The report (PE 0) ------------------------------------------------------ */

typedef struct {
    char     *name;
    uint64_t  calls, bytes, ns;
    uint64_t *pe_ns; /* [npes] */
} ush_prof_row_t;

typedef struct {
    int             npes;
    ush_prof_row_t *rows;
    size_t          nrows, cap;
    uint64_t       *job_ns;  /* [npes] */
    uint64_t       *lib_ns;  /* [npes] time inside the library */
    FILE           *csv;     /* written row by row, PE by PE */
    char           *base, *csv_name;
    uint64_t        peer_min, peer_max; /* the smallest non-empty cell, the largest */
    int             bad;     /* a blob did not parse, or a write failed */
} ush_prof_report_t;

static ush_prof_row_t *ush_prof_row(ush_prof_report_t *r, const char *name, size_t len)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (strlen(r->rows[i].name) == len && memcmp(r->rows[i].name, name, len) == 0)
            return &r->rows[i];
    if (r->nrows == r->cap) {
        size_t          cap  = r->cap ? r->cap * 2 : 64;
        ush_prof_row_t *rows = realloc(r->rows, cap * sizeof(*rows));
        if (!rows) return NULL;
        r->rows = rows;
        r->cap  = cap;
    }
    ush_prof_row_t *row = &r->rows[r->nrows];
    *row                = (ush_prof_row_t){ .name = strndup(name, len),
                                            .pe_ns = calloc((size_t)r->npes, sizeof(uint64_t)) };
    if (!row->name || !row->pe_ns) return NULL;
    r->nrows++;
    return row;
}

#define USH_PROF_GET(dst, n)                                                  \
    do {                                                                      \
        if (off + (n) > len) return -1;                                       \
        memcpy((dst), p + off, (n));                                          \
        off += (n);                                                           \
    } while (0)

/* Add one PE's blob to the report and write its row of the matrix. */
static int ush_prof_unpack(ush_prof_report_t *r, int pe, const char *p, size_t len)
{
    size_t   off = 0;
    uint32_t magic, nroutines, npeers, pad;
    uint64_t job_ns;
    USH_PROF_GET(&magic, 4);
    USH_PROF_GET(&nroutines, 4);
    USH_PROF_GET(&npeers, 4);
    USH_PROF_GET(&pad, 4);
    USH_PROF_GET(&job_ns, 8);
    if (magic != USH_PROF_MAGIC) return -1;
    r->job_ns[pe] = job_ns;
    for (uint32_t i = 0; i < nroutines; i++) {
        uint64_t calls, bytes, ns;
        uint32_t nlen;
        USH_PROF_GET(&calls, 8);
        USH_PROF_GET(&bytes, 8);
        USH_PROF_GET(&ns, 8);
        USH_PROF_GET(&nlen, 4);
        if (off + nlen > len) return -1;
        ush_prof_row_t *row = ush_prof_row(r, p + off, nlen);
        off += nlen;
        if (!row) return -1;
        row->calls += calls;
        row->bytes += bytes;
        row->ns += ns;
        row->pe_ns[pe] += ns;
        if (!ush_prof_is_wait(row->name)) r->lib_ns[pe] += ns;
    }
    /* the peers come in increasing order: one pass writes the row */
    fprintf(r->csv, "%d", pe);
    int next = 0;
    for (uint32_t i = 0; i < npeers; i++) {
        uint32_t peer;
        uint64_t bytes;
        USH_PROF_GET(&peer, 4);
        USH_PROF_GET(&bytes, 8);
        if ((int)peer < next || (int)peer >= r->npes) return -1;
        for (; next < (int)peer; next++) fputs(",0", r->csv);
        fprintf(r->csv, ",%llu", (unsigned long long)bytes);
        if (bytes > r->peer_max) r->peer_max = bytes;
        if (bytes && (!r->peer_min || bytes < r->peer_min)) r->peer_min = bytes;
        next++;
    }
    for (; next < r->npes; next++) fputs(",0", r->csv);
    fputc('\n', r->csv);
    return 0;
}

static int ush_prof_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int ush_prof_cmp_rows(const void *a, const void *b)
{
    const ush_prof_row_t *x = a, *y = b;
    if (x->ns != y->ns) return x->ns < y->ns ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* min, median and max of v[n] (sorted in place), in seconds */
static void ush_prof_spread(uint64_t *v, int n, double out[3])
{
    qsort(v, (size_t)n, sizeof(*v), ush_prof_cmp_u64);
    double med = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
    out[0]     = (double)v[0] * 1e-9;
    out[1]     = med * 1e-9;
    out[2]     = (double)v[n - 1] * 1e-9;
}

static void ush_prof_write_table(ush_prof_report_t *r, FILE *f, const char *csv_name)
{
    uint64_t total_ns = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        if (!ush_prof_is_wait(r->rows[i].name)) total_ns += r->rows[i].ns;
    }
    double job[3], lib[3];
    ush_prof_spread(r->job_ns, r->npes, job);
    ush_prof_spread(r->lib_ns, r->npes, lib);

    fprintf(f, "# ushmem %s profile of a job of %d PE%s on %d node%s\n", USH_VERSION_STRING,
            r->npes, r->npes == 1 ? "" : "s", ush_tp_job.num_nodes,
            ush_tp_job.num_nodes == 1 ? "" : "s");
    fprintf(f, "# job time (shmem_init to shmem_finalize), s per PE: min %.6f, median %.6f, max %.6f\n",
            job[0], job[1], job[2]);
    fprintf(f, "# time inside the library, s per PE:               min %.6f, median %.6f, max %.6f\n",
            lib[0], lib[1], lib[2]);
    fprintf(f, "#\n# calls, bytes and time: sums over all PEs; min/median/max: one PE's time in the\n"
               "# routine, over all PEs (0 for a PE that did not call it); %%time: share of the\n"
               "# library time of all PEs. bytes: RMA and signals the data moved, atomics the\n"
               "# operand size, collectives nelems x element size as passed on each PE, memory\n"
               "# the size asked for. Bytes per pair of PEs: %s.\n#\n",
            csv_name);
    fprintf(f, "%-36s %12s %16s %12s %12s %12s %12s %7s\n", "routine", "calls", "bytes", "time(s)",
            "min(s)", "median(s)", "max(s)", "%time");
    qsort(r->rows, r->nrows, sizeof(*r->rows), ush_prof_cmp_rows);
    for (size_t i = 0; i < r->nrows; i++) {
        ush_prof_row_t *row = &r->rows[i];
        double          sp[3];
        ush_prof_spread(row->pe_ns, r->npes, sp);
        fprintf(f, "%-36s %12llu %16llu %12.6f %12.6f %12.6f %12.6f %7.2f\n", row->name,
                (unsigned long long)row->calls, (unsigned long long)row->bytes,
                (double)row->ns * 1e-9, sp[0], sp[1], sp[2],
                total_ns ? 100.0 * (double)row->ns / (double)total_ns : 0.0);
    }
}

/* gnuplot on PATH, or NULL */
static char *ush_prof_find_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = strdup(path), *save = NULL, *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && copy; dir = strtok_r(NULL, ":", &save)) {
        char *cand;
        if (asprintf(&cand, "%s/gnuplot", *dir ? dir : ".") < 0) break;
        if (access(cand, X_OK) == 0) {
            found = cand;
            break;
        }
        free(cand);
    }
    free(copy);
    return found;
}

/* A value gnuplot reads inside single quotes. */
static void ush_prof_gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f); /* '' is a quote inside '...' */
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* The heat map and the bar chart. gnuplot runs with a deadline: a report
 * must never hold the job's end up for long. */
static void ush_prof_plot(ush_prof_report_t *r, const char *base, const char *csv_name)
{
    char *gnuplot = ush_prof_find_gnuplot();
    if (!gnuplot) return;
    char script[] = "/tmp/ushmem-profile-XXXXXX";
    int  fd       = mkstemp(script);
    if (fd < 0) {
        free(gnuplot);
        return;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(script);
        free(gnuplot);
        return;
    }
    char *png = NULL;
    int   px  = r->npes < 64 ? 640 : 960;
    fprintf(f, "set terminal pngcairo noenhanced size %d,%d font ',10'\n", px + 160, px);
    if (asprintf(&png, "%s-matrix.png", base) < 0) png = NULL;
    fputs("set output ", f);
    ush_prof_gp_quote(f, png ? png : "ushmem-profile-matrix.png");
    fprintf(f, "\nset title 'Bytes moved by one-sided routines, %d PE%s'\n"
               "set xlabel 'peer PE'\nset ylabel 'calling PE'\n"
               "set datafile separator ','\nset size ratio -1\n"
               "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
               "set cblabel 'bytes'\nset palette defined (0 '#fdd49e', 1 '#fc8d59', 2 '#d7301f', 3 '#7f0000')\n"
               "set tics out\n",
            r->npes, r->npes == 1 ? "" : "s", r->npes - 1, r->npes - 1);
    /* Cells span orders of magnitude (a few atomics beside bulk puts): a
     * log scale shows both; an empty cell is then undefined, left blank. */
    if (r->peer_max > 0)
        fprintf(f, "set logscale cb\nset format cb '%%.0s %%cB'\nset cbrange [%g:%g]\n",
                (double)r->peer_min / 2, (double)r->peer_max * (r->peer_max > r->peer_min ? 1 : 2));
    else
        fputs("set cbrange [0:1]\n", f);
    if (r->npes <= 32) fputs("set xtics 1\nset ytics 1\n", f);
    fputs("plot ", f);
    ush_prof_gp_quote(f, csv_name);
    /* an image needs a grid of 2 x 2 at least: one PE gets a box */
    fputs(r->npes > 1 ? " matrix rowheaders columnheaders using 1:2:($3 > 0 ? $3 : NaN) "
                        "with image notitle\n"
                      : " matrix rowheaders columnheaders using 1:2:(0.5):(0.5):"
                        "($3 > 0 ? $3 : NaN) with boxxyerror fs solid noborder fc palette "
                        "notitle\n",
          f);
    free(png);

    /* time per routine: the 20 largest, the most costly on top */
    size_t n = r->nrows < 20 ? r->nrows : 20;
    fputs("$time << EOD\n", f);
    for (size_t i = n; i-- > 0;)
        fprintf(f, "\"%s\" %.9f\n", r->rows[i].name, (double)r->rows[i].ns * 1e-9 / r->npes);
    fputs("EOD\n", f);
    if (asprintf(&png, "%s-time.png", base) < 0) png = NULL;
    fprintf(f, "reset\nset terminal pngcairo noenhanced size 900,%zu font ',10'\nset output ", 160 + 22 * n);
    ush_prof_gp_quote(f, png ? png : "ushmem-profile-time.png");
    fprintf(f, "\nset title 'Time inside the library per routine, mean over %d PE%s'\n"
               "set xlabel 'seconds per PE'\nset style fill solid 0.8 noborder\n"
               "set ytics nomirror\nset grid xtics\nset yrange [-0.7:%zu.7]\nset xrange [0:*]\n"
               "unset key\nplot $time using ($2*0.5):0:($2*0.5):(0.35):yticlabels(1) with boxxyerror lc rgb '#3b6ea8'\n",
            r->npes, r->npes == 1 ? "" : "s", n ? n - 1 : 0);
    free(png);
    fclose(f);

    char       *argv[] = { gnuplot, script, NULL };
    pid_t       pid;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ) == 0) {
        int      status = 0;
        uint64_t end    = ush_prof_now() + 30ull * 1000000000u;
        while (waitpid(pid, &status, WNOHANG) == 0) {
            if (ush_prof_now() > end) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                ush_warn("shmem_finalize", "SHMEM_PROFILE: gnuplot took over 30 s, stopped: "
                                           "no plots");
                break;
            }
            usleep(10000);
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
            ush_warn("shmem_finalize", "SHMEM_PROFILE: gnuplot failed (status %d): "
                                       "the plots may be missing",
                     WEXITSTATUS(status));
    }
    posix_spawn_file_actions_destroy(&fa);
    unlink(script);
    free(gnuplot);
}

static int ush_prof_collect_one(int pe, const void *blob, size_t len, void *arg)
{
    ush_prof_report_t *r = arg;
    if (r->bad) return 1;
    if (ush_prof_unpack(r, pe, blob, len) != 0) {
        ush_warn("shmem_finalize", "SHMEM_PROFILE: the counts of PE %d are unreadable: no report",
                 pe);
        r->bad = 1;
    }
    return r->bad;
}

/* PE 0: the report's parts that come before the counts. */
static int ush_prof_report_open(ush_prof_report_t *r)
{
    const char *file = ush_g.env.profile_file;
    size_t      flen = strlen(file);
    *r               = (ush_prof_report_t){ .npes = ush_g.n_pes };
    /* <base>: the report's name without .txt */
    r->base = strndup(file, flen > 4 && strcmp(file + flen - 4, ".txt") == 0 ? flen - 4 : flen);
    if (!r->base || asprintf(&r->csv_name, "%s-matrix.csv", r->base) < 0) r->csv_name = NULL;
    r->job_ns = calloc((size_t)r->npes, sizeof(uint64_t));
    r->lib_ns = calloc((size_t)r->npes, sizeof(uint64_t));
    if (!r->base || !r->csv_name || !r->job_ns || !r->lib_ns) {
        ush_warn("shmem_finalize", "SHMEM_PROFILE: out of memory: no report");
        return -1;
    }
    r->csv = fopen(r->csv_name, "w");
    if (!r->csv) {
        ush_warn("shmem_finalize", "SHMEM_PROFILE: cannot write %s: %s: no report", r->csv_name,
                 strerror(errno));
        return -1;
    }
    fputs("pe", r->csv);
    for (int p = 0; p < r->npes; p++) fprintf(r->csv, ",%d", p);
    fputc('\n', r->csv);
    return 0;
}

/* PE 0, every PE's counts read: the table and the plots. */
static void ush_prof_report_close(ush_prof_report_t *r)
{
    const char *file = ush_g.env.profile_file;
    if (r->csv && fclose(r->csv) != 0 && !r->bad) {
        ush_warn("shmem_finalize", "SHMEM_PROFILE: writing %s failed: %s", r->csv_name,
                 strerror(errno));
        r->bad = 1;
    }
    if (r->csv && !r->bad) {
        FILE *f = fopen(file, "w");
        if (!f) {
            ush_warn("shmem_finalize", "SHMEM_PROFILE: cannot write %s: %s", file, strerror(errno));
        } else {
            ush_prof_write_table(r, f, r->csv_name);
            if (fclose(f) != 0)
                ush_warn("shmem_finalize", "SHMEM_PROFILE: writing %s failed: %s", file,
                         strerror(errno));
            else
                ush_prof_plot(r, r->base, r->csv_name);
        }
    }
    for (size_t i = 0; i < r->nrows; i++) {
        free(r->rows[i].name);
        free(r->rows[i].pe_ns);
    }
    free(r->rows);
    free(r->job_ns);
    free(r->lib_ns);
    free(r->csv_name);
    free(r->base);
}

/* The "(waits)" rows (USH_PROF_WAITS, above). */
static void ush_prof_count_waits(void)
{
    ush_tp_idle_stats_t w;
    ush_tp_idle_stats(&w);
    const struct {
        const char *name;
        uint64_t    calls, ns;
    } rows[] = {
        { USH_PROF_WAITS "yields", w.yields, w.yield_ns },
        { USH_PROF_WAITS "yields that lost the core", w.yields_lost, 0 },
        { USH_PROF_WAITS "holds (nap or spin)", w.holds, 0 },
        { USH_PROF_WAITS "naps", w.naps, w.nap_ns },
        { USH_PROF_WAITS "naps a peer's signal ended", w.naps_rung, 0 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (rows[i].calls == 0) continue;
        struct ush_prof_slot *s = ush_prof_slot_of(rows[i].name);
        s->calls += rows[i].calls;
        s->ns += rows[i].ns;
    }
}

void ush_prof_finalize(uint64_t t_finalize_start)
{
    if (!ush_prof_on) return;
    ush_prof_on = 0;
    uint64_t now = ush_prof_now();
    ush_prof_count("shmem_finalize", now - t_finalize_start);
    ush_prof_count_waits();

    ush_prof_buf_t b = { 0 };
    if (ush_prof_pack(&b, now - ush_prof_t_start) != 0)
        ush_fatal("shmem_finalize", "SHMEM_PROFILE: out of memory for the counts");
    /* PE 0 takes part in the gather even when it cannot write the report:
     * the others wait for it there. */
    ush_prof_report_t r;
    int               root = ush_g.my_pe == 0;
    if (root && ush_prof_report_open(&r) != 0) r.bad = 1;
    if (ush_tp_gather("ush.prof", b.buf, b.len, 0, ush_prof_collect_one, &r) != USH_TP_OK &&
        root && !r.bad) {
        ush_warn("shmem_finalize", "SHMEM_PROFILE: gathering the counts failed (%s): no report",
                 ush_tp_strerror());
        r.bad = 1;
    }
    if (root) ush_prof_report_close(&r);
    free(b.buf);
    free(ush_prof_peer);
    ush_prof_peer = NULL;
}
