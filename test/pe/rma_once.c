/*
 * A put writes each byte of its destination once. Pairs of PEs bounce a
 * counter: the sender puts round k into the receiver's flag, the receiver
 * waits for a non-zero flag, reads it, clears it, and acknowledges with
 * an atomic. A put that stored its word twice (glibc's memcpy writes 8 to
 * 15 bytes as two overlapping 8-byte stores) lets the second store land
 * after the clear, so the next wait returns at once with the old round.
 * Each way of putting is tried: shmem_long_p, shmem_int_p, a one-element
 * shmem_long_put, and a 3-int put whose middle element is the flag.
 *
 * A quiet machine runs all ROUNDS rounds of a way in about a second. On a
 * busy one each hop of the bounce can wait for another process's whole
 * time slice (milliseconds), so the sender ends a way early once it has
 * bounced MIN_ROUNDS rounds for WAY_SECONDS: it puts the round negated,
 * which tells the receiver that this round is the last.
 */
#include "pe_test.h"

#include <time.h>

#define ROUNDS      100000
#define MIN_ROUNDS  1000
#define WAY_SECONDS 3

static long flag_l, ack;
static int  flag_i[3];

static void bounce(const char *how, int peer, int sender)
{
    pe_section(how);
    shmem_barrier_all();
    time_t end = pe_now() + WAY_SECONDS;
    for (long k = 1, last = 0; k <= ROUNDS && !last; k++) {
        if (sender) {
            last    = k == ROUNDS || (k >= MIN_ROUNDS && pe_now() >= end);
            long sk = last ? -k : k; /* what this round sends */
            if (how[0] == 'l') {
                shmem_long_p(&flag_l, sk, peer);
            } else if (how[0] == 'i') {
                shmem_int_p(&flag_i[1], (int)sk, peer);
            } else if (how[0] == 'p') {
                shmem_long_put(&flag_l, &sk, 1, peer);
            } else {
                int v[3] = { 0, (int)sk, 0 };
                shmem_int_put(flag_i, v, 3, peer);
            }
            shmem_long_wait_until(&ack, SHMEM_CMP_EQ, sk);
        } else {
            long got;
            if (how[0] == 'l' || how[0] == 'p') {
                shmem_long_wait_until(&flag_l, SHMEM_CMP_NE, 0);
                got      = PE_READ(flag_l);
                flag_l   = 0;
            } else {
                shmem_int_wait_until(&flag_i[1], SHMEM_CMP_NE, 0);
                got       = PE_READ(flag_i[1]);
                flag_i[1] = 0;
            }
            last = got < 0;
            CHECK_EQ(last ? -got : got, k);
            shmem_long_atomic_set(&ack, got, peer);
        }
    }
    shmem_barrier_all();
    ack = 0;
    shmem_barrier_all();
}

int main(void)
{
    pe_test_init();
    int peer = pe_me ^ 1;
    if (peer < pe_npes) {
        int sender = (pe_me & 1) == 0;
        bounce("long_p", peer, sender);
        bounce("int_p", peer, sender);
        bounce("put of one long", peer, sender);
        bounce("3-int put, flag in the middle", peer, sender);
    } else {
        for (int i = 0; i < 12; i++) shmem_barrier_all(); /* the odd one out: bounce's 3, 4 times */
    }
    return pe_test_finish();
}
