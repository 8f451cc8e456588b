/*
 * The default context. SHMEM_CTX_DEFAULT is the address of this object, so
 * it is a constant and costs no load.
 */
#include "ush.h"

struct ush_ctx ush_ctx_default;
