/*
 * Faults that end the whole job: an exit without shmem_finalize, a fatal
 * signal (see fault.c).
 */
#ifndef USH_FAULT_H
#define USH_FAULT_H

/* At shmem_init: catch fatal signals where the launcher would not end the
 * job by itself (not under oshrun, which does). */
void ush_fault_init(void);
/* At shmem_finalize: the program's own dispositions again. */
void ush_fault_fini(void);
/* A PE exits with CODE while still initialised: the implicit finalize
 * that follows is collective, and starts with the exit barrier
 * (ush_exit_barrier), which only exiting PEs join. If the other PEs are
 * all seen stuck waiting meanwhile (ush_fault_exit_look, from the exit
 * barrier's wait steps), or the barrier has not completed within
 * USH_FAULT_EXIT_WAIT_MS (the others did not exit too), the PE left
 * early: one line naming it, then PMIx_Abort with CODE (1 if CODE is 0).
 * _done disarms it. */
#define USH_FAULT_EXIT_WAIT_MS 600
void ush_fault_exit_watchdog(int code);
void ush_fault_exit_watchdog_done(void);
/* One look at the other PEs' wait beacons, at most every 10 ms: called by
 * an exiting PE's wait steps (wait.c). */
void ush_fault_exit_look(void);
/* The message shmem_global_exit(status) gives PMIx_Abort; printed as well
 * where the launcher would not print it (not oshrun). */
const char *ush_fault_global_exit_msg(int status);

#endif
