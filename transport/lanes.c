/*
 * Reads an endpoint's lanes from ucp_ep_print_info's text: whether every
 * RMA and atomic operation to that peer, and the active messages that
 * carry emulated ones and the collectives' own, travel one lane of a
 * transport that keeps order. (UCX has no query for the lanes.) Its own
 * file, free of UCX, so that samples of the text can be tested alone.
 *
 *   lane[0]:  1:tcp/eth0.0 md[0]  -> md[0]/tcp/sysdev[255] am am_bw#0 wireup
 *   lane[1]:  3:rc_mlx5/mlx5_0:1 md[1] -> md[1]/ib/sysdev[0] rma_bw#0 amo#0
 *   put[1]: 0..<short>..64..<bcopy>..(inf)
 *
 * "rma#", "rma_bw#" and "put[i]"/"get[i]" name RMA lanes, "amo#" atomic
 * ones; without them UCX emulates RMA and atomics with active messages on
 * the "am" lane, as "am_bw#" lanes may carry them. All of them must be one
 * lane. Anything that cannot be read counts as out of order.
 */
#include "ush_tp_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Transports whose lane delivers a sender's operations in the order it
 * issued them: a byte stream, reliable connections (one queue pair per
 * lane), and the shared-memory and loopback ones, which complete each
 * operation in the call. Not DC, whose endpoint may send on any of a
 * pool of initiators, nor anything unknown. */
static int tl_in_order(const char *tl, size_t len)
{
    static const char *const known[] = { "tcp",  "rc_verbs", "rc_mlx5", "self", "posix",
                                         "sysv", "xpmem",    "cma",     "knem" };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strlen(known[i]) == len && strncmp(tl, known[i], len) == 0) return 1;
    }
    return 0;
}

#define USH_TP_MAX_LANES 64

int ush_tp_lanes_ordered(const char *info)
{
    unsigned long long used = 0;    /* lanes that carry RMA or atomics */
    int  am = -1;
    int  in_order[USH_TP_MAX_LANES] = { 0 };
    char *text = strdup(info), *line, *save;

    if (text == NULL) return 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *p;
        int         lane;
        if ((p = strstr(line, "lane[")) != NULL && sscanf(p, "lane[%d]", &lane) == 1) {
            if (lane < 0 || lane >= USH_TP_MAX_LANES) goto out_unordered;
            /* "lane[0]:  1:tcp/eth0.0 md[0] -> ...": the transport follows
             * the resource number */
            const char *tl = strchr(p, ':');
            tl             = tl ? strchr(tl + 1, ':') : NULL;
            if (tl == NULL) goto out_unordered;
            tl++;
            in_order[lane] = tl_in_order(tl, strcspn(tl, "/ "));
            const char *tags = strstr(p, "->");
            if (tags == NULL) continue;
            char *tok, *tsave, *copy = strdup(tags);
            if (copy == NULL) goto out_unordered;
            for (tok = strtok_r(copy, " ", &tsave); tok; tok = strtok_r(NULL, " ", &tsave)) {
                if (!strncmp(tok, "rma#", 4) || !strncmp(tok, "rma_bw#", 7) ||
                    !strncmp(tok, "amo#", 4) || !strncmp(tok, "am_bw#", 6)) {
                    used |= 1ull << lane;
                } else if (!strcmp(tok, "am")) {
                    am = lane;
                }
            }
            free(copy);
        } else if (((p = strstr(line, "put[")) != NULL && sscanf(p, "put[%d]", &lane) == 1) ||
                   ((p = strstr(line, "get[")) != NULL && sscanf(p, "get[%d]", &lane) == 1)) {
            if (lane < 0 || lane >= USH_TP_MAX_LANES) goto out_unordered;
            used |= 1ull << lane;
        }
    }
    /* the am lane: the collectives' flags, and RMA or atomics that UCX
     * emulates */
    if (am < 0) goto out_unordered;
    used |= 1ull << am;
    free(text);
    /* one lane, of a transport that keeps order */
    if (used == 0 || (used & (used - 1)) != 0) return 0;
    return in_order[__builtin_ctzll(used)];

out_unordered:
    free(text);
    return 0;
}
