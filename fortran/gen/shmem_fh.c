/*
 * Writes shmem.fh, the Fortran include file, from <shmem.h>: every
 * constant is printed from the C macro of the same name, so the two cannot
 * disagree. Run at build time (CMake); argv[1] is the file to write.
 *
 * The output is valid as fixed form (Fortran 77: statements from column 7,
 * nothing past column 72, '!' comments in column 1) and as free form, so
 * both kinds of program can INCLUDE it.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static FILE *out;
static int   failed;

/* One statement line; a line too long for fixed form is a bug here. */
static void line(const char *text)
{
    if (strlen(text) > 72) {
        fprintf(stderr, "shmem_fh: line longer than 72 columns: %s\n", text);
        failed = 1;
    }
    fprintf(out, "%s\n", text);
}

static void int_const(const char *name, long value)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "      INTEGER %s", name);
    line(buf);
    snprintf(buf, sizeof(buf), "      PARAMETER (%s = %ld)", name, value);
    line(buf);
}

/* A function's result type and EXTERNAL. Only for the three functions the
 * other implementations' shmem.fh declare (OSSS's, after SGI's; Sandia
 * OpenSHMEM's; Open MPI's): SHMEM_PTR, SHMEM_PE_ACCESSIBLE and
 * SHMEM_ADDR_ACCESSIBLE. Programs written for them call these under
 * IMPLICIT NONE without declaring them.
 * The other functions are the program's to declare ("INTEGER SHMEM_MY_PE,
 * ME"), and a second declaration is an error in gfortran. */
static void fn_type(const char *type, const char *names)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "      %s %s", type, names);
    line(buf);
    snprintf(buf, sizeof(buf), "      EXTERNAL %s", names);
    line(buf);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !(out = fopen(argv[1], "w"))) {
        fprintf(stderr, "usage: shmem_fh OUTPUT\n");
        return 2;
    }
    fprintf(out,
            "! shmem.fh: the OpenSHMEM 1.4 Fortran interface of ushmem.\n"
            "! INCLUDE 'shmem.fh' (or 'mpp/shmem.fh', the same file) in each\n"
            "! program unit that calls SHMEM routines; fixed or free form.\n"
            "! Declare the functions' result types in the program, as the\n"
            "! 1.4 synopses do (INTEGER SHMEM_MY_PE, INTEGER*8 SHMEM_INT8_FADD,\n"
            "! ...), except SHMEM_PTR, SHMEM_PE_ACCESSIBLE and\n"
            "! SHMEM_ADDR_ACCESSIBLE, declared here as in OSSS's, Sandia\n"
            "! OpenSHMEM's and Open MPI's shmem.fh.\n"
            "! Generated from <shmem.h>; do not edit.\n"
            "! Deprecated: OpenSHMEM 1.5 removed the Fortran bindings.\n");

    line("!     Version of the specification the library implements");
    int_const("SHMEM_MAJOR_VERSION", SHMEM_MAJOR_VERSION);
    int_const("SHMEM_MINOR_VERSION", SHMEM_MINOR_VERSION);
    int_const("SHMEM_MAX_NAME_LEN", SHMEM_MAX_NAME_LEN);
    line("      CHARACTER*(*) SHMEM_VENDOR_STRING");
    {
        char buf[128];
        snprintf(buf, sizeof(buf), "      PARAMETER (SHMEM_VENDOR_STRING = '%s')",
                 SHMEM_VENDOR_STRING);
        line(buf);
    }

    line("!     Thread levels");
    int_const("SHMEM_THREAD_SINGLE", SHMEM_THREAD_SINGLE);
    int_const("SHMEM_THREAD_FUNNELED", SHMEM_THREAD_FUNNELED);
    int_const("SHMEM_THREAD_SERIALIZED", SHMEM_THREAD_SERIALIZED);
    int_const("SHMEM_THREAD_MULTIPLE", SHMEM_THREAD_MULTIPLE);

    line("!     Comparisons of SHMEM_WAIT_UNTIL");
    int_const("SHMEM_CMP_EQ", SHMEM_CMP_EQ);
    int_const("SHMEM_CMP_NE", SHMEM_CMP_NE);
    int_const("SHMEM_CMP_GT", SHMEM_CMP_GT);
    int_const("SHMEM_CMP_GE", SHMEM_CMP_GE);
    int_const("SHMEM_CMP_LT", SHMEM_CMP_LT);
    int_const("SHMEM_CMP_LE", SHMEM_CMP_LE);

    line("!     pSync (default INTEGER arrays) and pWrk sizes");
    int_const("SHMEM_BARRIER_SYNC_SIZE", SHMEM_BARRIER_SYNC_SIZE);
    int_const("SHMEM_BCAST_SYNC_SIZE", SHMEM_BCAST_SYNC_SIZE);
    int_const("SHMEM_REDUCE_SYNC_SIZE", SHMEM_REDUCE_SYNC_SIZE);
    int_const("SHMEM_COLLECT_SYNC_SIZE", SHMEM_COLLECT_SYNC_SIZE);
    int_const("SHMEM_ALLTOALL_SYNC_SIZE", SHMEM_ALLTOALL_SYNC_SIZE);
    int_const("SHMEM_ALLTOALLS_SYNC_SIZE", SHMEM_ALLTOALLS_SYNC_SIZE);
    int_const("SHMEM_SYNC_SIZE", SHMEM_SYNC_SIZE);
    int_const("SHMEM_SYNC_VALUE", SHMEM_SYNC_VALUE);
    int_const("SHMEM_REDUCE_MIN_WRKDATA_SIZE", SHMEM_REDUCE_MIN_WRKDATA_SIZE);

    line("!     Declared here, as the other implementations' shmem.fh do");
    fn_type("INTEGER*8", "SHMEM_PTR");
    fn_type("LOGICAL", "SHMEM_PE_ACCESSIBLE");
    fn_type("LOGICAL", "SHMEM_ADDR_ACCESSIBLE");

    if (fclose(out) != 0 || failed) {
        fprintf(stderr, "shmem_fh: could not write %s\n", argv[1]);
        remove(argv[1]);
        return 1;
    }
    return 0;
}
