/*
 * shbench: OSU-style OpenSHMEM microbenchmarks, OpenSHMEM 1.4 API only, so
 * ushmem's and Open MPI's oshcc build the same source (bench/suite.sh runs
 * both and compares). PE 0 prints '#' comments and CSV lines
 *   bench,target,npes,bytes,iters,usec,mbps,usec_max
 * Run `shbench --help` for the options.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shbench.h"
#include "timer.h"

/* The static target: global arrays in .bss, symmetric by the standard. */
static char s_src[SB_BUF] __attribute__((aligned(SB_ALIGN)));
static char s_dst[SB_BUF] __attribute__((aligned(SB_ALIGN)));
static long s_ctr, s_flag;
static long s_psync[2][SB_PSYNC_LEN];
static long s_pwrk[2][SB_PWRK_LEN];
/* Driver state: PE 0 hands out the iteration count through this. */
static long sb_iters_box;

struct sb_opts {
    char benches[256];  /* comma-separated names, "" for all */
    int heap, stat;     /* targets */
    size_t min, max;    /* size range, bytes */
    double point_us;    /* time per point the iteration count aims at */
    long iters;         /* > 0: fixed count, no calibration */
    int check;          /* few iterations, a few sizes */
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: shbench [options]   (run under oshrun; any number of PEs)\n"
            "  -b, --bench LIST    comma-separated benchmarks (default: all):\n"
            "                      put,get,put_bar,p,g,put_nbi,get_nbi,fadd,add,cswap,\n"
            "                      pingpong,barrier,bcast,reduce,reduce_float,\n"
            "                      reduce_double,collect,fcollect,alltoall,\n"
            "                      bcast_iso,reduce_float_iso,alltoall_iso (OSU's method:\n"
            "                      a barrier before each call, only the call timed)\n"
            "  -m, --mem T         target memory: heap, static or both (default both)\n"
            "  -s, --sizes MIN:MAX size range in bytes, powers of two, k/m suffixes\n"
            "                      (default 8:4m; p, g, fadd, add, cswap, barrier: 8 only)\n"
            "  -t, --time MS       aim each point at about MS ms of timed loop (default 20)\n"
            "  -n, --iters N       fixed iterations per point instead of -t\n"
            "      --check         correctness run: 10 iterations of 8 B, 4 KiB and 1 MiB\n"
            "  -h, --help          this text\n"
            "Point-to-point: PEs i < npes/2 each target PE i + npes/2 at the same time;\n"
            "the figure is PE 0's. Collectives: all PEs; usec is the mean over PEs of\n"
            "each PE's time per call, usec_max the slowest PE's. collect, fcollect,\n"
            "alltoall: bytes is the per-PE block, and sizes with npes * bytes > 4 MiB\n"
            "are skipped. Any wrong value: a message on stderr and exit status 1.\n");
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s) return -1;
    if (*end == 'k' || *end == 'K') v <<= 10, end++;
    else if (*end == 'm' || *end == 'M') v <<= 20, end++;
    if (*end || v < 8 || v > SB_BUF || (v & (v - 1))) return -1;
    *out = (size_t)v;
    return 0;
}

/* 0 ok, 1 --help, -1 error (message printed by PE 0). */
static int parse_opts(int argc, char **argv, struct sb_opts *o, int me)
{
    static const struct option lo[] = {
        {"bench", 1, 0, 'b'}, {"mem", 1, 0, 'm'},   {"sizes", 1, 0, 's'}, {"time", 1, 0, 't'},
        {"iters", 1, 0, 'n'}, {"check", 0, 0, 'c'}, {"help", 0, 0, 'h'},  {0, 0, 0, 0}};
    int c;
    char *colon;
    *o = (struct sb_opts){"", 1, 1, 8, SB_BUF, 20000.0, 0, 0};
    while ((c = getopt_long(argc, argv, "b:m:s:t:n:h", lo, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (strlen(optarg) >= sizeof(o->benches)) goto bad;
            strcpy(o->benches, optarg);
            break;
        case 'm':
            o->heap = !strcmp(optarg, "heap") || !strcmp(optarg, "both");
            o->stat = !strcmp(optarg, "static") || !strcmp(optarg, "both");
            if (!o->heap && !o->stat) {
                if (me == 0) fprintf(stderr, "shbench: --mem takes heap, static or both, not '%s'\n", optarg);
                return -1;
            }
            break;
        case 's':
            colon = strchr(optarg, ':');
            if (!colon) goto bad;
            *colon = '\0';
            if (parse_size(optarg, &o->min) || parse_size(colon + 1, &o->max) || o->min > o->max) {
                if (me == 0)
                    fprintf(stderr, "shbench: --sizes takes MIN:MAX, powers of two from 8 to 4m, "
                                    "MIN <= MAX\n");
                return -1;
            }
            break;
        case 't': o->point_us = atof(optarg) * 1000; if (o->point_us <= 0) goto bad; break;
        case 'n': o->iters = atol(optarg); if (o->iters < 1) goto bad; break;
        case 'c': o->check = 1; break;
        case 'h': if (me == 0) usage(stdout); return 1;
        default: goto bad;
        }
    }
    if (optind == argc) return 0;
bad:
    if (me == 0) {
        fprintf(stderr, "shbench: bad option or value (argument %d)\n", optind);
        usage(stderr);
    }
    return -1;
}

static int selected(const struct sb_opts *o, const char *name)
{
    size_t n = strlen(name);
    if (!o->benches[0]) return 1;
    for (const char *p = o->benches; (p = strstr(p, name)) != NULL; p += n)
        if ((p == o->benches || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

/* PE 0 decides, everyone gets its decision (after a barrier). */
static long share_from_pe0(long v, int me, int npes)
{
    if (me == 0)
        for (int p = 0; p < npes; p++) shmem_long_p(&sb_iters_box, v, p);
    shmem_barrier_all();
    return sb_iters_box;
}

/* prepare, barrier, loop: one untimed or timed pass, this PE's elapsed us. */
static double pass(const struct sb_bench *b, struct sb_point *pt, long iters, long *ops)
{
    b->prepare(pt);
    pt->bad = 0;
    pt->timed_us = -1;
    shmem_barrier_all();
    double t0 = sb_now_us();
    long n = b->loop(pt, iters);
    double t = sb_now_us() - t0;
    if (ops) *ops = n;
    return pt->timed_us >= 0 ? pt->timed_us : t;
}

/* One (benchmark, target, size): calibrate on PE 0, warm up, time, check. */
static void run_point(const struct sb_bench *b, struct sb_mem *m, size_t bytes,
                      const struct sb_opts *o, double *times)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), half = npes / 2;
    struct sb_point pt = {m, bytes, me, npes, -1, 0, 1, 0, -1};
    long iters = o->iters, ops;

    if (b->kind == SB_P2P && me < 2 * half) {
        pt.active = me < half;
        pt.peer = pt.active ? me + half : me - half;
    }
    if (strstr(b->name, "_nbi"))
        pt.window = SB_BUF / bytes < SB_NBI_WINDOW ? (int)(SB_BUF / bytes) : SB_NBI_WINDOW;

    if (o->check) {
        iters = 10;
    } else if (iters == 0) {
        /* Warm-up and calibration in one: passes of 1, 4, 16... iterations
         * until one takes a tenth of the time per point; PE 0's time sets
         * the count (the same rule for every library). */
        for (long w = 1;;) {
            double t = pass(b, &pt, w, NULL);
            long v = 0;
            if (me == 0) {
                double want = o->point_us * w / (t > 0.01 ? t : 0.01);
                v = t < o->point_us / 10 && w < 1000000 ? -4 * w
                    : want < 10 ? 10 : want > 1e8 ? 100000000 : (long)want;
            }
            v = share_from_pe0(v, me, npes);
            if (v > 0) {
                iters = v;
                break;
            }
            w = -v;
        }
    }
    double t = pass(b, &pt, iters, &ops);
    shmem_barrier_all();
    if (b->check(&pt, iters)) shmem_global_exit(1);

    /* Every PE's time per op to PE 0. */
    shmem_double_p(&times[me], t / ops, 0);
    shmem_barrier_all();
    if (me != 0) return;
    double usec = times[0], max = times[0], sum = 0;
    for (int p = 0; p < npes; p++) {
        sum += times[p];
        if (times[p] > max) max = times[p];
    }
    if (b->kind == SB_COLL) {
        usec = sum / npes;
        printf("%s,%s,%d,%zu,%ld,%.4f,,%.4f\n", b->name, m->name, npes, bytes, iters, usec, max);
    } else if (b->bandwidth) {
        printf("%s,%s,%d,%zu,%ld,%.4f,%.1f,\n", b->name, m->name, npes, bytes, iters, usec,
               bytes / usec);
    } else {
        printf("%s,%s,%d,%zu,%ld,%.4f,,\n", b->name, m->name, npes, bytes, iters, usec);
    }
    fflush(stdout);
}

static void init_mem(struct sb_mem *heap, struct sb_mem *stat)
{
    *stat = (struct sb_mem){"static", s_src, s_dst, &s_ctr, &s_flag,
                            {s_psync[0], s_psync[1]}, {s_pwrk[0], s_pwrk[1]}};
    heap->name = "heap";
    heap->src = shmem_align(SB_ALIGN, SB_BUF);
    heap->dst = shmem_align(SB_ALIGN, SB_BUF);
    heap->ctr = shmem_malloc(2 * sizeof(long));
    heap->flag = heap->ctr + 1;
    for (int i = 0; i < 2; i++) {
        heap->psync[i] = shmem_malloc(SB_PSYNC_LEN * sizeof(long));
        heap->pwrk[i] = shmem_malloc(SB_PWRK_LEN * sizeof(long));
    }
    if (!heap->src || !heap->dst || !heap->ctr || !heap->psync[0] || !heap->psync[1] ||
        !heap->pwrk[0] || !heap->pwrk[1]) {
        fprintf(stderr, "shbench: shmem_malloc of the heap target (about %zu MiB) failed; "
                        "raise the symmetric heap size (SHMEM_SYMMETRIC_SIZE)\n",
                (2 * SB_BUF + 2 * SB_PWRK_LEN * sizeof(long)) >> 20);
        shmem_global_exit(1);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < SB_PSYNC_LEN; j++) heap->psync[i][j] = stat->psync[i][j] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    static const size_t check_sizes[] = {8, 4096, 1 << 20};
    const struct sb_bench *groups[] = {sb_rma_benches, sb_amo_benches, sb_p2p_benches,
                                       sb_coll_benches};
    const int counts[] = {sb_n_rma, sb_n_amo, sb_n_p2p, sb_n_coll};
    struct sb_opts o;
    struct sb_mem mems[2];
    char name[SHMEM_MAX_NAME_LEN + 1] = "";
    int major = 0, minor = 0;

    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int rc = parse_opts(argc, argv, &o, me);
    if (rc) {
        shmem_finalize();
        return rc < 0 ? 2 : 0;
    }
    for (const char *p = o.benches; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        int len = (int)strcspn(p, ","), found = 0;
        for (int g = 0; g < 4; g++)
            for (int i = 0; i < counts[g]; i++)
                found |= (int)strlen(groups[g][i].name) == len && !strncmp(groups[g][i].name, p, len);
        if (!found) {
            if (me == 0) fprintf(stderr, "shbench: no benchmark '%.*s' (see --help)\n", len, p);
            shmem_finalize();
            return 2;
        }
    }
    init_mem(&mems[0], &mems[1]);
    double *times = shmem_malloc(npes * sizeof(double));
    if (!times) shmem_global_exit(1);

    if (me == 0) {
        shmem_info_get_name(name);
        shmem_info_get_version(&major, &minor);
        printf("# shbench: %s (OpenSHMEM %d.%d), %d PEs%s\n", name, major, minor, npes,
               o.check ? ", --check" : "");
        printf("# point-to-point: PEs i < %d target PE i + %d concurrently; figures are PE 0's\n",
               npes / 2, npes / 2);
        printf("# collectives: usec = mean over PEs of time per call, usec_max = slowest PE\n");
        printf("# collect/fcollect/alltoall: bytes per PE block, at most %zu (npes*bytes <= %zu)\n",
               SB_BUF / npes, SB_BUF);
        printf("# put_nbi/get_nbi: %d ops (fewer when %d*bytes > %zu) then quiet; usec per op\n",
               SB_NBI_WINDOW, SB_NBI_WINDOW, SB_BUF);
        printf("bench,target,npes,bytes,iters,usec,mbps,usec_max\n");
        fflush(stdout);
    }
    for (int t = 0; t < 2; t++) {
        if (!(t == 0 ? o.heap : o.stat)) continue;
        for (int g = 0; g < 4; g++)
            for (int i = 0; i < counts[g]; i++) {
                const struct sb_bench *b = &groups[g][i];
                if (!selected(&o, b->name)) continue;
                if (b->kind == SB_P2P && npes < 2) {
                    if (me == 0) printf("# %s: needs at least 2 PEs, skipped\n", b->name);
                    continue;
                }
                size_t n = o.check ? sizeof(check_sizes) / sizeof(check_sizes[0]) : 64;
                for (size_t k = 0; k < n; k++) {
                    size_t bytes = o.check ? check_sizes[k] : o.min << k;
                    if (!o.check && bytes > o.max) break;
                    if (b->only8 && bytes != 8) continue;
                    if (b->per_pe && bytes * (size_t)npes > SB_BUF) break;
                    run_point(b, &mems[t], bytes, &o, times);
                }
            }
    }
    shmem_barrier_all();
    /* The driver trusts a run whose library crashes in shmem_finalize (Open
     * MPI 4.1.4 does) only if this line came first. */
    if (me == 0) printf("# done\n");
    fflush(stdout);
    shmem_finalize();
    return 0;
}
