/*
 * Old programs must keep working: <mpp/shmem.h> alone, start_pes (twice,
 * the second call has no effect), _my_pe/_num_pes, shmalloc/shrealloc/
 * shmemalign/shfree, the _SHMEM_* constants and shmem_wait; the C11
 * generic selections (shmem_put, shmem_p, shmem_atomic_fetch_add,
 * shmem_wait_until, ...) on several types, with and without a context;
 * shmem_info_get_version/get_name.
 *
 * start_pes needs no shmem_finalize: the library finalizes implicitly at
 * exit, so this program returns from main without calling it.
 */
#include <mpp/shmem.h>

#include "pe_test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The oldest spec version the runtime may report. */
#ifdef PE_TEST_REQUIRE_SPEC
#define MIN_VERSION PE_TEST_REQUIRE_SPEC
#else
#define MIN_VERSION 105
#endif

static long      g_long[8];
static double    g_double[8];
static int       g_int;
static long long g_llong;
static long      g_wait;
static int       g_int_wait;

static void test_start_and_query(void)
{
    start_pes(0);
    start_pes(0); /* no effect */
    pe_test_started();
    CHECK_EQ(_my_pe(), shmem_my_pe());
    CHECK_EQ(_num_pes(), shmem_n_pes());
}

static void test_info(void)
{
    int  major = -1, minor = -1;
    char name[SHMEM_MAX_NAME_LEN];

    pe_section("info");
    shmem_info_get_version(&major, &minor);
    CHECK_EQ(major, SHMEM_MAJOR_VERSION);
    CHECK_EQ(minor, SHMEM_MINOR_VERSION);
    CHECK_EQ(major, 1);
    CHECK_MSG(major * 100 + minor >= MIN_VERSION, "version %d.%d older than %d.%d", major, minor,
              MIN_VERSION / 100, MIN_VERSION % 100);
    CHECK_EQ(_SHMEM_MAJOR_VERSION, SHMEM_MAJOR_VERSION);
    CHECK_EQ(_SHMEM_MINOR_VERSION, SHMEM_MINOR_VERSION);
    CHECK_EQ(_SHMEM_MAX_NAME_LEN, SHMEM_MAX_NAME_LEN);

    memset(name, 'x', sizeof(name));
    shmem_info_get_name(name);
    CHECK_MSG(memchr(name, '\0', sizeof(name)) != NULL, "name not terminated within %d bytes",
              SHMEM_MAX_NAME_LEN);
    CHECK_MSG(name[0] != '\0', "empty vendor name");
    CHECK_MSG(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%.100s', SHMEM_VENDOR_STRING '%.100s'", name,
              SHMEM_VENDOR_STRING);
#if PE_SPEC_AT_LEAST(1, 5) /* listed with the other _SHMEM_* names since 1.5 */
    CHECK(strcmp(_SHMEM_VENDOR_STRING, SHMEM_VENDOR_STRING) == 0);
#endif
    if (pe_me == 0) {
        printf("[PE 0] %s, OpenSHMEM %d.%d\n", name, major, minor);
        fflush(stdout);
    }
}

static void test_old_allocators(void)
{
    const int right = (pe_me + 1) % pe_npes, left = (pe_me + pe_npes - 1) % pe_npes;
    long     *a, *b;

    pe_section("shmalloc/shrealloc/shmemalign/shfree");
    a = shmalloc(16 * sizeof(long));
    CHECK(a != NULL);
    for (int i = 0; i < 16; i++)
        a[i] = 1000 * pe_me + i;
    b = shmemalign(4096, 100);
    CHECK(b != NULL);
    CHECK_EQ((uintptr_t)b % 4096, 0);
    a = shrealloc(a, 4096 * sizeof(long));
    CHECK(a != NULL);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(a[i], 1000L * pe_me + i); /* kept */
    shmem_barrier_all();
    shmem_long_p(&a[4095], 7000 + pe_me, right);
    shmem_long_p(b, 8000 + pe_me, right);
    shmem_barrier_all();
    CHECK_EQ(a[4095], 7000L + left);
    CHECK_EQ(*b, 8000L + left);
    shfree(b);
    shfree(a);
}

static void test_generics(void)
{
    const int right = (pe_me + 1) % pe_npes, left = (pe_me + pe_npes - 1) % pe_npes;
    long      lsrc[8], lgot[8];
    double    dsrc[8];

    pe_section("C11 generic RMA");
    for (int i = 0; i < 8; i++) {
        lsrc[i] = 100 * pe_me + i;
        dsrc[i] = pe_me + i / 4.0; /* exact in binary */
    }
    shmem_put(g_long, lsrc, 4, right);
    shmem_put(SHMEM_CTX_DEFAULT, g_long + 4, lsrc + 4, 4, right);
    shmem_put(g_double, dsrc, 8, right);
    shmem_p(&g_int, 5 * pe_me + 1, right);
    shmem_p(SHMEM_CTX_DEFAULT, &g_llong, 1000000000000LL + pe_me, right);
    shmem_barrier_all();
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(g_long[i], 100L * left + i);
        CHECK_EQ(g_double[i], left + i / 4.0);
    }
    CHECK_EQ(g_int, 5 * left + 1);
    CHECK_EQ(g_llong, 1000000000000LL + left);
    shmem_get(lgot, g_long, 8, right); /* right received ours */
    for (int i = 0; i < 8; i++)
        CHECK_EQ(lgot[i], 100L * pe_me + i);
    CHECK_EQ(shmem_g(&g_int, right), 5 * pe_me + 1);
    CHECK_EQ(shmem_g(SHMEM_CTX_DEFAULT, &g_double[7], right), pe_me + 7 / 4.0);
    shmem_barrier_all();

    pe_section("C11 generic atomics");
    g_int = 0;
    g_llong = 0;
    g_long[0] = 0;
    shmem_barrier_all();
    {
        int       r = shmem_atomic_fetch_add(&g_int, 2, 0);
        long long q = shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, &g_llong, 3LL, 0);
        CHECK(r >= 0 && r < 2 * pe_npes && r % 2 == 0);
        CHECK(q >= 0 && q < 3 * pe_npes && q % 3 == 0);
    }
    shmem_atomic_inc(&g_long[0], 0);
    shmem_barrier_all();
    CHECK_EQ(shmem_atomic_fetch(&g_int, 0), 2 * pe_npes);
    CHECK_EQ(shmem_atomic_fetch(&g_llong, 0), 3LL * pe_npes);
    CHECK_EQ(shmem_atomic_fetch(&g_long[0], 0), (long)pe_npes);
    shmem_barrier_all();

    pe_section("C11 generic wait_until/test");
    g_int = 0;
    g_long[1] = 0;
    g_llong = 0;
    shmem_barrier_all();
    shmem_p(&g_long[1], 41L, right);
    shmem_fence();
    shmem_p(&g_llong, 42LL, right);
    shmem_fence();
    shmem_p(&g_int, 43, right);
    shmem_wait_until(&g_long[1], _SHMEM_CMP_EQ, 41L);
    shmem_wait_until(&g_llong, SHMEM_CMP_GE, 42LL);
    while (!shmem_test(&g_int, _SHMEM_CMP_EQ, 43))
        ;
    CHECK_EQ(PE_READ(g_long[1]), 41L);
    CHECK_EQ(PE_READ(g_llong), 42LL);
    CHECK_EQ(PE_READ(g_int), 43);
    shmem_barrier_all();
}

/* The OpenSHMEM 1.3 generic atomics (deprecated since 1.4): ushmem must
 * have them; another library is tested only if it defines them. */
#if defined(PE_TEST_REQUIRE_SPEC) || defined(shmem_fadd)
static void test_old_generic_atomics(void)
{
    static int    d_int;
    static long   d_long;
    static double d_double;
    const int     right = (pe_me + 1) % pe_npes;

    pe_section("1.3 generic atomics");
    d_int = 0;
    d_long = 0;
    d_double = 0;
    shmem_barrier_all();
    shmem_inc(&d_int, 0);
    shmem_add(&d_long, 5L, 0);
    int before = shmem_finc(&d_int, 0);
    CHECK(before >= 0 && before < 2 * pe_npes);
    CHECK_EQ(shmem_fadd(&d_long, 0L, 0) % 5, 0L);
    shmem_set(&d_double, 0.5 * pe_me, right);
    shmem_barrier_all();
    if (pe_me == 0) {
        CHECK_EQ(shmem_fetch(&d_int, 0), 2 * pe_npes);
        CHECK_EQ(shmem_fetch(&d_long, 0), 5L * pe_npes);
    }
    CHECK_EQ(shmem_fetch(&d_double, pe_me), 0.5 * ((pe_me + pe_npes - 1) % pe_npes));
    shmem_barrier_all();
    CHECK_EQ(shmem_swap(&d_double, 1.0, pe_me), 0.5 * ((pe_me + pe_npes - 1) % pe_npes));
    if (pe_me == 0) CHECK_EQ(shmem_cswap(&d_long, 5L * pe_npes, -1L, 0), 5L * pe_npes);
    shmem_barrier_all();
    CHECK_EQ(shmem_cswap(&d_long, 0L, 7L, 0), -1L); /* no match: unchanged */
    shmem_barrier_all();
}
#else
static void test_old_generic_atomics(void) {}
#endif

static void test_old_wait(void)
{
    const int right = (pe_me + 1) % pe_npes;

    pe_section("shmem_wait, shmem_int_wait");
    shmem_long_p(&g_wait, 1L, right);
    shmem_int_p(&g_int_wait, 2, right);
    shmem_wait(&g_wait, 0L);         /* until it is no longer 0 */
    shmem_int_wait(&g_int_wait, 0);
    CHECK_EQ(PE_READ(g_wait), 1L);
    CHECK_EQ(PE_READ(g_int_wait), 2);
}

int main(void)
{
    test_start_and_query();
    test_info();
    test_old_allocators();
    test_generics();
    test_old_generic_atomics();
    test_old_wait();
    pe_test_report_pass();
    return 0; /* finalized implicitly at exit */
}
