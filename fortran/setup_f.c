/*
 * Fortran set-up, queries and the cache routines: SHMEM_INIT, START_PES,
 * SHMEM_FINALIZE, SHMEM_GLOBAL_EXIT, SHMEM_MY_PE, SHMEM_N_PES (and 1.2's
 * MY_PE, NUM_PES), SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE, SHMEM_PTR,
 * SHMEM_INFO_GET_VERSION, SHMEM_INFO_GET_NAME, and the five cache
 * routines (no-ops, as in C). Only MY_PE and NUM_PES have bare names:
 * C owns the rest.
 */
#include "ush_fortran.h"

#include <string.h>

USH_F_DEF(void, shmem_init, (void))
{
    USH_F_RUN("SHMEM_INIT", pshmem_init());
}

USH_F_DEF(void, start_pes, (const ush_fint_t *npes))
{
    USH_F_RUN("START_PES", pstart_pes(*npes));
}

USH_F_DEF(void, shmem_finalize, (void))
{
    USH_F_RUN("SHMEM_FINALIZE", pshmem_finalize());
}

USH_F_DEF(void, shmem_global_exit, (const ush_fint_t *status))
{
    USH_F_ENTER("SHMEM_GLOBAL_EXIT");
    pshmem_global_exit(*status);
}

USH_F_DEF(ush_fint_t, shmem_my_pe, (void))
{
    ush_fint_t r;
    USH_F_RUN("SHMEM_MY_PE", r = pshmem_my_pe());
    return r;
}

USH_F_DEF(ush_fint_t, shmem_n_pes, (void))
{
    ush_fint_t r;
    USH_F_RUN("SHMEM_N_PES", r = pshmem_n_pes());
    return r;
}

USH_F_DEF(ush_fint_t, my_pe, (void))
{
    ush_fint_t r;
    USH_F_RUN("MY_PE", r = p_my_pe());
    return r;
}
USH_F_BARE(my_pe)

USH_F_DEF(ush_fint_t, num_pes, (void))
{
    ush_fint_t r;
    USH_F_RUN("NUM_PES", r = p_num_pes());
    return r;
}
USH_F_BARE(num_pes)

/* LOGICAL results: .TRUE. is 1 in every compiler we name here. */
USH_F_DEF(ush_flogical_t, shmem_pe_accessible, (const ush_fint_t *pe))
{
    int r;
    USH_F_RUN("SHMEM_PE_ACCESSIBLE", r = pshmem_pe_accessible(*pe));
    return r != 0;
}

USH_F_DEF(ush_flogical_t, shmem_addr_accessible, (const void *addr, const ush_fint_t *pe))
{
    int r;
    USH_F_RUN("SHMEM_ADDR_ACCESSIBLE", r = pshmem_addr_accessible(addr, *pe));
    return r != 0;
}

/* The address for a Cray pointer: POINTER (PTR, POINTEE); PTR = SHMEM_PTR(...).
 * 0 when pe's copy cannot be reached with loads and stores. */
USH_F_DEF(int64_t, shmem_ptr, (const void *dest, const ush_fint_t *pe))
{
    void *p;
    USH_F_RUN("SHMEM_PTR", p = pshmem_ptr(dest, *pe));
    return (int64_t)(intptr_t)p;
}

USH_F_DEF(void, shmem_info_get_version, (ush_fint_t *major, ush_fint_t *minor))
{
    int maj, min;
    USH_F_RUN("SHMEM_INFO_GET_VERSION", pshmem_info_get_version(&maj, &min));
    *major = maj;
    *minor = min;
}

/* CHARACTER*(*) name: its length comes as a hidden argument after the
 * others (size_t in gfortran 8 and later, and in Intel's and flang's
 * conventions). Fortran strings are blank-padded, not terminated; a name
 * longer than the variable is cut, as an assignment would. */
USH_F_DEF(void, shmem_info_get_name, (char *name, size_t name_len))
{
    char c[SHMEM_MAX_NAME_LEN];
    USH_F_RUN("SHMEM_INFO_GET_NAME", pshmem_info_get_name(c));
    size_t n = strnlen(c, sizeof(c));
    if (n > name_len) n = name_len;
    memcpy(name, c, n);
    memset(name + n, ' ', name_len - n);
}

USH_F_DEF(void, shmem_clear_cache_inv, (void))
{
    pshmem_clear_cache_inv();
}

USH_F_DEF(void, shmem_set_cache_inv, (void))
{
    pshmem_set_cache_inv();
}

USH_F_DEF(void, shmem_set_cache_line_inv, (void *dest))
{
    pshmem_set_cache_line_inv(dest);
}

USH_F_DEF(void, shmem_udcflush, (void))
{
    pshmem_udcflush();
}

USH_F_DEF(void, shmem_udcflush_line, (void *dest))
{
    pshmem_udcflush_line(dest);
}
