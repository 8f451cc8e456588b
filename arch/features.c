/* The copy-once's CPU features by name: SHMEM_CPU_FEATURES's words. */
#include "arch/ush_arch.h"

#include <stdio.h>
#include <string.h>

const char *const ush_arch_feature_names[USH_ARCH_NFEATURES] = { "avx512", "avx2", "erms",
                                                                  "fsrm" };

int ush_arch_features_parse(const char *s, unsigned *set, char *bad, size_t badlen)
{
    if (strcmp(s, "auto") == 0) {
        *set = ~0u;
        return 0;
    }
    *set = 0;
    if (strcmp(s, "none") == 0) return 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int    bit = -1;
        for (int b = 0; b < USH_ARCH_NFEATURES; b++) {
            if (strlen(ush_arch_feature_names[b]) == len &&
                strncmp(s, ush_arch_feature_names[b], len) == 0) {
                bit = b;
            }
        }
        if (bit < 0) {
            snprintf(bad, badlen, "%.*s", (int)len, s);
            return -1;
        }
        *set |= 1u << bit;
        if (s[len] == '\0') return 0;
        s += len + 1;
    }
}

void ush_arch_features_format(unsigned set, char *buf, size_t len)
{
    size_t at = 0;
    buf[0]    = '\0';
    for (int b = 0; b < USH_ARCH_NFEATURES; b++) {
        if (!(set & 1u << b)) continue;
        int k = snprintf(buf + at, len - at, "%s%s", at ? "," : "", ush_arch_feature_names[b]);
        if (k < 0 || (size_t)k >= len - at) break;
        at += (size_t)k;
    }
    if (at == 0) snprintf(buf, len, "none");
}
