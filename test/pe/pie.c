/*
 * Static data in position-independent and fixed-position executables.
 *
 * Built twice (see CMakeLists.txt): pe_pie with -fPIE -pie, pe_nopie with
 * -fno-pie -no-pie; PE_EXPECT_PIE says which, and the program checks its own
 * ELF type so a build-flag mistake cannot pass silently.
 *
 * Each PE puts into its right neighbour's global array (.bss), initialised
 * global (.data) and function-local static, and gets from its left
 * neighbour's; then every value is checked.  A PIE with address-space
 * randomisation loads at a different address in every process, so the same
 * global sits at different addresses on different PEs: the library must
 * translate through the peer's own base, not reuse the local address.  The
 * program checks that the addresses really differ (when randomisation is
 * on), so the test proves what it claims.
 */
#include "pe_test.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/personality.h>

#ifndef PE_EXPECT_PIE
#error "build with -DPE_EXPECT_PIE=1 (PIE) or -DPE_EXPECT_PIE=0"
#endif

#define N 32

int  pie_global[N];                  /* .bss */
long pie_initialised[4] = {1, 2, 3, 4}; /* .data */

static long *local_static(void)
{
    static long values[N]; /* function-local static */
    return values;
}

static int value(int src, int dst, int i, int kind)
{
    return (int)(pe_key((uint64_t)src, (uint64_t)dst, (uint64_t)i, (uint64_t)kind, 31) >> 34);
}

/* ET_DYN for a PIE, ET_EXEC for a fixed-position executable. */
static int elf_type_of_self(void)
{
    Elf64_Ehdr eh;
    int        fd = open("/proc/self/exe", O_RDONLY);
    ssize_t    n;

    CHECK(fd >= 0);
    n = read(fd, &eh, sizeof(eh));
    close(fd);
    CHECK_EQ(n, (ssize_t)sizeof(eh));
    return eh.e_type;
}

static int aslr_active(void)
{
    FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
    int   level = 0;

    if (f) {
        if (fscanf(f, "%d", &level) != 1)
            level = 0;
        fclose(f);
    }
    return level > 0 && !(personality(0xffffffff) & ADDR_NO_RANDOMIZE);
}

int main(void)
{
    pe_test_init();
    const int me = pe_me, npes = pe_npes;
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    int       ibuf[N];
    long      lbuf[N];
    uint64_t *addrs = shmem_calloc((size_t)npes, sizeof(uint64_t));

    CHECK(addrs != NULL);
    CHECK_EQ(elf_type_of_self(), PE_EXPECT_PIE ? ET_DYN : ET_EXEC);

    pe_section("puts into the neighbour's static data");
    for (int i = 0; i < N; i++) {
        ibuf[i] = value(me, right, i, 0);
        lbuf[i] = value(me, right, i, 1);
    }
    shmem_int_put(pie_global, ibuf, N, right);
    shmem_long_put(local_static(), lbuf, N, right);
    shmem_long_p(&pie_initialised[2], value(me, right, 0, 2), right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++) {
        CHECK_EQ(pie_global[i], value(left, me, i, 0));
        CHECK_EQ(local_static()[i], (long)value(left, me, i, 1));
    }
    CHECK_EQ(pie_initialised[0], 1);
    CHECK_EQ(pie_initialised[1], 2);
    CHECK_EQ(pie_initialised[2], (long)value(left, me, 0, 2));
    CHECK_EQ(pie_initialised[3], 4);

    pe_section("gets from the neighbour's static data");
    memset(ibuf, 0, sizeof(ibuf));
    memset(lbuf, 0, sizeof(lbuf));
    shmem_int_get(ibuf, pie_global, N, left);
    shmem_long_get(lbuf, local_static(), N, left);
    for (int i = 0; i < N; i++) {
        CHECK_EQ(ibuf[i], value((left + npes - 1) % npes, left, i, 0));
        CHECK_EQ(lbuf[i], (long)value((left + npes - 1) % npes, left, i, 1));
    }
    CHECK_EQ(shmem_long_g(&pie_initialised[3], left), 4);

    pe_section("addresses of the same global on each PE");
    shmem_uint64_p(&addrs[me], (uint64_t)(uintptr_t)pie_global, 0);
    shmem_barrier_all();
    if (me == 0) {
        int distinct = 0;
        for (int s = 0; s < npes; s++) {
            int seen = 0;
            for (int t = 0; t < s; t++)
                seen |= addrs[t] == addrs[s];
            distinct += !seen;
        }
        printf("[PE 0] pie_global sits at %d distinct addresses on %d PEs\n", distinct, npes);
        fflush(stdout);
        if (!PE_EXPECT_PIE)
            CHECK_EQ(distinct, 1); /* fixed position: same address everywhere */
        else if (npes > 1 && aslr_active())
            CHECK_MSG(distinct > 1, "PIE with ASLR, yet every PE has pie_global at %p",
                      (void *)(uintptr_t)addrs[0]);
    }
    shmem_free(addrs);
    return pe_test_finish();
}
