/*
 * A raw PMIx client that checks oshrun's side of the contract libushmem
 * relies on, independently of the library:
 *   PMIx_Init; PMIx_Get of the job keys on the wildcard rank and of the
 *   per-process keys; PMIx_Put + PMIx_Commit; PMIx_Fence collecting data;
 *   PMIx_Get of every peer's keys; a plain fence; PMIx_Finalize.
 * Usage: pmix_contract EXPECTED_NPES
 * Prints "pmix_contract: PE r of n ok" and exits 0 when everything holds;
 * otherwise one line per failed check and exit status 1.
 */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int         failures;
static pmix_proc_t me;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "pmix_contract: PE %d: ", (int)me.rank);          \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            failures++;                                                       \
        }                                                                     \
    } while (0)

/* Any of the integer types PMIx may hand back for a count or a rank. */
static int get_uint(const pmix_proc_t *proc, const char *key, unsigned long *out)
{
    pmix_value_t *v  = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    int           ok = 1;

    if (rc != PMIX_SUCCESS || v == NULL) {
        CHECK(0, "PMIx_Get(%s, rank %u): %s", key, proc->rank, PMIx_Error_string(rc));
        return -1;
    }
    switch (v->type) {
    case PMIX_UINT32:    *out = v->data.uint32; break;
    case PMIX_UINT16:    *out = v->data.uint16; break;
    case PMIX_PROC_RANK: *out = v->data.rank; break;
    case PMIX_UINT64:    *out = (unsigned long)v->data.uint64; break;
    case PMIX_INT:       *out = (unsigned long)v->data.integer; break;
    default:             ok = 0;
    }
    CHECK(ok, "PMIx_Get(%s): unexpected type %s", key, PMIx_Data_type_string(v->type));
    PMIX_VALUE_RELEASE(v);
    return ok ? 0 : -1;
}

static char *get_string(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *v  = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    char         *s  = NULL;

    if (rc != PMIX_SUCCESS || v == NULL) {
        CHECK(0, "PMIx_Get(%s, rank %u): %s", key, proc->rank, PMIx_Error_string(rc));
        return NULL;
    }
    if (v->type == PMIX_STRING && v->data.string) {
        s = strdup(v->data.string);
    } else {
        CHECK(0, "PMIx_Get(%s): type %s, wanted a string", key,
              PMIx_Data_type_string(v->type));
    }
    PMIX_VALUE_RELEASE(v);
    return s;
}

static void expect_uint(const pmix_proc_t *proc, const char *key, unsigned long want)
{
    unsigned long got;
    if (get_uint(proc, key, &got) == 0) {
        CHECK(got == want, "%s of rank %u is %lu, expected %lu", key, proc->rank, got, want);
    }
}

/* The blob each PE publishes: recognisably its own, and big enough that a
 * wrong length or offset shows. */
static void fill_blob(unsigned char *b, size_t n, unsigned rank)
{
    for (size_t i = 0; i < n; i++) {
        b[i] = (unsigned char)(rank * 31u + i * 7u);
    }
}

#define BLOB_LEN 1000

int main(int argc, char **argv)
{
    pmix_proc_t   wild;
    pmix_status_t rc;
    long          npes = argc > 1 ? strtol(argv[1], NULL, 10) : -1;
    char          host[256] = "";

    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_contract: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK(npes > 0, "usage: pmix_contract EXPECTED_NPES");
    CHECK(me.rank < (pmix_rank_t)npes, "rank %u outside 0..%ld", me.rank, npes - 1);

    /* job-level keys, as libushmem reads them */
    expect_uint(&wild, PMIX_JOB_SIZE, (unsigned long)npes);
    expect_uint(&wild, PMIX_UNIV_SIZE, (unsigned long)npes);
    expect_uint(&wild, PMIX_LOCAL_SIZE, (unsigned long)npes);
    expect_uint(&wild, PMIX_NUM_NODES, 1);

    char *peers = get_string(&wild, PMIX_LOCAL_PEERS);
    if (peers) {
        /* exactly 0..npes-1, in any order, each once */
        char  *seen = calloc((size_t)npes, 1);
        long   count = 0;
        char  *save, *tok;
        for (tok = strtok_r(peers, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            long r = strtol(tok, NULL, 10);
            CHECK(r >= 0 && r < npes && !seen[r], "PMIX_LOCAL_PEERS has bad entry '%s'", tok);
            if (r >= 0 && r < npes) seen[r] = 1;
            count++;
        }
        CHECK(count == npes, "PMIX_LOCAL_PEERS lists %ld ranks, expected %ld", count, npes);
        free(seen);
        free(peers);
    }
    gethostname(host, sizeof(host) - 1);
    char *hn = get_string(&wild, PMIX_HOSTNAME);
    if (hn) {
        CHECK(strcmp(hn, host) == 0, "PMIX_HOSTNAME is '%s', expected '%s'", hn, host);
        free(hn);
    }

    /* per-process keys, our own and a peer's */
    expect_uint(&me, PMIX_LOCAL_RANK, me.rank);
    expect_uint(&me, PMIX_NODE_RANK, me.rank);
    if (npes > 1) {
        pmix_proc_t peer;
        PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % (pmix_rank_t)npes);
        expect_uint(&peer, PMIX_LOCAL_RANK, peer.rank);
    }

    const char *launcher = getenv("SHMEM_LAUNCHER");
    CHECK(launcher && strcmp(launcher, "oshrun") == 0, "SHMEM_LAUNCHER is '%s', expected 'oshrun'",
          launcher ? launcher : "(unset)");

    /* publish, fence with data collection, read every peer */
    unsigned char blob[BLOB_LEN];
    char          str[64];
    pmix_value_t  val;
    fill_blob(blob, sizeof(blob), me.rank);
    snprintf(str, sizeof(str), "pe-%u", me.rank);

    PMIX_VALUE_CONSTRUCT(&val);
    val.type          = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)blob;
    val.data.bo.size  = sizeof(blob);
    rc = PMIx_Put(PMIX_GLOBAL, "ush.test.blob", &val);
    CHECK(rc == PMIX_SUCCESS, "PMIx_Put(blob): %s", PMIx_Error_string(rc));
    val.type        = PMIX_STRING;
    val.data.string = str;
    rc = PMIx_Put(PMIX_GLOBAL, "ush.test.str", &val);
    CHECK(rc == PMIX_SUCCESS, "PMIx_Put(str): %s", PMIx_Error_string(rc));
    rc = PMIx_Commit();
    CHECK(rc == PMIX_SUCCESS, "PMIx_Commit: %s", PMIx_Error_string(rc));

    pmix_info_t info;
    bool        collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    CHECK(rc == PMIX_SUCCESS, "PMIx_Fence(collect): %s", PMIx_Error_string(rc));

    for (long r = 0; r < npes && rc == PMIX_SUCCESS; r++) {
        pmix_proc_t   peer;
        pmix_value_t *v = NULL;
        unsigned char want[BLOB_LEN];

        PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t)r);
        fill_blob(want, sizeof(want), (unsigned)r);
        if (PMIx_Get(&peer, "ush.test.blob", NULL, 0, &v) != PMIX_SUCCESS || v == NULL) {
            CHECK(0, "PMIx_Get(ush.test.blob) of PE %ld failed", r);
            continue;
        }
        CHECK(v->type == PMIX_BYTE_OBJECT && v->data.bo.size == sizeof(want) &&
              memcmp(v->data.bo.bytes, want, sizeof(want)) == 0,
              "blob of PE %ld is wrong (type %s, %zu bytes)", r,
              PMIx_Data_type_string(v->type), v->data.bo.size);
        PMIX_VALUE_RELEASE(v);

        char wants[64];
        snprintf(wants, sizeof(wants), "pe-%ld", r);
        char *s = get_string(&peer, "ush.test.str");
        if (s) {
            CHECK(strcmp(s, wants) == 0, "string of PE %ld is '%s', expected '%s'", r, s, wants);
            free(s);
        }
    }

    /* the fence libushmem makes in shmem_finalize */
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    CHECK(rc == PMIX_SUCCESS, "PMIx_Fence: %s", PMIx_Error_string(rc));

    if (failures == 0) {
        printf("pmix_contract: PE %u of %ld ok\n", me.rank, npes);
    }
    fflush(stdout);
    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_contract: PE %u: PMIx_Finalize: %s\n", me.rank,
                PMIx_Error_string(rc));
        failures++;
    }
    return failures ? 1 : 0;
}
