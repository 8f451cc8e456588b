/*
 * SIGHUP ends a PE, as it ends any process by default.
 *
 * UCX's library constructor catches SIGHUP (UCX_DEBUG_SIGNO's default) to
 * raise its log level, so a PE whose terminal or launcher hangs up
 * (srun, mpirun and oshrun all pass SIGHUP on) went on running until
 * something stronger came. Unless the user asked for UCX's debug signal,
 * SIGHUP gets its default action back - and only where the handler is
 * UCX's: a program's own handler is its business.
 */
#include "ush_tp_impl.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Runs when libushmem is loaded, after UCX's own constructors (the
 * libraries it depends on are initialised first), before main; and again
 * from ush_tp_init, which also pulls this file out of the static library
 * (nothing would refer to a constructor alone). */
__attribute__((constructor)) void ush_tp_sighup_default(void)
{
    struct sigaction sa;
    Dl_info          info;
    void            *handler;

    if (getenv("UCX_DEBUG_SIGNO") != NULL || sigaction(SIGHUP, NULL, &sa) != 0) return;
    handler = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
    if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN ||
        dladdr(handler, &info) == 0 || info.dli_fname == NULL ||
        strstr(info.dli_fname, "libucs") == NULL) {
        return;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGHUP, &sa, NULL);
}
