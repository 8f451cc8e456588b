/*
 * Writes shmem.f90, the `shmem` module: explicit interfaces for every
 * routine of the 1.4 Fortran interface, so a call with a wrong number,
 * type or kind of arguments is a compile error. It is expanded from the
 * same family tables as the routines themselves
 * (fortran/ush_fortran_types.h) and its constants come from <shmem.h>.
 *
 * The interfaces describe the external procedures the library exports
 * (NAME_, by reference, as gfortran calls them), with ISO_C_BINDING kinds;
 * buffers of any type are assumed-type, assumed-size: TYPE(*),
 * DIMENSION(*), with a scalar twin where programs pass scalars
 * (generic_sub below). Run at build time; argv[1] is the file to write.
 */
#define _GNU_SOURCE /* open_memstream, POSIX 2008 */
#include "fortran/ush_fortran_types.h"

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

/* The Fortran declaration of one element of a family's kind. */
static const char *ftype(const char *kind)
{
    static const struct {
        const char *kind, *decl;
    } map[] = {
        { "int2", "integer(c_int16_t)" },   { "int4", "integer(c_int32_t)" },   { "int8", "integer(c_int64_t)" },
        { "real4", "real(c_float)" },       { "real8", "real(c_double)" },
        { "real16", "real(r16)" },          { "comp4", "complex(c_float_complex)" },
        { "comp8", "complex(c_double_complex)" },
        { "character", "character(kind=c_char, len=1)" },
        { "complex", "complex(c_float_complex)" },
        { "double", "real(c_double)" },     { "integer", "integer(c_int)" },
        { "logical", "logical" },           { "real", "real(c_float)" },
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(map[i].kind, kind) == 0) return map[i].decl;
    fprintf(stderr, "shmem_mod: no Fortran type for '%s'\n", kind);
    return "!!! unknown";
}

#define ANY  "type(*), dimension(*)"
#define FINT "integer(c_int)"

/* A subroutine: name, argument list, then its declarations. */
static void sub(const char *name, const char *args, const char *decls)
{
    fprintf(out, "    subroutine %s(%s)\n      import\n%s    end subroutine %s\n", name, args,
            decls, name);
}

static void fn(const char *type, const char *name, const char *args, const char *decls)
{
    fprintf(out, "    function %s(%s) result(r)\n      import\n      %s :: r\n%s"
                 "    end function %s\n",
            name, args, type, decls, name);
}

/* Routines whose buffers programs pass as arrays or as scalars (puts and
 * gets, broadcasts, reductions) get a generic interface of two specifics:
 * NAME with assumed-size arrays, as everywhere, and NAME_scalar with
 * scalars, bound to the NAME__ alias of the same routine (a scalar cannot
 * be passed to an assumed-size array through an explicit interface, and
 * `x(1:1)` everywhere would be a poor substitute). Generics are written
 * after the main interface block, into this buffer. */
static char  *generics;
static size_t generics_len;
static FILE  *gen;

static void generic_sub(const char *name, const char *args, const char *array_decls,
                        const char *scalar_decls)
{
    fprintf(gen, "  interface %s\n", name);
    fprintf(gen, "    subroutine %s(%s)\n      import\n%s    end subroutine %s\n", name, args,
            array_decls, name);
    fprintf(gen, "    subroutine %s_scalar(%s) &\n        bind(C, name=\"%s__\")\n      import\n%s"
                 "    end subroutine %s_scalar\n",
            name, args, name, scalar_decls, name);
    fprintf(gen, "  end interface %s\n", name);
}

/* ---- the families ------------------------------------------------------ */

static void rma(const char *name, const char *type)
{
    char n[64], d[512], ds[512];
    static const char *const forms[] = { "put", "get", "put_nbi", "get_nbi" };
    snprintf(d, sizeof(d),
             "      %s :: dest(*)\n      %s, intent(in) :: source(*)\n"
             "      " FINT ", intent(in) :: nelems, pe\n",
             type, type);
    snprintf(ds, sizeof(ds),
             "      %s :: dest\n      %s, intent(in) :: source\n"
             "      " FINT ", intent(in) :: nelems, pe\n",
             type, type);
    for (int i = 0; i < 4; i++) {
        if (name[0] >= '0' && name[0] <= '9') {
            /* sized: shmem_put4, shmem_put4_nbi */
            const char *f = forms[i];
            const char *nbi = strstr(f, "_nbi") ? "_nbi" : "";
            snprintf(n, sizeof(n), "shmem_%.3s%s%s", f, name, nbi);
        } else {
            snprintf(n, sizeof(n), "shmem_%s_%s", name, forms[i]);
        }
        generic_sub(n, "dest, source, nelems, pe", d, ds);
    }
}

static void rma_strided(const char *name, const char *type)
{
    char n[64], d[512];
    const char *dim = strstr(type, "dimension") ? "" : "(*)";
    snprintf(d, sizeof(d),
             "      %s :: dest%s\n      %s, intent(in) :: source%s\n"
             "      " FINT ", intent(in) :: dst, sst, nelems, pe\n",
             type, dim, type, dim);
    for (int put = 1; put >= 0; put--) {
        if (name[0] >= '0' && name[0] <= '9')
            snprintf(n, sizeof(n), "shmem_%s%s", put ? "iput" : "iget", name);
        else
            snprintf(n, sizeof(n), "shmem_%s_%s", name, put ? "iput" : "iget");
        sub(n, "dest, source, dst, sst, nelems, pe", d);
    }
}

#define RMA_SIZED_(SUF, BITS, BARE)                                           \
    rma(#SUF, "type(*)");                                                     \
    rma_strided(#SUF, "type(*), dimension(*)");
#define RMA_TYPED_(name, NAME, BITS, BARE) rma(#name, ftype(#name));
#define RMA_STRIDED_(name, NAME, BITS, BARE) rma_strided(#name, ftype(#name));

static void amo_int(const char *k)
{
    char n[64], d[256];
    const char *t = ftype(k);
    snprintf(d, sizeof(d), "      %s :: dest\n      %s, intent(in) :: value\n"
                           "      " FINT ", intent(in) :: pe\n", t, t);
    snprintf(n, sizeof(n), "shmem_%s_add", k);
    sub(n, "dest, value, pe", d);
    snprintf(n, sizeof(n), "shmem_%s_fadd", k);
    fn(t, n, "dest, value, pe", d);
    snprintf(n, sizeof(n), "shmem_%s_cswap", k);
    snprintf(d, sizeof(d), "      %s :: dest\n      %s, intent(in) :: cond, value\n"
                           "      " FINT ", intent(in) :: pe\n", t, t);
    fn(t, n, "dest, cond, value, pe", d);
    snprintf(d, sizeof(d), "      %s :: dest\n      " FINT ", intent(in) :: pe\n", t);
    snprintf(n, sizeof(n), "shmem_%s_inc", k);
    sub(n, "dest, pe", d);
    snprintf(n, sizeof(n), "shmem_%s_finc", k);
    fn(t, n, "dest, pe", d);
}

static void amo_ext(const char *k)
{
    char n[64], d[256];
    const char *t = ftype(k);
    snprintf(d, sizeof(d), "      %s, intent(in) :: source\n      " FINT ", intent(in) :: pe\n", t);
    snprintf(n, sizeof(n), "shmem_%s_fetch", k);
    fn(t, n, "source, pe", d);
    snprintf(d, sizeof(d), "      %s :: dest\n      %s, intent(in) :: value\n"
                           "      " FINT ", intent(in) :: pe\n", t, t);
    snprintf(n, sizeof(n), "shmem_%s_set", k);
    sub(n, "dest, value, pe", d);
    snprintf(n, sizeof(n), "shmem_%s_swap", k);
    fn(t, n, "dest, value, pe", d);
}

#define AMO_INT_(name, NAME, T, N) amo_int(#name);
#define AMO_EXT_(name, NAME, T, N) amo_ext(#name);

static void wait_fam(const char *n, const char *t)
{
    char d[256], nm[64];
    snprintf(d, sizeof(d), "      %s :: ivar\n      %s, intent(in) :: cmp_value\n", t, t);
    sub(n, "ivar, cmp_value", d);
    snprintf(d, sizeof(d), "      %s :: ivar\n      " FINT ", intent(in) :: cmp\n"
                           "      %s, intent(in) :: cmp_value\n", t, t);
    snprintf(nm, sizeof(nm), "%s_until", n);
    sub(nm, "ivar, cmp, cmp_value", d);
}

#define WAIT_(name, NAME, T, N) wait_fam("shmem_" #name "_wait", ftype(#name));

#define SET_DECL "      " FINT ", intent(in) :: PE_start, logPE_stride, PE_size\n" \
                 "      " FINT " :: pSync(*)\n"

static void coll_sized(const char *suf, int alltoall_too)
{
    char n[64];
    snprintf(n, sizeof(n), "shmem_broadcast%s", suf);
    generic_sub(n, "dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, pSync",
                "      " ANY " :: dest\n      " ANY ", intent(in) :: source\n"
                "      " FINT ", intent(in) :: nelems, PE_root\n" SET_DECL,
                "      type(*) :: dest\n      type(*), intent(in) :: source\n"
                "      " FINT ", intent(in) :: nelems, PE_root\n" SET_DECL);
    static const char *const c[] = { "collect", "fcollect", "alltoall" };
    for (int i = 0; i < 2 + alltoall_too; i++) {
        snprintf(n, sizeof(n), "shmem_%s%s", c[i], suf);
        sub(n, "dest, source, nelems, PE_start, logPE_stride, PE_size, pSync",
            "      " ANY " :: dest\n      " ANY ", intent(in) :: source\n"
            "      " FINT ", intent(in) :: nelems\n" SET_DECL);
    }
    if (alltoall_too) {
        snprintf(n, sizeof(n), "shmem_alltoalls%s", suf);
        sub(n, "dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, pSync",
            "      " ANY " :: dest\n      " ANY ", intent(in) :: source\n"
            "      " FINT ", intent(in) :: dst, sst, nelems\n" SET_DECL);
    }
}

#define COLL_(SUF, BITS, BARE) coll_sized(#SUF, BITS == SUF);

static void to_all(const char *k, const char *op)
{
    char n[64], d[512], ds[512];
    const char *t = ftype(k);
    snprintf(n, sizeof(n), "shmem_%s_%s_to_all", k, op);
    snprintf(d, sizeof(d),
             "      %s :: dest(*)\n      %s, intent(in) :: source(*)\n"
             "      " FINT ", intent(in) :: nreduce\n" SET_DECL "      %s :: pWrk(*)\n",
             t, t, t);
    snprintf(ds, sizeof(ds),
             "      %s :: dest\n      %s, intent(in) :: source\n"
             "      " FINT ", intent(in) :: nreduce\n" SET_DECL "      %s :: pWrk(*)\n",
             t, t, t);
    generic_sub(n, "dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync", d, ds);
}

#define TO_ALL_BIT_(name, NAME, T, N)                                         \
    to_all(#name, "and");                                                     \
    to_all(#name, "or");                                                      \
    to_all(#name, "xor");
#define TO_ALL_MINMAX_(name, NAME, T, N)                                      \
    to_all(#name, "max");                                                     \
    to_all(#name, "min");
#define TO_ALL_ARITH_(name, NAME, T, N)                                       \
    to_all(#name, "sum");                                                     \
    to_all(#name, "prod");

static void iconst(const char *name, long v)
{
    fprintf(out, "  integer, parameter :: %s = %ld\n", name, v);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !(out = fopen(argv[1], "w")) ||
        !(gen = open_memstream(&generics, &generics_len))) {
        fprintf(stderr, "usage: shmem_mod OUTPUT\n");
        return 2;
    }
    fprintf(out,
            "! The shmem module of ushmem: OpenSHMEM 1.4's Fortran interface with\n"
            "! explicit interfaces (use shmem). Generated by fortran/gen/shmem_mod.c\n"
            "! from the library's family tables and <shmem.h>; do not edit.\n"
            "! Deprecated: OpenSHMEM 1.5 removed the Fortran bindings.\n"
            "module shmem\n"
            "  use, intrinsic :: iso_c_binding\n"
            "  implicit none\n"
            "  ! REAL*16, IEEE binary128\n"
            "  integer, parameter :: r16 = selected_real_kind(33, 4931)\n");
    iconst("SHMEM_MAJOR_VERSION", SHMEM_MAJOR_VERSION);
    iconst("SHMEM_MINOR_VERSION", SHMEM_MINOR_VERSION);
    iconst("SHMEM_MAX_NAME_LEN", SHMEM_MAX_NAME_LEN);
    fprintf(out, "  character(len=*), parameter :: SHMEM_VENDOR_STRING = '%s'\n",
            SHMEM_VENDOR_STRING);
    iconst("SHMEM_THREAD_SINGLE", SHMEM_THREAD_SINGLE);
    iconst("SHMEM_THREAD_FUNNELED", SHMEM_THREAD_FUNNELED);
    iconst("SHMEM_THREAD_SERIALIZED", SHMEM_THREAD_SERIALIZED);
    iconst("SHMEM_THREAD_MULTIPLE", SHMEM_THREAD_MULTIPLE);
    iconst("SHMEM_CMP_EQ", SHMEM_CMP_EQ);
    iconst("SHMEM_CMP_NE", SHMEM_CMP_NE);
    iconst("SHMEM_CMP_GT", SHMEM_CMP_GT);
    iconst("SHMEM_CMP_GE", SHMEM_CMP_GE);
    iconst("SHMEM_CMP_LT", SHMEM_CMP_LT);
    iconst("SHMEM_CMP_LE", SHMEM_CMP_LE);
    iconst("SHMEM_BARRIER_SYNC_SIZE", SHMEM_BARRIER_SYNC_SIZE);
    iconst("SHMEM_BCAST_SYNC_SIZE", SHMEM_BCAST_SYNC_SIZE);
    iconst("SHMEM_REDUCE_SYNC_SIZE", SHMEM_REDUCE_SYNC_SIZE);
    iconst("SHMEM_COLLECT_SYNC_SIZE", SHMEM_COLLECT_SYNC_SIZE);
    iconst("SHMEM_ALLTOALL_SYNC_SIZE", SHMEM_ALLTOALL_SYNC_SIZE);
    iconst("SHMEM_ALLTOALLS_SYNC_SIZE", SHMEM_ALLTOALLS_SYNC_SIZE);
    iconst("SHMEM_SYNC_SIZE", SHMEM_SYNC_SIZE);
    iconst("SHMEM_SYNC_VALUE", SHMEM_SYNC_VALUE);
    iconst("SHMEM_REDUCE_MIN_WRKDATA_SIZE", SHMEM_REDUCE_MIN_WRKDATA_SIZE);

    fprintf(out, "\n  interface\n");
    /* set-up and queries */
    sub("shmem_init", "", "");
    sub("shmem_finalize", "", "");
    sub("start_pes", "npes", "      " FINT ", intent(in) :: npes\n");
    sub("shmem_global_exit", "status", "      " FINT ", intent(in) :: status\n");
    fn(FINT, "shmem_my_pe", "", "");
    fn(FINT, "shmem_n_pes", "", "");
    fn(FINT, "my_pe", "", "");
    fn(FINT, "num_pes", "", "");
    fn("logical", "shmem_pe_accessible", "pe", "      " FINT ", intent(in) :: pe\n");
    fn("logical", "shmem_addr_accessible", "addr, pe",
       "      " ANY ", intent(in) :: addr\n      " FINT ", intent(in) :: pe\n");
    fn("integer(c_intptr_t)", "shmem_ptr", "dest, pe",
       "      " ANY ", intent(in) :: dest\n      " FINT ", intent(in) :: pe\n");
    sub("shmem_info_get_version", "major, minor", "      " FINT ", intent(out) :: major, minor\n");
    sub("shmem_info_get_name", "name", "      character(len=*), intent(out) :: name\n");
    sub("shmem_clear_cache_inv", "", "");
    sub("shmem_set_cache_inv", "", "");
    sub("shmem_udcflush", "", "");
    sub("shmem_set_cache_line_inv", "dest", "      " ANY " :: dest\n");
    sub("shmem_udcflush_line", "dest", "      " ANY " :: dest\n");
    /* symmetric heap: addr is a Cray pointer (an address-sized integer) */
    sub("shpalloc", "addr, length, errcode, abort",
        "      integer(c_intptr_t), intent(out) :: addr\n"
        "      " FINT ", intent(in) :: length, abort\n      " FINT ", intent(out) :: errcode\n");
    sub("shpdeallc", "addr, errcode, abort",
        "      integer(c_intptr_t), intent(inout) :: addr\n"
        "      " FINT ", intent(in) :: abort\n      " FINT ", intent(out) :: errcode\n");
    sub("shpclmove", "addr, length, status, abort",
        "      integer(c_intptr_t), intent(inout) :: addr\n"
        "      " FINT ", intent(in) :: length, abort\n      " FINT ", intent(out) :: status\n");
    /* RMA */
    USH_F_RMA_SIZES(RMA_SIZED_)
    static const char *const mem[] = { "shmem_putmem", "shmem_getmem", "shmem_putmem_nbi",
                                       "shmem_getmem_nbi" };
    for (int i = 0; i < 4; i++)
        generic_sub(mem[i], "dest, source, nelems, pe",
                    "      type(*) :: dest(*)\n      type(*), intent(in) :: source(*)\n"
                    "      " FINT ", intent(in) :: nelems, pe\n",
                    "      type(*) :: dest\n      type(*), intent(in) :: source\n"
                    "      " FINT ", intent(in) :: nelems, pe\n");
    USH_F_RMA_TYPES(RMA_TYPED_)
    USH_F_RMA_STRIDED_TYPES(RMA_STRIDED_)
    /* ordering, atomics, locks, waits */
    sub("shmem_fence", "", "");
    sub("shmem_quiet", "", "");
    USH_F_AMO_INT_TYPES(AMO_INT_)
    USH_F_AMO_INT_TYPES(AMO_EXT_)
    USH_F_AMO_REAL_TYPES(AMO_EXT_)
    fn(FINT, "shmem_swap", "dest, value, pe",
       "      " FINT " :: dest\n      " FINT ", intent(in) :: value, pe\n");
    sub("shmem_set_lock", "lock", "      " FINT " :: lock\n");
    sub("shmem_clear_lock", "lock", "      " FINT " :: lock\n");
    fn(FINT, "shmem_test_lock", "lock", "      " FINT " :: lock\n");
    USH_F_WAIT_TYPES(WAIT_)
    wait_fam("shmem_wait", FINT);
    /* collectives */
    sub("shmem_barrier_all", "", "");
    sub("shmem_barrier", "PE_start, logPE_stride, PE_size, pSync", SET_DECL);
    USH_F_COLL_SIZES(COLL_)
    USH_F_REDUCE_INT_TYPES(TO_ALL_BIT_)
    USH_F_REDUCE_INT_TYPES(TO_ALL_MINMAX_)
    USH_F_REDUCE_INT_TYPES(TO_ALL_ARITH_)
    USH_F_REDUCE_REAL_TYPES(TO_ALL_MINMAX_)
    USH_F_REDUCE_REAL_TYPES(TO_ALL_ARITH_)
    TO_ALL_MINMAX_(real16, REAL16, , )
    TO_ALL_ARITH_(real16, REAL16, , )
    USH_F_REDUCE_COMPLEX_TYPES(TO_ALL_ARITH_)
    fprintf(out, "  end interface\n\n");
    fclose(gen);
    fwrite(generics, 1, generics_len, out);
    fprintf(out, "end module shmem\n");
    if (fclose(out) != 0) {
        fprintf(stderr, "shmem_mod: could not write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
