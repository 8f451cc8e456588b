/*
 * floor: the ping-pong no OpenSHMEM can beat on this machine.
 *
 * Two processes, pinned to CPUs 0 and 1, share one mapping. Each stores a
 * counter into a cache line the other spins on, exactly the work of
 * shbench's 8-byte ping-pong (shmem_long_p, then shmem_long_wait_until)
 * without any library around it. Prints half a round trip in microseconds,
 * the same figure shbench reports; suite.sh shows it next to the ping-pong
 * target.
 *
 *   floor [ROUND_TRIPS]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "suite/timer.h"

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)sched_setaffinity(0, sizeof set, &set); /* best effort: 1 CPU still runs */
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    /* Two counters on separate cache lines: each written by one side. */
    volatile int64_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                               -1, 0);
    if (m == MAP_FAILED || n < 1) {
        fprintf(stderr, "floor: %s\n", n < 1 ? "ROUND_TRIPS must be at least 1" : "mmap failed");
        return 2;
    }
    volatile int64_t *ping = m, *pong = m + 8;

    pid_t pid = fork();
    if (pid < 0) {
        perror("floor: fork");
        return 2;
    }
    pin(pid == 0 ? 1 : 0);
    if (pid == 0) {
        for (long i = 1; i <= n; i++) {
            while (*ping < i) __builtin_ia32_pause();
            *pong = i;
        }
        _exit(0);
    }
    double t0 = sb_now_us();
    for (long i = 1; i <= n; i++) {
        *ping = i;
        while (*pong < i) __builtin_ia32_pause();
    }
    double t = sb_now_us() - t0;
    int status;
    waitpid(pid, &status, 0);
    printf("%.4f\n", t / (double)n / 2);
    return 0;
}
