/*
 * Put-with-signal as a producer/consumer pipeline around a ring.
 *
 * Each round every PE sends a payload to its right neighbour with
 * shmem_putmem_signal[_nbi], waits with shmem_signal_wait_until for the
 * payload from its left neighbour, checks every byte of it, and
 * acknowledges with shmem_signal_set / shmem_signal_add; a producer waits
 * for the acknowledgement of round r-1 before it overwrites the inbox in
 * round r. The signal value is exact at every step (r for SET, 1+...+r for
 * ADD), so a lost, doubled or early signal is caught, and a payload read
 * right after the wait catches a signal that overtook its data.
 *
 * Configurations: payload on the heap or in static data, times signal on
 * the heap or in static data (the mixed pairs take different routes when
 * SHMEM_SHARE_STATIC=0: static data through UCX, the heap mapped), times
 * SET/ADD, times blocking/nbi. Payload sizes vary from 1 byte up; a last
 * phase sends 1 MiB payloads. The source is clobbered as soon as the
 * routine (blocking) or shmem_quiet (nbi) returns, which the receiver's
 * check would catch if the data were still being read from it.
 */
#include "pe_test.h"

#if !PE_SPEC_AT_LEAST(1, 6)
int main(void)
{
    pe_test_init(); /* signal_set/add need OpenSHMEM 1.6 */
    return pe_test_finish();
}
#else

#define BIG          ((size_t)1 << 20)
#define SMALL_ROUNDS 60
#define BIG_ROUNDS   3
#define SMALL_MAX    3000

enum { SIG_DATA = 0, SIG_ACK = 1 };

static unsigned char inbox_static[BIG];
static uint64_t      sig_static[2];

static unsigned char *inbox_heap;
static uint64_t      *sig_heap;
static unsigned char *src; /* private */

static uint64_t seed(int from, int r, int cfg)
{
    return pe_key((uint64_t)from, (uint64_t)r, (uint64_t)cfg, 0, 0x5167);
}

/* One configuration: rounds rounds of len(r) bytes. */
static void run(int cfg, int payload_static, int sig_static_seg, int add, int nbi, int rounds,
                size_t big)
{
    const int      me = pe_me, n = pe_npes;
    const int      right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *inbox = payload_static ? inbox_static : inbox_heap;
    uint64_t      *sig   = sig_static_seg ? sig_static : sig_heap;
    uint64_t       expect = 0;

    sig[SIG_DATA] = 0;
    sig[SIG_ACK]  = 0;
    shmem_barrier_all();

    for (int r = 1; r <= rounds; r++) {
        const size_t len = big ? big : 1 + ((size_t)r * 997) % SMALL_MAX;

        /* The right neighbour has consumed round r-1, and no more (it has
         * not been sent r yet). */
        CHECK_EQ(shmem_signal_wait_until(&sig[SIG_ACK], SHMEM_CMP_GE, (uint64_t)(r - 1)),
                 (uint64_t)(r - 1));

        pe_fill_pattern(src, len, seed(me, r, cfg));
        const int      op = add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        const uint64_t v  = (uint64_t)r;
        if (nbi) {
            shmem_putmem_signal_nbi(inbox, src, len, &sig[SIG_DATA], v, op, right);
            shmem_quiet();
        } else {
            shmem_putmem_signal(inbox, src, len, &sig[SIG_DATA], v, op, right);
        }
        memset(src, 0, len); /* the source is ours again */

        expect = add ? expect + (uint64_t)r : (uint64_t)r;
        CHECK_EQ(shmem_signal_wait_until(&sig[SIG_DATA], SHMEM_CMP_GE, expect), expect);
        CHECK_EQ(shmem_signal_fetch(&sig[SIG_DATA]), expect);
        pe_check_pattern(__FILE__, __LINE__, "inbox", inbox, len, seed(left, r, cfg));

        if (add)
            shmem_signal_add(&sig[SIG_ACK], 1, left);
        else
            shmem_signal_set(&sig[SIG_ACK], (uint64_t)r, left);
    }
    /* The last acknowledgement is complete at the barrier (it quiets). */
    shmem_barrier_all();
    CHECK_EQ(shmem_signal_fetch(&sig[SIG_ACK]), (uint64_t)rounds);
    CHECK_EQ(shmem_signal_fetch(&sig[SIG_DATA]), expect);
    shmem_barrier_all();
}

/* argv[1], if given, is the number of rounds of the small-payload phase
 * (default SMALL_ROUNDS): the SHMEM_SHARE_STATIC=0 run takes fewer, since
 * every operation on static data then goes through UCX's emulated path. */
int main(int argc, char **argv)
{
    pe_test_init();
    const int small_rounds = argc > 1 ? atoi(argv[1]) : SMALL_ROUNDS;
    CHECK(small_rounds >= 1);
    inbox_heap = shmem_malloc(BIG);
    sig_heap   = shmem_malloc(2 * sizeof(uint64_t));
    src        = malloc(BIG);
    CHECK(inbox_heap != NULL);
    CHECK(sig_heap != NULL);
    CHECK(src != NULL);

    static const char *const where[2] = {"heap", "static"};
    int cfg = 0;
    for (int ps = 0; ps < 2; ps++) {
        for (int ss = 0; ss < 2; ss++) {
            for (int add = 0; add < 2; add++) {
                for (int nbi = 0; nbi < 2; nbi++) {
                    char name[96];
                    snprintf(name, sizeof(name), "payload %s, signal %s, %s, %s", where[ps],
                             where[ss], add ? "ADD" : "SET", nbi ? "nbi" : "blocking");
                    pe_section(name);
                    run(cfg++, ps, ss, add, nbi, small_rounds, 0);
                }
            }
        }
    }

    /* 1 MiB payloads: each pairing of segments once, both operations and
     * both completion modes among them. */
    for (int ps = 0; ps < 2; ps++) {
        for (int ss = 0; ss < 2; ss++) {
            char name[96];
            snprintf(name, sizeof(name), "1 MiB payload %s, signal %s", where[ps], where[ss]);
            pe_section(name);
            run(cfg++, ps, ss, ps ^ ss, ss, BIG_ROUNDS, BIG);
        }
    }

    free(src);
    shmem_free(sig_heap);
    shmem_free(inbox_heap);
    return pe_test_finish();
}
#endif
