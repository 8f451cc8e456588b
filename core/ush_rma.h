/*
 * The internal data-movement layer: what the public routines (api/) and
 * the collectives call. Addresses are symmetric addresses as the user wrote
 * them; translation to a segment and offset, and the choice between a direct
 * load/store on a mapped peer and a UCX operation, happen below this line.
 *
 * Callers have already checked their arguments (see ush_check.h); these
 * routines trust them.
 */
#ifndef USH_RMA_H
#define USH_RMA_H

#include "ush_hang.h"

#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

/* Contiguous RMA. put returns when src may be reused; get when dest holds
 * the data. The _nbi forms complete at the next quiet on ctx. */
void ush_put(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe);
void ush_put_nbi(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe);
void ush_get(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe);
void ush_get_nbi(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes, int pe);

/* A get on the default context that increments *counter (release) once
 * dest holds the data: before it returns where the peer is mapped or no
 * progress thread runs, else from the progress thread (the HPVM
 * interface's shmem_cget, api/hpvm.c). nbytes > 0. */
void ush_get_counted(void *dest, const void *src, size_t nbytes, int pe, int *counter);

/* Strided RMA: nelems elements of elem_size bytes; strides in elements. */
void ush_iput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
              ptrdiff_t sst, size_t nelems, size_t elem_size, int pe);
void ush_iget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
              ptrdiff_t sst, size_t nelems, size_t elem_size, int pe);

/* Block-strided RMA (1.6): nblocks blocks of bsize elements; strides are in
 * elements between the starts of consecutive blocks. */
void ush_ibput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
               ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size, int pe);
void ush_ibget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
               ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size, int pe);

/* Atomics on 4- or 8-byte objects. Operands travel as bit patterns in a
 * uint64_t (the low `size` bytes count), so one path serves signed,
 * unsigned and floating types. FETCH ignores value; CSWAP stores value
 * where the old content equals cond. */
typedef enum {
    USH_AMO_FETCH,
    USH_AMO_SET,
    USH_AMO_SWAP,
    USH_AMO_CSWAP,
    USH_AMO_ADD,
    USH_AMO_AND,
    USH_AMO_OR,
    USH_AMO_XOR
} ush_amo_op_t;

/* Blocking fetching atomic: returns the old value. */
uint64_t ush_amo_fetch(shmem_ctx_t ctx, ush_amo_op_t op, void *dest,
                       uint64_t value, uint64_t cond, size_t size, int pe);
/* Non-fetching atomic (SET, ADD, AND, OR, XOR): ordered like a put. */
void ush_amo_post(shmem_ctx_t ctx, ush_amo_op_t op, void *dest, uint64_t value,
                  size_t size, int pe);
/* Fetching atomic whose old value lands in *fetch by the next quiet. */
void ush_amo_fetch_nbi(shmem_ctx_t ctx, ush_amo_op_t op, void *fetch, void *dest,
                       uint64_t value, uint64_t cond, size_t size, int pe);

/* Put-with-signal: nbytes from src to dest on pe, then sig_op (USH_AMO_SET
 * or USH_AMO_ADD) with signal on the uint64_t at sig_addr on pe, so that a
 * PE that sees the signal sees the payload. blocking: returns when src may
 * be reused; otherwise the put completes by the next quiet on ctx. */
void ush_put_signal(shmem_ctx_t ctx, void *dest, const void *src, size_t nbytes,
                    uint64_t *sig_addr, uint64_t signal, ush_amo_op_t sig_op, int pe,
                    int blocking);

/* A collective's eager messages to PEs on other nodes (core/eager.c over
 * transport/am_eager.c): data the receiver's library keeps until the
 * receiver asks for it, so the sender needs no "ready" first. tag is a
 * symmetric address (the word a flag would use) that names the stream;
 * messages from one PE under one tag are received in the order sent.
 * ush_eager_ok says whether the job sends them to pe at all and whether
 * len bytes may go that way; the same on both sides of a pair. */
int  ush_eager_ok(const void *tag, size_t len, int pe);
/* Waits for room (the receiver keeps a bounded number per sender), then
 * sends; returns when src may be reused. */
void ush_eager_send(const void *tag, const void *src, size_t len, int pe);
/* Waits for the oldest message from pe under tag; *data and *len say
 * where it is. Pass the handle to ush_eager_done once the data is used. */
void *ush_eager_recv(const void *tag, int pe, const void **data, size_t *len);
/* The same without waiting: NULL when no message is in. */
void *ush_eager_poll(const void *tag, int pe, const void **data, size_t *len);
void  ush_eager_done(void *msg);

/* A collective's own put-with-signal: nbytes from src to dest on pe (none
 * when nbytes is 0), then add added to the uint64_t at sig_addr there, so
 * that a PE that sees the add sees the data. Where pe is not mapped, the
 * job spans nodes and its atomics are the CPU's, both travel in one message
 * (ush_tp_put_add). Returns when src may be reused. No quiet owes it a
 * flush: its receiver waits for the flag. */
void ush_put_add_own(void *dest, const void *src, size_t nbytes, uint64_t *sig_addr, uint64_t add,
                     int pe);

/* Completion and ordering. */
void ush_quiet(shmem_ctx_t ctx);
void ush_fence(shmem_ctx_t ctx);

/* One step of a blocking wait: drives UCX progress so remote operations
 * that need this PE complete, spins briefly, then yields the CPU (at once
 * when PEs outnumber cores). The state counts the steps of this one wait,
 * so back-to-back short waits (a ping-pong) all start by spinning.
 * Reads of the waited-on variable must be volatile or atomic loads. */
typedef struct {
    unsigned steps;
    unsigned serial; /* names this wait in the beacon, once it has published */
    uint64_t since;  /* CLOCK_MONOTONIC ms + 1 when it wrote its hang record; 0: not yet */
} ush_wait_t;
void ush_wait_step(ush_wait_t *w);
/* A wait that published is over: the hang record says so. */
void ush_wait_end(ush_wait_t *w);

/* The wait beacon: one symmetric word where this PE's waits publish which
 * wait they are in (a serial, high half) and how many steps it has taken
 * (low half), so that a PE exiting without shmem_finalize can see every
 * other PE stuck waiting, for it, and end the job at once (fault.c).
 * Taken from the heap at shmem_init, forgotten at shmem_finalize. */
#define USH_WAIT_BEACON_EXITING UINT64_MAX
extern uint64_t *ush_wait_beacon;
void ush_wait_beacon_init(void);
void ush_wait_beacon_fini(void);
/* This PE is exiting: the beacon says so, and waits no longer publish
 * (its finalize barrier is not a wait the others could be stuck on). */
void ush_wait_beacon_exiting(void);

#define USH_WAIT_UNTIL(cond)                                  \
    do {                                                      \
        ush_wait_t ush_wait_ = { 0 };                         \
        while (!(cond)) ush_wait_step(&ush_wait_);            \
        if (ush_wait_.since != 0) ush_wait_end(&ush_wait_);   \
    } while (0)

/* The same, for a condition only world PE pe can make true: a hang
 * report then names it. */
#define USH_WAIT_UNTIL_PE(cond, pe)                           \
    do {                                                      \
        ush_hang_peer = (pe);                                 \
        USH_WAIT_UNTIL(cond);                                 \
        ush_hang_peer = -1;                                   \
    } while (0)

/* One step for a poll that failed (shmem_test, shmem_test_lock): the
 * program's own loop repeats it, so a thread-local count that restarts
 * after a pause between calls stands for the wait's. */
void ush_poll_step(void);
/* A poll that succeeded: the program's loop is not waiting, whatever its
 * other polls find (a loop that serves several inboxes while it sends
 * fails most of its polls and still makes progress), so the next failed
 * poll starts a wait of its own, spinning. */
void ush_poll_hit(void);

/* After an atomic on a mapped peer (a signal, a flag, a credit handed
 * back): wakes pe's waits if they nap on their doorbell (transport's
 * ush_tp_doorbell), at the cost of one load of pe's word when they do
 * not. */
void ush_wake(int pe);

/* Local address of pe's copy of the symmetric object at addr, or NULL when
 * it cannot be reached with loads and stores (shmem_ptr semantics). */
void *ush_ptr(const void *addr, int pe);

/* Whole-job synchronisation used by the allocator and init/finalize. */
void ush_barrier_all(void);
void ush_sync_all(void);
/* Every PE has reached its exit without shmem_finalize: a barrier of the
 * world on flags of its own, which no user barrier, collective or
 * finalize can match (api/init.c's exit handler). */
void ush_exit_barrier(void);

#endif
