/*
 * What a failed argument check says. Each message names the routine, the
 * argument and what to do, then the whole job ends.
 */
#include "ush.h"
#include "ush_check.h"

void ush_check_fail_init(const char *routine)
{
    ush_fatal(routine, "called before shmem_init (or after shmem_finalize); "
                       "call shmem_init first");
}

void ush_check_fail_pe(const char *routine, int pe)
{
    ush_fatal(routine, "pe %d is out of range: this job has %d PEs (0 to %d)", pe, ush_g.n_pes,
              ush_g.n_pes - 1);
}

void ush_check_fail_symm(const char *routine, const char *arg, const void *addr, size_t nbytes)
{
    ush_fatal(routine,
              "%s (%p, %zu bytes) is not symmetric: use memory from shmem_malloc & co. "
              "or a global/static variable",
              arg, addr, nbytes);
}

void ush_check_fail_ctx(const char *routine)
{
    ush_fatal(routine, "ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context "
                       "from shmem_ctx_create");
}

void ush_check_fail_ctx_pe(const char *routine, int pe, int size)
{
    ush_fatal(routine,
              "pe %d is out of range: the context's team has %d PEs (0 to %d), and PE "
              "numbers given with a context count members of its team",
              pe, size, size - 1);
}
