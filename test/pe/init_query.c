/*
 * Initialisation and queries: shmem_init_thread(SHMEM_THREAD_MULTIPLE)
 * and shmem_query_thread agree; shmem_query_initialized (1.6) is 0 before
 * init and after finalize, nonzero between; shmem_my_pe/shmem_n_pes match
 * what the PEs see of each other (every PE announces itself to every PE,
 * and reading "PE t"'s identity through RMA gives t); the world team
 * agrees (1.5).  With SHMEM_THREAD_MULTIPLE, several threads of every PE
 * issue atomics and puts at once and the totals must be exact.
 */
#include "pe_test.h"

#include <pthread.h>

#define NTHREADS 4
#define KTHREAD  100

/* Before init and after finalize no OpenSHMEM call may be made, so
 * failures there are reported with plain stdio and the exit status. */
#define CHECK_OUTSIDE(cond)                                                                       \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "PE ?: %s:%d: %s: expected true, got false\n", __FILE__, __LINE__,    \
                    #cond);                                                                       \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

static int   my_id;     /* symmetric: each PE's own shmem_my_pe() */
static int  *announce;  /* symmetric: slot s written by PE s */
static int  *count;     /* symmetric: incremented once by every PE */
static long *tcounter;  /* symmetric: thread test */
static long *tslots;    /* symmetric: NTHREADS*KTHREAD slots per source PE */

static void *thread_body(void *arg)
{
    const int tid = (int)(intptr_t)arg;
    const int right = (pe_me + 1) % pe_npes;

    for (int k = 0; k < KTHREAD; k++) {
        long old = shmem_long_atomic_fetch_add(tcounter, 1, right);
        CHECK(old >= 0 && old < (long)NTHREADS * KTHREAD);
        shmem_long_p(&tslots[(pe_me * NTHREADS + tid) * KTHREAD + k], 1000L * tid + k, right);
    }
    shmem_quiet();
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[NTHREADS];
    const int left = (pe_me + pe_npes - 1) % pe_npes;

    pe_section("SHMEM_THREAD_MULTIPLE: concurrent atomics and puts");
    tcounter = shmem_calloc(1, sizeof(long));
    tslots   = shmem_calloc((size_t)pe_npes * NTHREADS * KTHREAD, sizeof(long));
    CHECK(tcounter && tslots);
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(pthread_create(&t[i], NULL, thread_body, (void *)(intptr_t)i), 0);
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(pthread_join(t[i], NULL), 0);
    shmem_barrier_all();
    CHECK_EQ(*tcounter, (long)NTHREADS * KTHREAD);
    for (int tid = 0; tid < NTHREADS; tid++)
        for (int k = 0; k < KTHREAD; k++)
            CHECK_EQ(tslots[(left * NTHREADS + tid) * KTHREAD + k], 1000L * tid + k);
    shmem_free(tslots);
    shmem_free(tcounter);
}

int main(void)
{
    int provided = -1, queried = -2, rc;

    CHECK_OUTSIDE(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
                  SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
                  SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE);
#if PE_SPEC_AT_LEAST(1, 6)
    {
        int initialized = -1;
        shmem_query_initialized(&initialized); /* callable at any time */
        CHECK_OUTSIDE(initialized == 0);
    }
#endif
    rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    CHECK_OUTSIDE(rc == 0);
    pe_test_started();

    pe_section("thread level");
    CHECK(provided == SHMEM_THREAD_SINGLE || provided == SHMEM_THREAD_FUNNELED ||
          provided == SHMEM_THREAD_SERIALIZED || provided == SHMEM_THREAD_MULTIPLE);
    shmem_query_thread(&queried);
    CHECK_EQ(queried, provided);
#if PE_SPEC_AT_LEAST(1, 6)
    {
        int initialized = 0;
        shmem_query_initialized(&initialized);
        CHECK(initialized != 0);
    }
#endif

    pe_section("PE identities");
    my_id    = pe_me;
    announce = shmem_calloc((size_t)pe_npes, sizeof(int));
    count    = shmem_calloc(1, sizeof(int));
    CHECK(announce && count);
    for (int k = 0; k < pe_npes; k++) {
        const int t = (pe_me + k) % pe_npes;
        shmem_int_p(&announce[pe_me], pe_me + 1, t);
        shmem_int_atomic_inc(count, t);
        CHECK_EQ(shmem_int_g(&my_id, t), t); /* "PE t" is the PE that calls itself t */
    }
    shmem_barrier_all();
    CHECK_EQ(*count, pe_npes);
    for (int s = 0; s < pe_npes; s++)
        CHECK_EQ(announce[s], s + 1);
    CHECK_EQ(shmem_my_pe(), pe_me); /* stable across calls */
    CHECK_EQ(shmem_n_pes(), pe_npes);
#if PE_SPEC_AT_LEAST(1, 5)
    CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), pe_me);
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), pe_npes);
#endif
    shmem_free(count);
    shmem_free(announce);

    if (provided == SHMEM_THREAD_MULTIPLE)
        test_threads();
    else
        pe_section("thread level below SHMEM_THREAD_MULTIPLE: threads not tested");

    pe_test_report_pass();
    shmem_finalize();
#if PE_SPEC_AT_LEAST(1, 6)
    {
        int initialized = -1;
        shmem_query_initialized(&initialized);
        CHECK_OUTSIDE(initialized == 0);
    }
#endif
    return 0;
}
