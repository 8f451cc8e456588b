/*
 * Who am I, who can I reach, what library is this.
 */
#include "ush_check.h"
#include "ush_profiling.h"
#include "core/ush.h"
#include "core/ush_rma.h"
#include "core/ush_symm.h"

#include <string.h>

USH_API(int, shmem_my_pe)(void)
{
    return ush_g.my_pe;
}

USH_API(int, shmem_n_pes)(void)
{
    return ush_g.n_pes;
}

USH_API(int, _my_pe)(void)
{
    return ush_g.my_pe;
}

USH_API(int, _num_pes)(void)
{
    return ush_g.n_pes;
}

USH_API(int, shmem_pe_accessible)(int pe)
{
    return ush_g.initialized && pe >= 0 && pe < ush_g.n_pes;
}

USH_API(int, shmem_addr_accessible)(const void *addr, int pe)
{
    size_t off;
    return pshmem_pe_accessible(pe) && ush_seg_find(addr, 1, &off) >= 0;
}

USH_API(void *, shmem_ptr)(const void *dest, int pe)
{
    USH_CHECK_INIT("shmem_ptr");
    USH_CHECK_PE("shmem_ptr", pe);
    return ush_ptr(dest, pe);
}

USH_API(void, shmem_info_get_version)(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

USH_API(void, shmem_info_get_name)(char *name)
{
    /* The spec's buffer holds SHMEM_MAX_NAME_LEN characters. */
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}
