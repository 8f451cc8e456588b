/* bench_util.h: what the standalone bench programs (latency.c,
 * first_touch.c, floor.c) share: the suite's clock and the median of a
 * sample. A header, as each program builds from its own source with
 * either library's oshcc. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include "suite/timer.h"

#include <stddef.h>
#include <stdlib.h>

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n-1] (n > 0) and returns its median. */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
