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

/* Export `name` as a weak alias of p<name>. Needs p<name> declared (pshmem.h
 * declares all public routines); it may come before or after the
 * definition of p<name> in the same file. Used at file scope, no semicolon. */
#define USH_WEAK_ALIAS(name)                                                  \
    extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)));

/* Define a public routine: USH_API(int, shmem_my_pe)(void) { ... } opens the
 * definition of pshmem_my_pe and exports shmem_my_pe as its weak alias. */
#define USH_API(ret, name) USH_WEAK_ALIAS(name) ret p##name

#endif
