/*
 * Start-up does no work per peer on large nodes: beyond 64 PEs a node, a
 * PE maps a node-local peer's memory when it first needs it, not in
 * shmem_init. On up to 64, PMIx's thread maps the node's peers in the
 * background while start-up goes on, each once.
 *
 * Each PE's static data is shared through a memfd that node-local peers
 * map, and every such mapping shows in /proc/self/maps under the memfd's
 * name. Right after shmem_init a PE of a node of more than 64 PEs may have
 * mapped only the few peers start-up itself talks to (the barrier's
 * ceil(log2 n) partners, PE 0 and its next node-local PE). Then every
 * peer's object is reached through shmem_ptr, which must work for each of
 * them (one node: all mappable) and map each exactly once.
 *
 * With "mixed", PEs differ in what they were given, and the choices every
 * PE must make alike (agreed at start-up) must still come out alike: odd
 * PEs run UCX over TCP only, do not share their static data (so the job
 * must agree that node-local static data does not map, while the heaps,
 * memfds of the library's own, still do: SHMEM_TEAM_SHARED is the node)
 * and run at SHMEM_THREAD_MULTIPLE (an active-set reduction then works
 * differently, on every PE); RMA, a barrier and reductions must still
 * give the right values.
 *
 * With "nostatic" (run with SHMEM_SHARE_STATIC=0) static data is not
 * shared, so peers' static data is reached through UCX, but their heaps
 * still map: SHMEM_TEAM_SHARED is still the node.
 *
 * With "nopidfd", pidfd_getfd is refused (seccomp, as some container
 * profiles and Yama's ptrace_scope=1 refuse it) before shmem_init: every
 * peer must still map, through /proc/<pid>/fd/<fd>.
 *
 * ushmem-specific (the memfd's name); run on one node.
 */
#include "pe_test.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TEST_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TEST_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#endif

#define MAX_PES 256

static long slots[MAX_PES]; /* static: slot w written by PE w */

static int static_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char  line[512];
    int   n = 0;

    CHECK(f != NULL);
    while (fgets(line, sizeof(line), f)) {
        if (strstr(line, "memfd:ushmem-static")) n++;
    }
    fclose(f);
    return n;
}

static int log2ceil(int n)
{
    int r = 0;
    while ((1 << r) < n) r++;
    return r;
}

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long red_src, red_dst, red_got, red_mine;

static int mixed(void)
{
    const int me = pe_me, npes = pe_npes;

    pe_section("mixed: agreed choices");
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), npes);
    long *heap = shmem_malloc(MAX_PES * sizeof(long));
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) shmem_long_p(&heap[me], 3L * me + pe, pe);
    shmem_barrier_all();
    for (int w = 0; w < npes; w++) CHECK_EQ(heap[w], 3L * w + me);
    for (int pe = 0; pe < npes; pe++) {
        CHECK(shmem_ptr(heap, pe) != NULL);
        if (pe % 2 == 1 && pe != me) CHECK(shmem_ptr(&red_src, pe) == NULL);
    }

    red_src = me + 1;
    shmem_long_sum_to_all(&red_dst, &red_src, 1, 0, 0, npes, pwrk, psync);
    CHECK_EQ(red_dst, (long)npes * (npes + 1) / 2);
    red_mine = 2L * me;
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &red_got, &red_mine, 1);
    CHECK_EQ(red_got, 2L * (npes - 1));
    shmem_free(heap);
    return pe_test_finish();
}

static int nostatic(void)
{
    const int me = pe_me, npes = pe_npes;

    pe_section("nostatic: heaps map, static data does not");
    CHECK_EQ(static_maps(), 0);
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), npes);
    long *heap = shmem_malloc(sizeof(long));
    *heap = 1000 + me;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        long *h = shmem_ptr(heap, pe);
        CHECK(h != NULL);
        CHECK_EQ(*h, 1000L + pe);
        if (pe != me) CHECK(shmem_ptr(&slots[me], pe) == NULL);
        shmem_long_p(&slots[me], 7L * me + 1, pe);
    }
    shmem_barrier_all();
    for (int w = 0; w < npes; w++) CHECK_EQ(slots[w], 7L * w + 1);
    shmem_free(heap);
    return pe_test_finish();
}

static int every_peer(void)
{
    const int me = pe_me, npes = pe_npes;
    CHECK(npes <= MAX_PES);

    pe_section("after shmem_init");
    int at_init = static_maps();
    CHECK(at_init >= 1);                            /* our own, at least */
    if (npes > 64)
        CHECK(at_init <= 1 + log2ceil(npes) + 2);   /* not one per peer */
    else
        CHECK(at_init <= npes);                     /* mapped ahead, each once */

    pe_section("every peer through shmem_ptr");
    long *heap = shmem_malloc(sizeof(long));
    *heap = 1000 + me;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        long *p = shmem_ptr(&slots[me], pe);
        long *h = shmem_ptr(heap, pe);
        CHECK(p != NULL);
        CHECK(h != NULL);
        *p = 7 * me + 1;
        CHECK_EQ(*h, 1000L + pe);
    }
    shmem_barrier_all();
    for (int w = 0; w < npes; w++) CHECK_EQ(slots[w], 7L * w + 1);
    CHECK_EQ(static_maps(), npes); /* each peer once, and our own */
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), npes);

    shmem_free(heap);
    return pe_test_finish();
}

/* pidfd_getfd fails with EPERM in this process and every thread and child
 * it makes from here on (PMIx's and UCX's threads among them). Whether
 * the filter took: a call with a bad descriptor must fail with EPERM,
 * not EBADF. */
static int refuse_pidfd_getfd(void)
{
#if defined(TEST_AUDIT_ARCH) && defined(SYS_pidfd_getfd)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_getfd, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        return 0;
    return syscall(SYS_pidfd_getfd, -1, 0, 0) == -1 && errno == EPERM;
#else
    return 0;
#endif
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "nopidfd") == 0) {
        int refused = refuse_pidfd_getfd();
        pe_test_init();
        pe_section("pidfd_getfd refused");
        CHECK(refused);
        return every_peer();
    }
    if (argc > 1 && strcmp(argv[1], "nostatic") == 0) {
        pe_test_init();
        return nostatic();
    }
    if (argc > 1 && strcmp(argv[1], "mixed") == 0) {
        /* The launcher's PMIx rank is the PE, before shmem_init says so. */
        const char *rank = getenv("PMIX_RANK");
        int         odd  = rank && atoi(rank) % 2 == 1, provided;
        if (odd) setenv("UCX_TLS", "tcp,self", 1), setenv("SHMEM_SHARE_STATIC", "0", 1);
        shmem_init_thread(odd ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE, &provided);
        pe_test_started();
        return mixed();
    }
    pe_test_init();
    return every_peer();
}
