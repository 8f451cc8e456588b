/*
 * The hang report: from every PE's record (ush_hang.h), one line that
 * says what most PEs wait in and which PE it comes down to, then a line
 * per group of PEs in the same state. Built into the library
 * (SHMEM_HANG_REPORT) and into oshrun (--timeout, SIGURG), so it depends
 * on nothing but libc.
 *
 * The culprit is found by following "waits for" from the PEs of the
 * largest group of waiters (same routine, same call) until a PE outside
 * the group: in a dissemination barrier PE 3 may wait for PE 1, which
 * waits for PE 0, which is elsewhere; the report names PE 0.
 */
#include "ush_hang.h"

#include <stdlib.h>
#include <string.h>

/* Groups printed at most; the rest are counted. */
#define USH_HANG_GROUP_LINES 16

int ush_hang_rec_read(ush_hang_rec_t *dst, const volatile ush_hang_rec_t *src)
{
    for (int tries = 0; tries < 1000; tries++) {
        uint32_t s0 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
        if (s0 & 1) continue;
        memcpy(dst, (const void *)src, sizeof(*dst));
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&src->seq, __ATOMIC_RELAXED) == s0) {
            dst->routine[USH_HANG_NAME - 1] = '\0';
            return 0;
        }
    }
    return -1;
}

/* The members (in[pe] != 0) as "1-3, 5, 8-12" into buf, cut with "..."
 * when longer than the buffer. */
static const char *ush_hang_pe_list(const char *in, int n, char *buf, size_t len)
{
    size_t used = 0;
    int    count = 0;

    buf[0] = '\0';
    for (int pe = 0; pe < n; pe++) {
        if (!in[pe]) continue;
        int last = pe;
        while (last + 1 < n && in[last + 1]) last++;
        char item[32];
        if (last == pe) {
            snprintf(item, sizeof(item), "%s%d", count ? ", " : "", pe);
        } else {
            snprintf(item, sizeof(item), "%s%d-%d", count ? ", " : "", pe, last);
        }
        if (used + strlen(item) + 4 >= len) {
            snprintf(buf + used, len - used, ", ...");
            break;
        }
        used += (size_t)snprintf(buf + used, len - used, "%s", item);
        count += last - pe + 1;
        pe = last;
    }
    return buf;
}

static int ush_hang_count(const char *in, int n)
{
    int c = 0;
    for (int pe = 0; pe < n; pe++) c += in[pe] != 0;
    return c;
}

/* Which call: collectives are numbered, other routines say how many
 * collectives came before. */
static const char *ush_hang_when(const ush_hang_rec_t *r, char *buf, size_t len)
{
    unsigned long long call = (unsigned long long)r->call;

    if (r->flags & USH_HANG_F_COLL) {
        snprintf(buf, len, "call %llu", call);
    } else if (call) {
        snprintf(buf, len, "after collective call %llu", call);
    } else {
        snprintf(buf, len, "before any collective call");
    }
    return buf;
}

/* What a PE is doing, after "PE 3 " (plural 0) or "PEs 1-3 " (1). */
static const char *ush_hang_describe(const ush_hang_rec_t *r, int plural, char *buf, size_t len)
{
    const char *routine = r->routine[0] ? r->routine : "?";
    char        when[48];

    ush_hang_when(r, when, sizeof(when));
    switch ((ush_hang_state_t)r->state) {
    case USH_HANG_WAITING:
        if (r->waits_for >= 0) {
            snprintf(buf, len, "wait%s in %s (%s) for PE %d", plural ? "" : "s", routine, when,
                     r->waits_for);
        } else {
            snprintf(buf, len, "wait%s in %s (%s)", plural ? "" : "s", routine, when);
        }
        break;
    case USH_HANG_INSIDE:
        /* The wait is over; the PE may have left the routine since. */
        snprintf(buf, len, "%s not waiting (last in %s, %s)", plural ? "are" : "is", routine,
                 when);
        break;
    case USH_HANG_GONE:
        /* Where it was last says whether it left through shmem_finalize
         * (a finalize that met the others' barrier) or from elsewhere. */
        if (r->routine[0]) {
            snprintf(buf, len, "ha%s exited (last in %s, %s)", plural ? "ve" : "s", routine,
                     when);
        } else {
            snprintf(buf, len, "ha%s exited", plural ? "ve" : "s");
        }
        break;
    default:
        if (r->routine[0]) {
            snprintf(buf, len, "run%s outside the library (last in %s, %s)", plural ? "" : "s",
                     routine, when);
        } else {
            snprintf(buf, len, "run%s outside the library", plural ? "" : "s");
        }
        break;
    }
    return buf;
}

static int ush_hang_same_group(const ush_hang_rec_t *a, const ush_hang_rec_t *b)
{
    return a->state == b->state && (a->flags & USH_HANG_F_COLL) == (b->flags & USH_HANG_F_COLL) && a->call == b->call &&
           a->waits_for == b->waits_for &&
           strcmp(a->routine, b->routine) == 0;
}

/* Whether a waits in the same call as b (which waits), for whomever. */
static int ush_hang_same_wait(const ush_hang_rec_t *a, const ush_hang_rec_t *b)
{
    return a->state == USH_HANG_WAITING && (a->flags & USH_HANG_F_COLL) == (b->flags & USH_HANG_F_COLL) && a->call == b->call &&
           strcmp(a->routine, b->routine) == 0;
}

/* The largest group of waiting PEs with one routine and call: its first
 * member, or -1 when none waits. */
static int ush_hang_main_group(const ush_hang_rec_t *r, int n)
{
    int best = -1, best_count = 0;
    for (int pe = 0; pe < n; pe++) {
        if (r[pe].state != USH_HANG_WAITING) continue;
        int count = 0;
        for (int q = 0; q < n; q++) {
            count += ush_hang_same_wait(&r[q], &r[pe]);
        }
        if (count > best_count) best = pe, best_count = count;
    }
    return best;
}

void ush_hang_report_write(FILE *f, const char *prefix, const char *why,
                           const ush_hang_rec_t *r, int n)
{
    char *in = calloc((size_t)n, 2), *culprit = in ? in + n : NULL;
    char  list[256], desc[160];

    fprintf(f, "%shang report (%s):\n", prefix, why);
    if (in == NULL) return;

    int g = ush_hang_main_group(r, n);
    if (g >= 0) {
        for (int pe = 0; pe < n; pe++) {
            in[pe] = ush_hang_same_wait(&r[pe], &r[g]);
        }
        /* Follow "waits for" out of the group. */
        for (int pe = 0; pe < n; pe++) {
            int p = pe, steps = 0;
            if (!in[pe]) continue;
            while (r[p].waits_for >= 0 && r[p].waits_for < n && in[r[p].waits_for] &&
                   steps++ < n) {
                p = r[p].waits_for;
            }
            if (r[p].waits_for >= 0 && r[p].waits_for < n && !in[r[p].waits_for]) {
                culprit[r[p].waits_for] = 1;
            }
        }
        int ng = ush_hang_count(in, n), nc = ush_hang_count(culprit, n);
        char when[48];
        fprintf(f, "%sPE%s %s wait%s in %s (%s)", prefix, ng > 1 ? "s" : "",
                ush_hang_pe_list(in, n, list, sizeof(list)), ng > 1 ? "" : "s", r[g].routine,
                ush_hang_when(&r[g], when, sizeof(when)));
        if (nc == 1) {
            int c = 0;
            while (!culprit[c]) c++;
            fprintf(f, " for PE %d, which %s\n", c, ush_hang_describe(&r[c], 0, desc, sizeof(desc)));
        } else if (nc > 1) {
            fprintf(f, " for PEs %s\n", ush_hang_pe_list(culprit, n, list, sizeof(list)));
        } else if (ng < n) {
            /* Nobody said whom it waits for: name those not in the group. */
            for (int pe = 0; pe < n; pe++) culprit[pe] = !in[pe];
            fprintf(f, "; not in it: PE%s %s\n", n - ng > 1 ? "s" : "",
                    ush_hang_pe_list(culprit, n, list, sizeof(list)));
        } else {
            fprintf(f, ", every PE of the job\n");
        }
    }

    /* One line per group of PEs in the same state. */
    memset(in, 0, (size_t)n); /* in[pe]: printed */
    int lines = 0, left = 0;
    for (int pe = 0; pe < n; pe++) {
        if (in[pe]) continue;
        memset(culprit, 0, (size_t)n);
        uint32_t waited = 0;
        for (int q = pe; q < n; q++) {
            if (!in[q] && ush_hang_same_group(&r[q], &r[pe])) {
                in[q] = culprit[q] = 1;
                if (r[q].waited_ms > waited) waited = r[q].waited_ms;
            }
        }
        if (lines++ >= USH_HANG_GROUP_LINES) {
            left++;
            continue;
        }
        int k = ush_hang_count(culprit, n);
        fprintf(f, "%s  PE%s %s %s", prefix, k > 1 ? "s" : "",
                ush_hang_pe_list(culprit, n, list, sizeof(list)),
                ush_hang_describe(&r[pe], k > 1, desc, sizeof(desc)));
        if (r[pe].state == USH_HANG_WAITING && waited > 0) { /* 0: not timed */
            fprintf(f, ", for %.1f s%s", waited / 1000.0, k > 1 ? " at most" : "");
        }
        fputc('\n', f);
    }
    if (left) fprintf(f, "%s  (%d more groups)\n", prefix, left);
    fflush(f);
    free(in);
}
