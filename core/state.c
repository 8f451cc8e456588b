/*
 * The state every layer above the transport reads: the PE's global state
 * (ush_g), and the one way the library reports an error or a warning.
 * They live here, in the core, so that nothing below the public routines
 * has to call up into shmem_init's file to read a PE number or end the job.
 */
#include "ush.h"
#include "transport/ush_tp.h"

#include <stdio.h>
#include <string.h>

ush_state_t ush_g = { .my_pe = -1 };

__thread const char *ush_f_routine;

static void ush_vreport(const char *routine, const char *fmt, va_list ap)
{
    char msg[1024], name[160];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (ush_f_routine && strcmp(ush_f_routine, routine) != 0) {
        /* a Fortran call: name the routine the program called first */
        snprintf(name, sizeof(name), "%s (Fortran; runs %s)", ush_f_routine, routine);
        routine = name;
    }
    if (ush_g.my_pe < 0) { /* before the first shmem_init: no PE number yet */
        fprintf(stderr, "ushmem: %s: %s\n", routine, msg);
        return;
    }
    fprintf(stderr, "ushmem: PE %d: %s: %s\n", ush_g.my_pe, routine, msg);
}

void ush_warn(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ush_vreport(routine, fmt, ap);
    va_end(ap);
}

void ush_fatal(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ush_vreport(routine, fmt, ap);
    va_end(ap);
    ush_tp_abort(1, NULL); /* the message is printed above, once */
}
