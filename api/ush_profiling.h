/*
 * Profiling names. Every public routine X is defined once, as pX
 * (pshmem_long_put, pstart_pes, ...), and exported as X through a weak alias
 * of it: a profiling library that defines X itself wins at link time and
 * reaches ushmem through pX, while programs that do not interpose pay
 * nothing (the alias is the same code, not a wrapper).
 *
 * Including <pshmem.h> here gives every pX definition a prototype to be
 * checked against, so the header and the library cannot disagree.
 */
#ifndef USH_PROFILING_H
#define USH_PROFILING_H

#include <pshmem.h>
#include <shmemx.h>

/* Export `name` as a weak alias of p<name>. Needs p<name> declared (pshmem.h
 * declares all public routines); it may come before or after the
 * definition of p<name> in the same file. Used at file scope, no semicolon. */
#define USH_WEAK_ALIAS(name)                                                  \
    extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)));

/* Define a public routine: USH_API(int, shmem_my_pe)(void) { ... } opens the
 * definition of pshmem_my_pe and exports shmem_my_pe as its weak alias. */
#define USH_API(ret, name) USH_WEAK_ALIAS(name) ret p##name

/* SOS's name for a standard routine (see <shmemx.h>): export shmemx_S as a
 * weak alias of pshmem_S, the same code as shmem_S. It targets pshmem_S,
 * not shmem_S, so a profiler that replaces shmem_S does not change what
 * shmemx_S runs. Like USH_WEAK_ALIAS it must sit in the file that defines
 * pshmem_S (an alias cannot name a symbol of another object file), so each
 * USHMEM_X_LIST_* of <shmemx.h> is expanded in the file that defines its
 * family, or its names are given one by one where the family spans files.
 * A name left out is caught by test/headers/check-shmemx-symbols.sh. */
#define USH_SHMEMX_ALIAS(S)                                                   \
    extern __typeof__(pshmem_##S) shmemx_##S __attribute__((weak, alias("pshmem_" #S)));
#define USHMEM_X_ALIAS(S) USH_SHMEMX_ALIAS(S)

#endif
