/*
 * Start-up failures said once. When every PE of a large job fails
 * shmem_init the same way (a heap the node cannot back, a malformed
 * variable), each prints the same line with its own PE number: 128 copies
 * of one message hide everything else. The relay shows the first PE's
 * line as it comes, counts the others whose text after "PE <n>: " is the
 * same, and the job's end says how many PEs printed it.
 *
 * Only the library's shmem_init lines fold: a PE's later errors name
 * what that PE did, and each may matter.
 */
#include "oshrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USH_RUN_FOLD_PREFIX "ushmem: PE "
#define USH_RUN_FOLD_WHAT   "shmem_init: "
#define USH_RUN_FOLD_MAX    16 /* distinct messages remembered */

static struct {
    char *text;  /* the line after "PE <n>: " */
    int   first; /* the PE whose line was shown */
    int   count; /* PEs that printed it */
} ush_run_fold[USH_RUN_FOLD_MAX];
static int ush_run_nfold;

/* The text of a foldable line after "ushmem: PE <n>: ", or NULL. */
static const char *ush_run_fold_text(const char *line, size_t n, size_t *len)
{
    size_t p = sizeof(USH_RUN_FOLD_PREFIX) - 1;

    if (n <= p || memcmp(line, USH_RUN_FOLD_PREFIX, p) != 0) return NULL;
    while (p < n && line[p] >= '0' && line[p] <= '9') p++;
    if (p + 2 > n || line[p] != ':' || line[p + 1] != ' ') return NULL;
    p += 2;
    if (n - p < sizeof(USH_RUN_FOLD_WHAT) - 1 ||
        memcmp(line + p, USH_RUN_FOLD_WHAT, sizeof(USH_RUN_FOLD_WHAT) - 1) != 0) {
        return NULL;
    }
    *len = n - p;
    return line + p;
}

int ush_run_fold_line(int rank, const char *line, size_t n)
{
    size_t      len;
    const char *text = ush_run_fold_text(line, n, &len);

    if (text == NULL) return 0;
    for (int i = 0; i < ush_run_nfold; i++) {
        if (strlen(ush_run_fold[i].text) == len && memcmp(ush_run_fold[i].text, text, len) == 0) {
            ush_run_fold[i].count++;
            return 1;
        }
    }
    if (ush_run_nfold < USH_RUN_FOLD_MAX) {
        char *copy = strndup(text, len);
        if (copy != NULL) {
            ush_run_fold[ush_run_nfold].text  = copy;
            ush_run_fold[ush_run_nfold].first = rank;
            ush_run_fold[ush_run_nfold].count = 1;
            ush_run_nfold++;
        }
    }
    return 0;
}

void ush_run_fold_report(void)
{
    for (int i = 0; i < ush_run_nfold; i++) {
        if (ush_run_fold[i].count > 1) {
            ush_run_msg("%d PEs printed PE %d's line above, each with its own PE number "
                        "(shown once)", ush_run_fold[i].count, ush_run_fold[i].first);
        }
        free(ush_run_fold[i].text);
    }
    ush_run_nfold = 0;
}
