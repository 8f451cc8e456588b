/*
 * Active-set barrier on the channel of the caller's pSync: the
 * dissemination pattern of barrier.c, one signal per round, on words
 * USH_W_BAR + r. Round r hears only from member me - 2^r, so each word has
 * one sender, and each signal is taken back by the wait it was meant for.
 */
#include "coll_sync.h"

void ush_coll_barrier_aset(const ush_coll_sync_t *s)
{
    int n = s->set.size, me = s->set.me;

    for (int r = 0, dist = 1; dist < n; r++, dist <<= 1) {
        ush_coll_signal(s, USH_W_BAR + r, (me + dist) % n);
        ush_hang_peer = ush_coll_pe(&s->set, (me - dist % n + n) % n);
        ush_coll_wait(s, USH_W_BAR + r);
        ush_hang_peer = -1;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
