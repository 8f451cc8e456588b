/*
 * Per-peer state grows with the peers a PE touches, not with the job.
 *
 * The transport stands up for real (UCX context, worker, a registered
 * segment) on a bootstrap of this file's own in place of PMIx's: it says
 * the job has 1 048 576 PEs on 4096 nodes, and serves any PE's wire-up
 * blob on demand, as a launcher with direct modex does. Each blob is this
 * process's own, so an endpoint to "PE n" is an endpoint to ourselves and
 * a put to it lands in our own segment: the test checks that too. It
 * touches 16 PEs spread over the job (endpoint, rkey, the collectives'
 * eager counts) and asserts the memory held for peers stays under 1 MiB.
 */
#include <criterion/criterion.h>

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ush_tp_impl.h"

#define JOB_PES   (1 << 20)
#define JOB_NODES 4096
#define ME        3
#define TOUCHED   16
#define SEG_BYTES (1 << 20)

/* ------------------------------------------- the stand-in bootstrap */

ush_tp_job_t ush_tp_job;
int          ush_tp_pmix_up;
uint64_t     ush_tp_pmix_init_ns;

static void  *blob_copy;
static size_t blob_len;
static long   blobs_served;

ush_tp_status_t ush_tp_bootstrap_init(void)
{
    ush_tp_job = (ush_tp_job_t){ .rank = ME, .size = JOB_PES, .local_rank = 0,
                                 .local_size = 1, .num_nodes = JOB_NODES };
    ush_tp.local_pes    = malloc(sizeof(int));
    ush_tp.local_pes[0] = ME;
    ush_tp.nlocal       = 1;
    return USH_TP_OK;
}

const char *ush_tp_bootstrap_nspace(void)
{
    return "peer-scale";
}

void ush_tp_bootstrap_hostname(int pe, char *buf, size_t len)
{
    snprintf(buf, len, "node%d", pe / (JOB_PES / JOB_NODES));
}

ush_tp_status_t ush_tp_bootstrap_fence_progress(int (*progress)(void *), void *arg)
{
    progress(arg);
    return USH_TP_OK;
}

int  ush_tp_modex_collected;
long ush_tp_wireup_collect_max = 0; /* a million PEs: on demand */

ush_tp_status_t ush_tp_bootstrap_publish(const char *key, const void *blob, size_t len,
                                         int *collect)
{
    *collect = 0; /* served on demand */
    (void)key;
    blob_copy = malloc(len);
    memcpy(blob_copy, blob, len);
    blob_len = len;
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_bootstrap_lookup(const char *key, int pe,
                                        int (*fn)(int pe, const void *blob, size_t len, void *arg),
                                        void *arg)
{
    (void)key;
    blobs_served++;
    return fn(pe, blob_copy, blob_len, arg) ? USH_TP_ERR_BOOTSTRAP : USH_TP_OK;
}

ush_tp_status_t ush_tp_bootstrap_lookup_nb(const char *key, int pe,
                                           void (*fn)(int pe, const void *blob, size_t len,
                                                      void *arg),
                                           void *arg)
{
    (void)key;
    blobs_served++;
    fn(pe, blob_copy, blob_len, arg);
    return USH_TP_OK;
}

ush_tp_status_t ush_tp_gather(const char *key, const void *blob, size_t len, int root,
                              int (*fn)(int pe, const void *blob, size_t len, void *arg),
                              void *arg)
{
    (void)key, (void)root;
    return fn(ME, blob, len, arg) ? USH_TP_ERR_BOOTSTRAP : USH_TP_OK;
}

void ush_tp_bootstrap_finalize(void)
{
}

/* ------------------------------------------------------------ the test */

/* Bytes malloc holds now, large blocks (mmap) included: what an array per
 * job PE would show, whether or not it counted itself. */
static size_t heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

Test(peer_scale, million_pes_sixteen_touched, .timeout = 60)
{
    void *base = NULL;

    size_t heap_before = heap_bytes();
    cr_assert_eq(ush_tp_bootstrap_init(), USH_TP_OK);
    cr_assert_eq(ush_tp_init(USH_TP_THREAD_SINGLE, 0), USH_TP_OK, "%s", ush_tp_strerror());
    cr_assert_eq(ush_tp_seg_alloc(0, SEG_BYTES, 64, 0, &base), USH_TP_OK, "%s",
                 ush_tp_strerror());
    cr_assert_eq(ush_tp_wireup(), USH_TP_OK, "%s", ush_tp_strerror());
    size_t at_start = ush_tp_peer_state_bytes();
    size_t heap_up  = heap_bytes();

    ush_tp_ctx_t *c = ush_tp_ctx_default;
    for (int i = 0; i < TOUCHED; i++) {
        int      pe  = (int)((i * (JOB_PES / TOUCHED) + 12345 * i + 1) % JOB_PES);
        uint64_t val = 0x5eed0000u + (uint64_t)i;
        cr_assert_not_null(ush_tp_ep(c, pe));
        cr_assert_not_null(ush_tp_rkey(c, pe, 0));
        cr_assert(ush_tp_eager_room(pe));
        cr_assert_null(ush_tp_mapped(pe, 0), "PE %d is on another node", pe);
        /* "PE pe" published our own blob: the put lands in our segment */
        ush_tp_put(c, pe, 0, 8 * (size_t)i, &val, sizeof val, 1);
        ush_tp_quiet(c);
        cr_assert_eq(((volatile uint64_t *)base)[i], val, "the put to PE %d", pe);
    }
    size_t touched = ush_tp_peer_state_bytes();
    size_t heap_at = heap_bytes();

    printf("peer state at %d PEs: %zu bytes after wire-up, %zu after touching %d peers "
           "(%ld blobs of %zu bytes read); malloc'd: %zu bytes by start-up (UCX's included), %zu more "
           "by the touches\n", JOB_PES, at_start, touched, TOUCHED, blobs_served, blob_len,
           heap_up - heap_before, heap_at - heap_up);
    cr_assert_lt(touched, (size_t)1 << 20, "%zu bytes of peer state for %d peers", touched,
                 TOUCHED);
    /* UCX's own context and worker take some MB whatever the job size;
     * one array of 8 bytes per job PE would add 8 MiB. */
    cr_assert_lt(heap_up - heap_before, (size_t)8 << 20, "start-up malloc'd %zu bytes",
                 heap_up - heap_before);
    cr_assert_lt(heap_at - heap_up, (size_t)2 << 20, "16 peers malloc'd %zu bytes",
                 heap_at - heap_up);
    cr_assert_eq(blobs_served, TOUCHED, "only the touched peers' blobs are read");

    ush_tp_finalize();
    cr_assert_eq(ush_tp_peer_state_bytes(), 0, "every page and record freed");
}
