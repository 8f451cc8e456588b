/*
 * The OpenSHMEM half of the HPVM test (hpvm.c): this translation unit
 * includes <shmem.h>, the other <ushmem/hpvm.h>, and both link into one
 * program. It gives the verdict the harness expects and ends the whole job
 * when a check fails.
 */
#include "pe_test.h"

#include <time.h>

void hpvm_started(void);
void hpvm_fail(int line, const char *what, long expected, long got);
void hpvm_pass(void);
long hpvm_spin_ms(void);

/* After shmem_init: the harness's watchdog starts. */
void hpvm_started(void)
{
    pe_test_started();
}

void hpvm_fail(int line, const char *what, long expected, long got)
{
    fprintf(stderr, "PE %d: hpvm.c:%d: %s: expected %ld, got %ld\n", shmem_my_pe(), line, what,
            expected, got);
    fflush(stderr);
    shmem_global_exit(1);
}

void hpvm_pass(void)
{
    exit(pe_test_finish());
}

/* Milliseconds since the first call: a spin's clock. */
long hpvm_spin_ms(void)
{
    static struct timespec t0;
    struct timespec        t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (t0.tv_sec == 0 && t0.tv_nsec == 0) t0 = t;
    return (t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L;
}
