/* check.c: the patterns buffers are filled with and their verification.
 * A wrong value ends the whole job (shmem_global_exit(1)) from the driver,
 * so a benchmark that computes garbage can never report a time. */
#include <stdarg.h>
#include <stdio.h>

#include "shbench.h"

void sb_fill(char *buf, size_t len, int seed)
{
    for (size_t k = 0; k < len; k++) buf[k] = (char)sb_pattern(k, seed);
}

/* The complement of sb_fill's byte at every position: a transfer that
 * skipped any byte cannot pass sb_verify by accident. */
void sb_fill_other(char *buf, size_t len, int seed)
{
    for (size_t k = 0; k < len; k++) buf[k] = (char)~sb_pattern(k, seed);
}

int sb_fail(const struct sb_point *pt, const char *bench, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "shbench: PE %d: %s on %s, %zu bytes, %d PEs: ", pt->me, bench,
            pt->m->name, pt->bytes, pt->npes);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

int sb_verify(const char *what, const struct sb_point *pt, const char *buf, size_t len,
              int seed)
{
    for (size_t k = 0; k < len; k++)
        if ((unsigned char)buf[k] != sb_pattern(k, seed))
            return sb_fail(pt, what, "byte %zu of %zu is 0x%02x, expected 0x%02x", k, len,
                           (unsigned char)buf[k], sb_pattern(k, seed));
    return 0;
}
