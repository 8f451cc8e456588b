/*
 * Threads racing to start the library: on every PE, 4 threads
 * released together call shmem_init_thread(SHMEM_THREAD_MULTIPLE), then
 * together call shmem_finalize, 20 times over. The specification leaves
 * concurrent calls undefined; ushmem serialises them, so the first caller
 * initialises and the others return as nested calls do (before: 11 of 15
 * runs crashed, the others hung or leaked). Each round checks that every
 * thread was given the same level, that the job works (a put around the
 * ring and a barrier) and that the last finalize of the four tore down.
 *
 *   thread_init [rounds]
 */
#include "pe_test.h"

#include <pthread.h>

#define NTHREADS 4

static long               ring;    /* symmetric: written by the left neighbour */
static pthread_barrier_t  go;
static int                provided[NTHREADS];
static int                rc[NTHREADS];

static void *init_body(void *arg)
{
    int i = (int)(intptr_t)arg;
    pthread_barrier_wait(&go);
    rc[i] = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided[i]);
    return NULL;
}

static void *fini_body(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&go);
    shmem_finalize();
    return NULL;
}

/* Outside the library a failure can only be told with stdio and _exit. */
static void run_threads(void *(*body)(void *))
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        if (pthread_create(&t[i], NULL, body, (void *)(intptr_t)i) != 0) {
            fprintf(stderr, "PE ?: pthread_create failed\n");
            _exit(1);
        }
    }
    for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;

    pthread_barrier_init(&go, NULL, NTHREADS);
    for (int r = 0; r < rounds; r++) {
        run_threads(init_body);
        if (r == 0) pe_test_started();
        pe_section("after the racing shmem_init_thread calls");
        int queried = -1, init = 0;
        shmem_query_thread(&queried);
        shmem_query_initialized(&init);
        CHECK_EQ(init, 1);
        for (int i = 0; i < NTHREADS; i++) {
            CHECK_EQ(rc[i], 0);
            CHECK_EQ(provided[i], queried);
        }
        CHECK_EQ(shmem_my_pe(), pe_me);
        CHECK_EQ(shmem_n_pes(), pe_npes);
        ring = -1;
        shmem_barrier_all();
        shmem_long_p(&ring, r * 1000L + pe_me, (pe_me + 1) % pe_npes);
        shmem_barrier_all();
        CHECK_EQ(ring, r * 1000L + (pe_me + pe_npes - 1) % pe_npes);

        pe_section("racing shmem_finalize calls");
        run_threads(fini_body);
        shmem_query_initialized(&init);
        if (init != 0) {
            fprintf(stderr, "PE %d: round %d: still initialised after 4 x init, 4 x finalize\n",
                    pe_me, r);
            return 1;
        }
    }
    shmem_init();
    return pe_test_finish();
}
