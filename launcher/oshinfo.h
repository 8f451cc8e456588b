/*
 * oshinfo: what this ushmem build is and how it would run. oshinfo.c prints
 * the sections; oshinfo_ucx.c asks UCX which transports it picks.
 */
#ifndef USH_INFO_H
#define USH_INFO_H

#include <stdio.h>

/* Version of the UCX library loaded at run time ("1.13.1"). */
const char *ush_info_ucx_version(void);

/* The transports section for a job of npes PEs: starts UCX the way
 * libushmem does, connects two workers of this process (on-node) and, with
 * the network devices alone, two more (off-node). *off_node_emulated is set
 * when the off-node lanes leave remote memory access or atomics to UCX's
 * software emulation (then targets must make progress). Returns 0, or -1
 * after printing to stderr what failed. */
int ush_info_transports(int npes, FILE *out, int *off_node_emulated);

#endif
