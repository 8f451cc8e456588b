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
 * that follows is collective, and starts with a fence of the whole job.
 * If the other PEs are all seen stuck waiting meanwhile (on this node), or
 * the fence has not completed within USH_FAULT_EXIT_WAIT_MS (the others
 * did not exit too), the PE left early: one line naming it, then
 * PMIx_Abort with CODE (1 if CODE is 0). _done disarms it. */
#define USH_FAULT_EXIT_WAIT_MS 600
void ush_fault_exit_watchdog(int code);
void ush_fault_exit_watchdog_done(void);
/* The message shmem_global_exit(status) gives PMIx_Abort; printed as well
 * where the launcher would not print it (not oshrun). */
const char *ush_fault_global_exit_msg(int status);

#endif
