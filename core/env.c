/*
 * The environment table (USH_ENV_TABLE in ush_env.h): parsers, loading and
 * printing. Defaults go through the same parsers as user values, so a
 * default that does not parse is a bug the unit tests catch, not a silent
 * zero.
 */
#include "ush_env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Room for a reason such as "unknown suffix '...'". */
#define USH_ENV_WHY_MAX 96

typedef struct {
    const char     *name;    /* without the SHMEM_ prefix */
    ush_env_type_t  type;
    const char     *def;
    const char     *help;
    size_t          offset;  /* of the field in ush_env_t */
} ush_env_desc_t;

static const ush_env_desc_t ush_env_desc[] = {
#define USH_ENV_DESC(field, NAME, type, def, help) \
    { #NAME, USH_ENV_##type, def, help, offsetof(ush_env_t, field) },
    USH_ENV_TABLE(USH_ENV_DESC)
#undef USH_ENV_DESC
};

#define USH_ENV_COUNT (sizeof(ush_env_desc) / sizeof(ush_env_desc[0]))

/* What a well-formed value looks like, for the error message. */
static const char *ush_env_expected(ush_env_type_t type)
{
    switch (type) {
    case USH_ENV_BOOL:   return "one of 1/0, yes/no, y/n, on/off, true/false";
    case USH_ENV_INT:    return "a decimal integer such as 100";
    case USH_ENV_SIZE:   return "a byte count such as 512M or 2G";
    case USH_ENV_PATH:   return "a file name";
    case USH_ENV_STRING: break;
    }
    /* every STRING variable of the table is a word from a list in its help */
    return "one of the words its help lists (oshinfo --env)";
}

static const char *ush_env_skip_space(const char *s)
{
    while (isspace((unsigned char)*s)) {
        s++;
    }
    return s;
}

/* Length of s without trailing whitespace. */
static size_t ush_env_trimmed_len(const char *s)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) {
        len--;
    }
    return len;
}

static int ush_env_size_shift(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'k': return 10;
    case 'm': return 20;
    case 'g': return 30;
    case 't': return 40;
    }
    return -1;
}

/* The size parser proper; on error, why says what is wrong. */
static int ush_env_size(const char *s, size_t *out, char *why, size_t whylen)
{
    const char *p = ush_env_skip_space(s);
    size_t      v = 0;

    if (*p == '\0') {
        snprintf(why, whylen, "empty value");
        return -1;
    }
    if (*p == '+' || *p == '-') {
        snprintf(why, whylen, "no sign allowed");
        return -1;
    }
    if (!isdigit((unsigned char)*p)) {
        snprintf(why, whylen, "not a number");
        return -1;
    }
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (SIZE_MAX - d) / 10) {
            snprintf(why, whylen, "too large");
            return -1;
        }
        v = v * 10 + d;
    }

    /* Suffix: [kmgt]? [bB]? then nothing but trailing whitespace. */
    const char *suffix = p;
    int         shift  = ush_env_size_shift(*p);
    if (shift > 0) {
        p++;
    } else {
        shift = 0;
    }
    if (*p == 'b' || *p == 'B') {
        p++;
    }
    if (*ush_env_skip_space(p) != '\0') {
        size_t len = ush_env_trimmed_len(suffix);
        if (isspace((unsigned char)*p)) {
            snprintf(why, whylen, "space inside the value");
        } else if (*suffix == '.' || *suffix == ',') {
            snprintf(why, whylen, "no fractions allowed");
        } else {
            snprintf(why, whylen, "unknown suffix '%.*s'", (int)(len > 16 ? 16 : len), suffix);
        }
        return -1;
    }
    if (v > (SIZE_MAX >> shift)) {
        snprintf(why, whylen, "too large");
        return -1;
    }
    *out = v << shift;
    return 0;
}

static int ush_env_bool(const char *s, int *out, char *why, size_t whylen)
{
    static const struct {
        const char *word;
        int         value;
    } words[] = {
        { "1", 1 }, { "y", 1 }, { "yes", 1 }, { "on", 1 },  { "true", 1 },
        { "0", 0 }, { "n", 0 }, { "no", 0 },  { "off", 0 }, { "false", 0 },
    };
    const char *p   = ush_env_skip_space(s);
    size_t      len = ush_env_trimmed_len(p);

    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strlen(words[i].word) == len && strncasecmp(p, words[i].word, len) == 0) {
            *out = words[i].value;
            return 0;
        }
    }
    snprintf(why, whylen, len == 0 ? "empty value" : "not a boolean");
    return -1;
}

static int ush_env_int(const char *s, long *out, char *why, size_t whylen)
{
    const char *p = ush_env_skip_space(s);
    char       *end;

    /* strtol alone accepts "" and "+" as 0 without complaint; insist on a
     * digit after an optional sign, and on nothing but space after it. */
    const char *digits = (*p == '+' || *p == '-') ? p + 1 : p;
    if (*p == '\0') {
        snprintf(why, whylen, "empty value");
        return -1;
    }
    if (!isdigit((unsigned char)*digits)) {
        snprintf(why, whylen, "not a number");
        return -1;
    }
    errno  = 0;
    long v = strtol(p, &end, 10);
    if (errno == ERANGE) {
        snprintf(why, whylen, "out of range");
        return -1;
    }
    if (*ush_env_skip_space(end) != '\0') {
        snprintf(why, whylen, "unexpected '%.16s' after the number", end);
        return -1;
    }
    *out = v;
    return 0;
}

int ush_env_parse_size(const char *s, size_t *out)
{
    char why[USH_ENV_WHY_MAX];
    return s == NULL ? -1 : ush_env_size(s, out, why, sizeof(why));
}

int ush_env_parse_bool(const char *s, int *out)
{
    char why[USH_ENV_WHY_MAX];
    return s == NULL ? -1 : ush_env_bool(s, out, why, sizeof(why));
}

int ush_env_parse_int(const char *s, long *out)
{
    char why[USH_ENV_WHY_MAX];
    return s == NULL ? -1 : ush_env_int(s, out, why, sizeof(why));
}

/* Parse s into the field d describes. Strings are kept as the pointer
 * getenv returned (or the default literal): glibc never frees environment
 * strings, and ush_env_t has no destructor to free a copy. */
static int ush_env_set(ush_env_t *env, const ush_env_desc_t *d, const char *s,
                       char *why, size_t whylen)
{
    void *field = (char *)env + d->offset;
    switch (d->type) {
    case USH_ENV_BOOL:   return ush_env_bool(s, field, why, whylen);
    case USH_ENV_INT:    return ush_env_int(s, field, why, whylen);
    case USH_ENV_SIZE:   return ush_env_size(s, field, why, whylen);
    case USH_ENV_STRING:
    case USH_ENV_PATH:
        /* An empty value is a mistake (VAR= in a script), not a request for
         * the default; the word's own validity is checked by its user, a
         * file name's by opening it. */
        if (*ush_env_skip_space(s) == '\0') {
            snprintf(why, whylen, "empty value");
            return -1;
        }
        *(const char **)field = s;
        return 0;
    }
    snprintf(why, whylen, "unknown type");
    return -1;
}

/* The variable that supplies d: SHMEM_<NAME>, or the older SMA_ spelling for
 * the heap size (what SGI SHMEM and its descendants read). */
static const char *ush_env_lookup(const ush_env_desc_t *d, char *var, size_t varlen)
{
    snprintf(var, varlen, "SHMEM_%s", d->name);
    const char *s = getenv(var);
    if (s == NULL && strcmp(d->name, "SYMMETRIC_SIZE") == 0) {
        snprintf(var, varlen, "SMA_%s", d->name);
        s = getenv(var);
    }
    return s;
}

int ush_env_load(ush_env_t *env, char *err, size_t errlen)
{
    char why[USH_ENV_WHY_MAX], var[64];

    for (size_t i = 0; i < USH_ENV_COUNT; i++) {
        const ush_env_desc_t *d = &ush_env_desc[i];
        if (ush_env_set(env, d, d->def, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "default of SHMEM_%s=%s: %s; expected %s",
                     d->name, d->def, why, ush_env_expected(d->type));
            return -1;
        }
        const char *s = ush_env_lookup(d, var, sizeof(var));
        if (s != NULL && ush_env_set(env, d, s, why, sizeof(why)) != 0) {
            snprintf(err, errlen, "%s=%s: %s; expected %s",
                     var, s, why, ush_env_expected(d->type));
            return -1;
        }
    }
    return 0;
}

/* A size in the largest unit that divides it, as a user would write it. */
static void ush_env_format_size(size_t v, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;
    while (u < 3 && v != 0 && (v & 1023) == 0) {
        v >>= 10;
        u++;
    }
    if (u < 0) {
        snprintf(buf, len, "%zu", v);
    } else {
        snprintf(buf, len, "%zu%c", v, units[u]);
    }
}

/* The value of field d of env as SHMEM_INFO and oshinfo print it. */
static void ush_env_format(const ush_env_t *env, const ush_env_desc_t *d, char *value,
                           size_t len)
{
    const void *field = (const char *)env + d->offset;
    switch (d->type) {
    case USH_ENV_BOOL:
        snprintf(value, len, "%d", *(const int *)field);
        break;
    case USH_ENV_INT:
        snprintf(value, len, "%ld", *(const long *)field);
        break;
    case USH_ENV_SIZE:
        ush_env_format_size(*(const size_t *)field, value, len);
        break;
    case USH_ENV_STRING:
    case USH_ENV_PATH: {
        const char *s = *(const char *const *)field;
        snprintf(value, len, "%s", s != NULL ? s : "(unset)");
        break;
    }
    }
}

void ush_env_print(const ush_env_t *env, FILE *out)
{
    for (size_t i = 0; i < USH_ENV_COUNT; i++) {
        const ush_env_desc_t *d = &ush_env_desc[i];
        char                  value[64];

        ush_env_format(env, d, value, sizeof(value));
        fprintf(out, "  SHMEM_%-20s %-8s %s\n", d->name, value, d->help);
    }
}

size_t ush_env_count(void)
{
    return USH_ENV_COUNT;
}

int ush_env_row(size_t i, ush_env_row_t *row, const char **expected)
{
    static const char *const type_names[] = {
        [USH_ENV_BOOL] = "bool", [USH_ENV_INT] = "int",
        [USH_ENV_SIZE] = "size", [USH_ENV_STRING] = "string", [USH_ENV_PATH] = "path",
    };
    const ush_env_desc_t *d = &ush_env_desc[i];
    ush_env_t             scratch; /* only field d is written and read */

    *row = (ush_env_row_t){ .name = d->name, .type = type_names[d->type],
                            .def = d->def, .help = d->help };
    row->raw = ush_env_lookup(d, row->source, sizeof(row->source));
    if (row->raw == NULL) {
        row->source[0] = '\0';
    }
    const char *s = row->raw != NULL ? row->raw : d->def;
    if (ush_env_set(&scratch, d, s, row->why, sizeof(row->why)) != 0) {
        snprintf(row->value, sizeof(row->value), "%s", s);
        if (expected != NULL) {
            *expected = ush_env_expected(d->type);
        }
        return -1;
    }
    ush_env_format(&scratch, d, row->value, sizeof(row->value));
    return 0;
}

/* Edit distance of two short names, counting an insertion, a deletion, a
 * substitution or a swap of two neighbours as one edit (optimal string
 * alignment): hands type DEUBG for DEBUG, one edit, not two. Names longer
 * than the buffers count as far from everything. */
static int ush_env_distance(const char *a, size_t la, const char *b)
{
    enum { MAXLEN = 63 };
    int    d[3][MAXLEN + 1]; /* rows i-2, i-1, i, by i % 3 */
    size_t lb = strlen(b);

    if (la > MAXLEN || lb > MAXLEN) return INT_MAX;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best) best = up[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                up2[j - 2] + 1 < best) {
                best = up2[j - 2] + 1;
            }
            row[j] = best;
        }
    }
    return d[la % 3][lb];
}

const char *ush_env_typo_of(const char *name, size_t len)
{
    const char *best  = NULL;
    int         bestd = INT_MAX;
    for (size_t i = 0; i < USH_ENV_COUNT; i++) {
        int d = ush_env_distance(name, len, ush_env_desc[i].name);
        if (d < bestd) {
            bestd = d;
            best  = ush_env_desc[i].name;
        }
    }
    /* 0 is our own variable. Up to 2 edits, and at most one per three
     * letters (INF, DEUBG: 1; SYMETRIC_SIZ: 2), is a slip of the hand;
     * more is another library's variable, which is none of our business. */
    return bestd > 0 && bestd <= 2 && (size_t)bestd * 3 <= len ? best : NULL;
}
