/*
 * Shell quoting for --verbose, so the command oshrun hands off to can be
 * pasted into a shell and run as it was: words made only of characters no
 * shell treats specially stay as they are, everything else goes in single
 * quotes, where only a single quote itself needs care ('\'').
 */
#include "oshrun.h"

#include <stdlib.h>
#include <string.h>

static int ush_run_word_is_plain(const char *word)
{
    if (*word == '\0') {
        return 0;                       /* the empty word needs '' */
    }
    for (const char *p = word; *p; p++) {
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                    "0123456789_@%+=:,./-", *p)) {
            return 0;
        }
    }
    return 1;
}

char *ush_run_shell_quote(const char *word)
{
    size_t len = strlen(word), quotes = 0;

    if (ush_run_word_is_plain(word)) {
        return strdup(word);
    }
    for (const char *p = word; *p; p++) {
        quotes += (*p == '\'');
    }
    /* 'word' plus 3 more bytes for each embedded quote: ' becomes '\'' */
    char *out = malloc(len + 3 * quotes + 3), *o = out;
    if (out == NULL) {
        return NULL;
    }
    *o++ = '\'';
    for (const char *p = word; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o   = '\0';
    return out;
}
