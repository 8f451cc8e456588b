/*
 * man3gen: writes the section-3 man pages from docs/man/man3/<page>.3.in
 * (the source format is described in docs/man/README.md). Run at build
 * time by docs/man/CMakeLists.txt:
 *
 *   man3gen --out=DIR --version=V [--date=D] --decls=FILE --macros=FILE
 *           [--hpvm=FILE] [--fortran=shmem.f90] [--unmatched=FILE] SRCDIR
 *
 * --decls   <shmem.h> run through the preprocessor (cc -E -P): its function
 *           declarations are the C names, in the order the header declares
 *           them (so the typed names come in its type-table order);
 * --macros  the same with -dM: its function-like shmem_* macros are the
 *           C11 generic names;
 * --hpvm    <ushmem/hpvm.h> through cc -E -P: its routines with a link
 *           name of their own (asm labels) are C names under that name;
 * --fortran the generated shmem module: its subroutines and functions are
 *           the Fortran names (without the _scalar twins);
 * SRCDIR    the directory of the *.3.in pages.
 *
 * Writes DIR/<page>.3 for every page and, for every other name a page
 * covers, DIR/<name>.3 as a relative symbolic link to it (removing every
 * *.3 it finds in DIR first, so a page or name that went away leaves
 * nothing behind). Names no page covers are listed in --unmatched (one
 * "name kind" a line) and are not an error; a name matched by two pages,
 * a pattern that matches nothing, a malformed directive or marker are:
 * each is reported and the exit status is 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Width a synopsis line is wrapped to: an 80-column terminal less the
 * page's indentation. */
#define WRAP 70

static int errors;

/* "man3gen: <what><message>" on stderr. */
static void vsay(const char *what, const char *fmt, va_list ap)
{
    fprintf(stderr, "man3gen: %s", what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

/* A page or an input is wrong: the run fails at the end. */
static void error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
    errors++;
}

/* Something a page should fix that does not break it. */
static void warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("warning: ", fmt, ap);
    va_end(ap);
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory");
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) die("out of memory");
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

/* A growing string. */
struct buf {
    char *s;
    size_t len, cap;
};

static void buf_addn(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_add(struct buf *b, const char *s) { buf_addn(b, s, strlen(s)); }

static void buf_addc(struct buf *b, char c) { buf_addn(b, &c, 1); }

static const char *buf_str(struct buf *b) { return b->s ? b->s : ""; }

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read %s: %s", path, strerror(errno));
    struct buf b = { 0 };
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) buf_addn(&b, chunk, n);
    if (ferror(f)) die("cannot read %s: %s", path, strerror(errno));
    fclose(f);
    return b.s ? b.s : xstrdup("");
}

static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* Text for roff: a backslash as \e, a minus as \- (so that code can be
 * copied from the page). */
static void roff_esc(struct buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            buf_add(b, "\\e");
        else if (s[i] == '-')
            buf_add(b, "\\-");
        else
            buf_addc(b, s[i]);
    }
}

/* ---- the names ---- */

enum { IN_MACRO = 1, IN_CFUNC = 2, IN_FORTRAN = 4 };

struct name {
    char *name;
    int in;          /* IN_* */
    int corder;      /* position among the C names, -1 if none */
    int forder;      /* among the Fortran names, -1 if none */
    char *csyn;      /* roff lines of its C prototype (functions) */
    char *fhead;     /* roff line of its Fortran subroutine/function line */
    char *fdecls;    /* roff lines of its Fortran declarations */
    int page;        /* the page that covers it, -1 for none */
};

static struct name *names;
static size_t nnames, capnames;
static size_t *hash;   /* indexes + 1, 0 = empty */
static size_t hashcap;
static size_t ncnames, nfnames;

static size_t hash_str(const char *s)
{
    size_t h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

static void hash_grow(void)
{
    size_t cap = hashcap ? hashcap * 2 : 4096;
    size_t *h = xmalloc(cap * sizeof(*h));
    memset(h, 0, cap * sizeof(*h));
    for (size_t i = 0; i < nnames; i++) {
        size_t j = hash_str(names[i].name) & (cap - 1);
        while (h[j]) j = (j + 1) & (cap - 1);
        h[j] = i + 1;
    }
    free(hash);
    hash = h;
    hashcap = cap;
}

static struct name *lookup(const char *s, int create)
{
    if (nnames * 2 >= hashcap) hash_grow();
    size_t j = hash_str(s) & (hashcap - 1);
    while (hash[j]) {
        if (strcmp(names[hash[j] - 1].name, s) == 0) return &names[hash[j] - 1];
        j = (j + 1) & (hashcap - 1);
    }
    if (!create) return NULL;
    if (nnames == capnames) {
        capnames = capnames ? capnames * 2 : 1024;
        names = xrealloc(names, capnames * sizeof(*names));
    }
    struct name *n = &names[nnames];
    memset(n, 0, sizeof(*n));
    n->name = xstrdup(s);
    n->corder = n->forder = n->page = -1;
    hash[j] = ++nnames;
    return n;
}

static struct name *add_c(const char *s, int in)
{
    struct name *n = lookup(s, 1);
    if (n->corder < 0) n->corder = (int)ncnames++;
    n->in |= in;
    return n;
}

/* ---- C declarations ---- */

/* The first whole-identifier occurrence of word in s at or after p, or
 * NULL. */
static char *find_word(char *s, char *p, const char *word)
{
    size_t wl = strlen(word);
    while ((p = strstr(p, word)) != NULL) {
        if ((p == s || !is_ident((unsigned char)p[-1])) && !is_ident((unsigned char)p[wl]))
            return p;
        p += wl;
    }
    return NULL;
}

/* Removes every `word ( ... )` (balanced) from s, in place; with label,
 * the first string literal inside the first one removed is copied there. */
static void strip_call(char *s, const char *word, char *label, size_t labelsz)
{
    size_t wl = strlen(word);
    char *p = s;
    while ((p = find_word(s, p, word)) != NULL) {
        char *q = p + wl;
        while (*q == ' ') q++;
        if (*q != '(') {
            p += wl;
            continue;
        }
        int depth = 0;
        char *lit = NULL;
        for (; *q; q++) {
            if (*q == '"') {
                char *e = q + 1;
                while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
                if (!lit) lit = q;
                if (!*e) break;
                q = e;
                continue;
            }
            if (*q == '(') depth++;
            if (*q == ')' && --depth == 0) break;
        }
        if (label && lit && !label[0]) {
            char *e = strchr(lit + 1, '"');
            size_t n = e ? (size_t)(e - lit - 1) : 0;
            if (n >= labelsz) n = labelsz - 1;
            memcpy(label, lit + 1, n);
            label[n] = '\0';
        }
        if (*q) q++;
        memmove(p, q, strlen(q) + 1);
    }
}

/* Collapses white space to single blanks, none after '(' or before ')'
 * and ','; trims. */
static void squeeze(char *s)
{
    char *d = s;
    for (char *p = s; *p; p++) {
        if (isspace((unsigned char)*p)) {
            while (isspace((unsigned char)p[1])) p++;
            if (d == s || d[-1] == '(' || p[1] == ')' || p[1] == ',' || p[1] == '\0') continue;
            *d++ = ' ';
        } else {
            *d++ = *p;
        }
    }
    *d = '\0';
}

static void remove_word(char *s, const char *word)
{
    size_t wl = strlen(word);
    for (char *p = s; (p = find_word(s, p, word)) != NULL;) memmove(p, p + wl, strlen(p + wl) + 1);
}

/* One parameter in roff: its name (the last identifier, before any [])
 * in italics, unless it is a lone type (void) or "...". */
static void roff_param(struct buf *b, const char *p, size_t n)
{
    size_t end = n;
    while (end > 0 && p[end - 1] == ']') {
        while (end > 0 && p[end - 1] != '[') end--;
        if (end > 0) end--;
    }
    while (end > 0 && p[end - 1] == ' ') end--;
    size_t start = end;
    while (start > 0 && is_ident((unsigned char)p[start - 1])) start--;
    int has_type = 0;
    for (size_t i = 0; i < start; i++)
        if (is_ident((unsigned char)p[i])) has_type = 1;
    if (start == end || !has_type || isdigit((unsigned char)p[start])) {
        roff_esc(b, p, n);
        return;
    }
    roff_esc(b, p, start);
    buf_add(b, "\\fI");
    roff_esc(b, p + start, end - start);
    buf_add(b, "\\fP");
    roff_esc(b, p + end, n - end);
}

/* The prototype "ret name(params);" in roff, the name in bold and the
 * parameter names in italics, wrapped after a comma to WRAP columns with
 * the continuation under the first parameter. */
static char *c_synopsis(const char *ret, const char *name, const char *params,
                        const char *comment)
{
    struct buf b = { 0 };
    size_t col = 0;
    size_t rl = strlen(ret);
    int space = rl > 0 && ret[rl - 1] != '*';
    if (ret[0] == '.' || ret[0] == '\'') buf_add(&b, "\\&");
    roff_esc(&b, ret, rl);
    if (space) buf_addc(&b, ' ');
    buf_add(&b, "\\fB");
    buf_add(&b, name);
    buf_add(&b, "\\fP(");
    col = rl + (size_t)space + strlen(name) + 1;
    size_t indent = col <= 32 ? col : 8;
    const char *p = params;
    int depth = 0;
    const char *start = p;
    int first = 1;
    for (;; p++) {
        if (*p == '(') depth++;
        if (*p == ')') depth--;
        if ((*p == ',' && depth == 0) || *p == '\0') {
            const char *s = start;
            while (*s == ' ') s++;
            size_t n = (size_t)(p - s);
            size_t need = n + (*p ? 1 : 2); /* "," or ");" */
            if (!first) {
                if (col + 1 + need > WRAP) {
                    buf_addc(&b, '\n');
                    for (size_t i = 0; i < indent; i++) buf_addc(&b, ' ');
                    col = indent;
                } else {
                    buf_addc(&b, ' ');
                    col++;
                }
            }
            roff_param(&b, s, n);
            col += n;
            if (*p == ',') {
                buf_addc(&b, ',');
                col++;
            }
            first = 0;
            if (!*p) break;
            start = p + 1;
        }
    }
    buf_add(&b, ");");
    if (comment) {
        buf_add(&b, col + 4 + strlen(comment) > WRAP ? "\n    " : "  ");
        roff_esc(&b, comment, strlen(comment));
    }
    return b.s;
}

/* One declaration of the preprocessed header (without its ';'). With
 * hpvm, only those with an asm label, named by it. */
static void c_decl(char *s, int hpvm)
{
    char label[256] = "";
    squeeze(s);
    if (strncmp(s, "typedef", 7) == 0 && !is_ident((unsigned char)s[7])) return;
    strip_call(s, "__asm__", label, sizeof(label));
    strip_call(s, "__asm", label, sizeof(label));
    strip_call(s, "asm", label, sizeof(label));
    strip_call(s, "__attribute__", NULL, 0);
    strip_call(s, "__attribute", NULL, 0);
    remove_word(s, "extern");
    remove_word(s, "__extension__");
    remove_word(s, "static");
    remove_word(s, "inline");
    remove_word(s, "__inline");
    remove_word(s, "__inline__");
    squeeze(s);
    char *open = strchr(s, '(');
    if (!open || open == s) return;
    char *ne = open;
    while (ne > s && ne[-1] == ' ') ne--;
    char *nb = ne;
    while (nb > s && is_ident((unsigned char)nb[-1])) nb--;
    if (nb == ne || nb == s || isdigit((unsigned char)*nb)) return;
    int depth = 0;
    char *close = open;
    for (; *close; close++) {
        if (*close == '(') depth++;
        if (*close == ')' && --depth == 0) break;
    }
    if (!*close || close[1] != '\0') return; /* not a plain function */
    char *name = xstrndup(nb, (size_t)(ne - nb));
    char *ret = xstrndup(s, (size_t)(nb - s));
    squeeze(ret);
    char *params = xstrndup(open + 1, (size_t)(close - open - 1));
    if (strncmp(name, "__", 2) != 0 && strncmp(name, "ush_", 4) != 0 && ret[0]) {
        const char *key = name;
        char comment[300] = "";
        if (hpvm) {
            key = label;
            snprintf(comment, sizeof(comment), "/* link name %s */", label);
        }
        if (!hpvm || label[0]) {
            struct name *n = lookup(key, 0);
            if (!n || !n->csyn) {
                n = add_c(key, IN_CFUNC);
                n->csyn = c_synopsis(ret, name, params, hpvm ? comment : NULL);
            }
            /* An HPVM name no standard routine has (shmem_cget,
             * shmem_cwait) is what its programs call, so man finds it
             * too; its prototype is already under the link name. */
            if (hpvm && label[0] && !lookup(name, 0)) add_c(name, IN_CFUNC);
        }
    }
    free(name);
    free(ret);
    free(params);
}

/* Splits preprocessed C into declarations: at a ';' outside braces and
 * parentheses, or at the '}' closing a function's body. */
static void parse_c(const char *path, int hpvm)
{
    char *text = read_file(path);
    struct buf st = { 0 };
    int paren = 0, brace = 0, body = 0;
    for (char *p = text; *p; p++) {
        char c = *p;
        if (c == '"' || c == '\'') {
            char *e = p + 1;
            while (*e && *e != c) e += (*e == '\\' && e[1]) ? 2 : 1;
            if (!body) buf_addn(&st, p, (size_t)(e - p) + (*e ? 1 : 0));
            if (!*e) break;
            p = e;
            continue;
        }
        if (c == '#' && (p == text || p[-1] == '\n')) { /* a stray line marker */
            while (p[1] && p[1] != '\n') p++;
            continue;
        }
        if (c == '(') paren++;
        if (c == ')') paren--;
        if (c == '{') {
            if (brace == 0 && paren == 0) {
                const char *t = buf_str(&st);
                size_t n = strlen(t);
                while (n > 0 && isspace((unsigned char)t[n - 1])) n--;
                if (n > 0 && t[n - 1] == ')') { /* a function's body */
                    c_decl(st.s, hpvm);
                    st.len = 0;
                    st.s[0] = '\0';
                    body = 1;
                }
            }
            brace++;
        }
        if (c == '}') {
            brace--;
            if (brace == 0 && body) {
                body = 0;
                continue;
            }
        }
        if (body) continue;
        if (c == ';' && brace == 0 && paren == 0) {
            if (st.s) {
                c_decl(st.s, hpvm);
                st.len = 0;
                st.s[0] = '\0';
            }
            continue;
        }
        buf_addc(&st, c);
    }
    free(st.s);
    free(text);
}

/* The function-like shmem_* macros of cc -dM -E. */
static void parse_macros(const char *path)
{
    char *text = read_file(path);
    char **found = NULL;
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "#define shmem_", 14) != 0) continue;
        char *p = line + 8, *e = p;
        while (is_ident((unsigned char)*e)) e++;
        if (*e != '(') continue;
        found = xrealloc(found, (n + 1) * sizeof(*found));
        found[n++] = xstrndup(p, (size_t)(e - p));
    }
    /* -dM lists them in no useful order. */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(found[j - 1], found[j]) > 0; j--) {
            char *t = found[j];
            found[j] = found[j - 1];
            found[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++) {
        add_c(found[i], IN_MACRO);
        free(found[i]);
    }
    free(found);
    free(text);
}

/* ---- Fortran ---- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static int starts_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && !is_ident((unsigned char)s[n]);
}

static void parse_fortran(const char *path)
{
    char *text = read_file(path);
    /* Lines, with '&' continuations joined. */
    char **lines = NULL;
    size_t nl = 0;
    struct buf cur = { 0 };
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *t = trim(l);
        if (cur.len && *t == '&') t = trim(t + 1);
        size_t n = strlen(t);
        int more = n > 0 && t[n - 1] == '&';
        if (more) t[--n] = '\0';
        if (cur.len) buf_addc(&cur, ' ');
        buf_add(&cur, trim(t));
        if (more) continue;
        lines = xrealloc(lines, (nl + 1) * sizeof(*lines));
        lines[nl++] = xstrdup(buf_str(&cur));
        cur.len = 0;
        cur.s[0] = '\0';
    }
    free(cur.s);
    for (size_t i = 0; i < nl; i++) {
        char *l = lines[i];
        const char *kw = starts_word(l, "subroutine") ? "subroutine"
                         : starts_word(l, "function") ? "function" : NULL;
        if (!kw) continue;
        char *p = l + strlen(kw);
        while (*p == ' ') p++;
        char *e = p;
        while (is_ident((unsigned char)*e)) e++;
        char *name = xstrndup(p, (size_t)(e - p));
        for (char *q = name; *q; q++) *q = (char)tolower((unsigned char)*q);
        char *args = strchr(e, '(');
        char *argsend = args ? strchr(args, ')') : NULL;
        struct buf head = { 0 }, decls = { 0 };
        buf_add(&head, kw);
        buf_add(&head, " \\fB");
        buf_add(&head, name);
        buf_add(&head, "\\fP(");
        if (args && argsend) {
            /* the arguments in italics */
            char *a = xstrndup(args + 1, (size_t)(argsend - args - 1));
            char *sv = NULL;
            int first = 1;
            for (char *t = strtok_r(a, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
                t = trim(t);
                if (!*t) continue;
                if (!first) buf_add(&head, ", ");
                buf_add(&head, "\\fI");
                roff_esc(&head, t, strlen(t));
                buf_add(&head, "\\fP");
                first = 0;
            }
            free(a);
        }
        buf_addc(&head, ')');
        if (argsend) {
            char *r = strstr(argsend, "result");
            if (r) {
                char *re = strchr(r, ')');
                buf_addc(&head, ' ');
                roff_esc(&head, r, re ? (size_t)(re - r + 1) : strlen(r));
            }
        }
        size_t j = i + 1;
        for (; j < nl; j++) {
            char *d = lines[j];
            if (starts_word(d, "end")) break;
            if (strcmp(d, "import") == 0 || strncmp(d, "import ", 7) == 0 || d[0] == '!') continue;
            buf_add(&decls, "  ");
            roff_esc(&decls, d, strlen(d));
            buf_addc(&decls, '\n');
        }
        i = j;
        size_t len = strlen(name);
        if (!(len > 7 && strcmp(name + len - 7, "_scalar") == 0)) {
            struct name *n = lookup(name, 1);
            if (n->forder < 0) {
                n->forder = (int)nfnames++;
                n->in |= IN_FORTRAN;
                n->fhead = xstrdup(buf_str(&head));
                n->fdecls = xstrdup(buf_str(&decls));
            }
        }
        free(head.s);
        free(decls.s);
        free(name);
    }
    for (size_t i = 0; i < nl; i++) free(lines[i]);
    free(lines);
    free(text);
}

/* ---- pages ---- */

struct pattern {
    char *text;
    regex_t re;
    int fortran;
    int matched;
};

struct page {
    char *file;  /* path of the .3.in */
    char *name;  /* page name: the file's name without .3.in */
    char **lines;
    size_t nlines;
    struct pattern *pats;
    size_t npats;
    size_t *covered; /* name indexes, in name order */
    size_t ncovered;
};

static struct page *pages;
static size_t npages;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_page(struct page *pg)
{
    char *text = read_file(pg->file);
    struct buf line = { 0 };
    int body = 0;
    size_t ln = 0;
    for (char *p = text;; p++) {
        if (*p != '\n' && *p != '\0') {
            buf_addc(&line, *p);
            continue;
        }
        if (*p == '\0' && line.len == 0) break;
        ln++;
        const char *l = buf_str(&line);
        int directive = 0;
        if (strncmp(l, ".\\\"", 3) == 0) {
            const char *d = l + 3;
            while (*d == ' ' || *d == '\t') d++;
            if (strncmp(d, "ushmem-", 7) == 0) {
                directive = 1;
                const char *colon = strchr(d, ':');
                size_t kl = colon ? (size_t)(colon - d) : 0;
                int fortran = 0;
                if (colon && kl == 12 && strncmp(d, "ushmem-names", kl) == 0)
                    fortran = 0;
                else if (colon && kl == 14 && strncmp(d, "ushmem-fortran", kl) == 0)
                    fortran = 1;
                else {
                    error("%s:%zu: malformed directive (ushmem-names: or ushmem-fortran: "
                          "and patterns): %s", pg->file, ln, l);
                    goto next;
                }
                if (body)
                    error("%s:%zu: directive below the page's first request "
                          "(directives go at the top): %s", pg->file, ln, l);
                char *pats = xstrdup(colon + 1);
                char *sv = NULL;
                int n = 0;
                for (char *t = strtok_r(pats, " \t", &sv); t; t = strtok_r(NULL, " \t", &sv)) {
                    n++;
                    pg->pats = xrealloc(pg->pats, (pg->npats + 1) * sizeof(*pg->pats));
                    struct pattern *pt = &pg->pats[pg->npats];
                    memset(pt, 0, sizeof(*pt));
                    pt->text = xstrdup(t);
                    pt->fortran = fortran;
                    size_t rl = strlen(t) + 5;
                    char *re = xmalloc(rl);
                    snprintf(re, rl, "^(%s)$", t);
                    int rc = regcomp(&pt->re, re, REG_EXTENDED | REG_NOSUB);
                    free(re);
                    if (rc != 0) {
                        char msg[256];
                        regerror(rc, &pt->re, msg, sizeof(msg));
                        error("%s:%zu: pattern '%s' is not an extended regular expression: %s",
                              pg->file, ln, t, msg);
                        free(pt->text);
                        continue;
                    }
                    pg->npats++;
                }
                free(pats);
                if (n == 0) error("%s:%zu: directive without patterns: %s", pg->file, ln, l);
            }
        }
        if (!directive) {
            if (!(l[0] == '.' && l[1] == '\\' && l[2] == '"') && l[0] != '\0') body = 1;
            pg->lines = xrealloc(pg->lines, (pg->nlines + 1) * sizeof(*pg->lines));
            pg->lines[pg->nlines++] = xstrdup(l);
        }
    next:
        line.len = 0;
        if (line.s) line.s[0] = '\0';
        if (*p == '\0') break;
    }
    free(line.s);
    free(text);
    if (pg->npats == 0)
        error("%s: no ushmem-names or ushmem-fortran directive: the page covers no name", pg->file);
}

static void read_pages(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d && errno == ENOENT) return; /* no pages yet */
    if (!d) die("cannot open %s: %s", dir, strerror(errno));
    char **files = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= 5 || strcmp(e->d_name + l - 5, ".3.in") != 0) continue;
        files = xrealloc(files, (n + 1) * sizeof(*files));
        files[n++] = xstrndup(e->d_name, l - 5);
    }
    closedir(d);
    qsort(files, n, sizeof(*files), cmp_str);
    pages = xmalloc(n * sizeof(*pages));
    npages = n;
    for (size_t i = 0; i < n; i++) {
        struct page *pg = &pages[i];
        memset(pg, 0, sizeof(*pg));
        pg->name = files[i];
        for (const char *c = pg->name; *c; c++)
            if (!is_ident((unsigned char)*c))
                error("%s/%s.3.in: a page's name is a routine's name "
                      "(letters, digits, '_')", dir, pg->name);
        size_t l = strlen(dir) + strlen(pg->name) + 8;
        pg->file = xmalloc(l);
        snprintf(pg->file, l, "%s/%s.3.in", dir, pg->name);
        read_page(pg);
    }
    free(files);
}

/* Names in page order: the C names (macros, then functions as the
 * header declares them, then HPVM), then the Fortran-only names. */
static long name_rank(const struct name *n)
{
    if (n->corder >= 0) return n->corder;
    return (long)ncnames + n->forder;
}

static int cmp_forder(const void *a, const void *b)
{
    int ra = names[*(const size_t *)a].forder, rb = names[*(const size_t *)b].forder;
    return (ra > rb) - (ra < rb);
}

static int cmp_rank(const void *a, const void *b)
{
    long ra = name_rank(&names[*(const size_t *)a]), rb = name_rank(&names[*(const size_t *)b]);
    return (ra > rb) - (ra < rb);
}

static void match_pages(void)
{
    for (size_t p = 0; p < npages; p++) {
        struct page *pg = &pages[p];
        for (size_t k = 0; k < pg->npats; k++) {
            struct pattern *pt = &pg->pats[k];
            for (size_t i = 0; i < nnames; i++) {
                struct name *n = &names[i];
                if (pt->fortran ? n->forder < 0 : n->corder < 0) continue;
                if (regexec(&pt->re, n->name, 0, NULL, 0) != 0) continue;
                pt->matched++;
                if (n->page == (int)p) continue;
                if (n->page >= 0) {
                    error("%s is matched by two pages: %s and %s (pattern '%s')", n->name,
                          pages[n->page].file, pg->file, pt->text);
                    continue;
                }
                n->page = (int)p;
                pg->covered = xrealloc(pg->covered, (pg->ncovered + 1) * sizeof(size_t));
                pg->covered[pg->ncovered++] = i;
            }
        }
    }
    for (size_t p = 0; p < npages; p++) {
        struct page *pg = &pages[p];
        for (size_t k = 0; k < pg->npats; k++) {
            struct pattern *pt = &pg->pats[k];
            if (pt->matched) continue;
            if (pt->fortran && nfnames == 0) continue; /* no module in this build */
            error("%s: %s pattern '%s' matches no %s name", pg->file,
                  pt->fortran ? "ushmem-fortran" : "ushmem-names", pt->text,
                  pt->fortran ? "Fortran" : "C");
        }
        qsort(pg->covered, pg->ncovered, sizeof(size_t), cmp_rank);
    }
    /* A name that is also another page's name would be two files. */
    for (size_t p = 0; p < npages; p++) {
        struct name *n = lookup(pages[p].name, 0);
        if (n && n->page >= 0 && n->page != (int)p)
            error("%s is covered by %s but is also the page %s", n->name,
                  pages[n->page].file, pages[p].file);
    }
}

/* Replaces every @KEY@ of line by its value; other @UPPER@ words are
 * errors. */
static void subst_line(struct buf *out, const struct page *pg, size_t ln, const char *l,
                       const char *names_list, const char *version, const char *date)
{
    const char *p = l;
    while (*p) {
        if (*p == '@') {
            const char *e = p + 1;
            while (isupper((unsigned char)*e) || *e == '_') e++;
            if (*e == '@' && e > p + 1) {
                size_t n = (size_t)(e - p - 1);
                if (n == 5 && strncmp(p + 1, "NAMES", n) == 0)
                    buf_add(out, names_list);
                else if (n == 7 && strncmp(p + 1, "VERSION", n) == 0)
                    buf_add(out, version);
                else if (n == 4 && strncmp(p + 1, "DATE", n) == 0)
                    buf_add(out, date);
                else if ((n == 10 && strncmp(p + 1, "C_SYNOPSIS", n) == 0) ||
                         (n == 10 && strncmp(p + 1, "F_SYNOPSIS", n) == 0))
                    error("%s:%zu: @%.*s@ must be alone on its line", pg->file, ln, (int)n, p + 1);
                else
                    error("%s:%zu: unknown marker @%.*s@", pg->file, ln, (int)n, p + 1);
                p = e + 1;
                continue;
            }
        }
        buf_addc(out, *p++);
    }
    buf_addc(out, '\n');
}

/* Whether line is the marker alone (blanks around it allowed). */
static int marker_line(const char *line, const char *marker)
{
    size_t n = strlen(marker);
    while (*line == ' ' || *line == '\t') line++;
    if (strncmp(line, marker, n) != 0) return 0;
    for (line += n; *line; line++)
        if (*line != ' ' && *line != '\t' && *line != '\r') return 0;
    return 1;
}

static void write_page(const struct page *pg, const char *outdir, const char *version,
                       const char *date, int have_fortran)
{
    struct buf list = { 0 }, out = { 0 };
    size_t ncfunc = 0, nfort = 0;
    int has_names = 0, has_c = 0, has_f = 0, has_th = 0;
    for (size_t i = 0; i < pg->ncovered; i++) {
        const struct name *n = &names[pg->covered[i]];
        if (i) buf_add(&list, ", ");
        buf_add(&list, n->name);
        if (n->csyn) ncfunc++;
        if (n->fhead) nfort++;
    }
    /* Whether the page is in no-fill mode where a synopsis goes: then the
     * block needs no .nf/.fi of its own (a .fi would end the page's). */
    int nofill = 0;
    for (size_t ln = 0; ln < pg->nlines; ln++) {
        const char *l = pg->lines[ln];
        if (strncmp(l, ".nf", 3) == 0 || strncmp(l, ".EX", 3) == 0) nofill = 1;
        if (strncmp(l, ".fi", 3) == 0 || strncmp(l, ".EE", 3) == 0) nofill = 0;
        if (marker_line(l, "@C_SYNOPSIS@")) {
            has_c = 1;
            if (ncfunc == 0) warn("%s: @C_SYNOPSIS@, but the page matches no C function", pg->file);
            if (!nofill) buf_add(&out, ".nf\n");
            for (size_t i = 0; i < pg->ncovered; i++) {
                const struct name *n = &names[pg->covered[i]];
                if (!n->csyn) continue;
                buf_add(&out, n->csyn);
                buf_addc(&out, '\n');
            }
            if (!nofill) buf_add(&out, ".fi\n");
            continue;
        }
        if (marker_line(l, "@F_SYNOPSIS@")) {
            has_f = 1;
            if (!have_fortran) {
                buf_add(&out, "(The shmem module was not generated in this build.)\n");
                continue;
            }
            if (!nofill) buf_add(&out, ".nf\n");
            /* In the module's order; routines with the same declarations
             * share them. */
            size_t *ford = xmalloc((pg->ncovered + 1) * sizeof(*ford)), nf = 0;
            for (size_t i = 0; i < pg->ncovered; i++)
                if (names[pg->covered[i]].fhead) ford[nf++] = pg->covered[i];
            qsort(ford, nf, sizeof(*ford), cmp_forder);
            if (nf == 0) warn("%s: @F_SYNOPSIS@, but the page matches no Fortran routine", pg->file);
            const struct name *prev = NULL;
            for (size_t i = 0; i < nf; i++) {
                const struct name *n = &names[ford[i]];
                if (prev && strcmp(prev->fdecls, n->fdecls) != 0) {
                    buf_add(&out, prev->fdecls);
                    buf_add(&out, ".sp\n");
                }
                buf_add(&out, n->fhead);
                buf_addc(&out, '\n');
                prev = n;
            }
            free(ford);
            if (prev) buf_add(&out, prev->fdecls);
            if (!nofill) buf_add(&out, ".fi\n");
            continue;
        }
        if (strstr(l, "@NAMES@")) has_names = 1;
        subst_line(&out, pg, ln + 1, l, buf_str(&list), version, date);
        /* Left-aligned and unhyphenated: a NAME line of long routine names
         * cannot be justified (groff -ww warns "cannot adjust line"), and
         * a name broken at a hyphen cannot be searched for. */
        if (!has_th && strncmp(l, ".TH", 3) == 0 && (l[3] == ' ' || l[3] == '\0')) {
            buf_add(&out, ".ad l\n.nh\n");
            has_th = 1;
        }
    }
    if (!has_th) error("%s: no .TH line", pg->file);
    if (!has_names) error("%s: no @NAMES@ marker (in the NAME section)", pg->file);
    if (ncfunc && !has_c)
        warn("%s: matches %zu C functions but has no @C_SYNOPSIS@", pg->file, ncfunc);
    if (nfort && !has_f && have_fortran)
        warn("%s: matches %zu Fortran routines but has no @F_SYNOPSIS@", pg->file, nfort);

    size_t l = strlen(outdir) + strlen(pg->name) + 8;
    char *path = xmalloc(l);
    snprintf(path, l, "%s/%s.3", outdir, pg->name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(buf_str(&out), f) == EOF || fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    free(path);
    free(list.s);
    free(out.s);
}

/* An alias is a relative symbolic link to the page rather than a ".so"
 * stub: man-db and groff follow it from any directory (a .so path is
 * resolved against the manual's top directory, which `groff` and `man -l`
 * run on the file itself do not know), `man -w` finds it like a page, and
 * packaging tools (dh_link, dh_compress) keep it working when they
 * compress the pages. The same as oshc++.1 and oshfort.1. */
static void write_alias(const char *outdir, const char *name, const char *page)
{
    size_t l = strlen(outdir) + strlen(name) + 8;
    char *path = xmalloc(l), target[512];
    snprintf(path, l, "%s/%s.3", outdir, name);
    snprintf(target, sizeof(target), "%s.3", page);
    if (symlink(target, path) != 0) die("cannot create %s: %s", path, strerror(errno));
    free(path);
}

static void clean_dir(const char *outdir)
{
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST)
        die("cannot create %s: %s", outdir, strerror(errno));
    DIR *d = opendir(outdir);
    if (!d) die("cannot open %s: %s", outdir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 3 || strcmp(e->d_name + l - 2, ".3") != 0) continue;
        size_t pl = strlen(outdir) + l + 2;
        char *path = xmalloc(pl);
        snprintf(path, pl, "%s/%s", outdir, e->d_name);
        if (unlink(path) != 0) die("cannot remove %s: %s", path, strerror(errno));
        free(path);
    }
    closedir(d);
}

static const char *opt(const char *arg, const char *key)
{
    size_t n = strlen(key);
    return strncmp(arg, key, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *version = NULL, *date = "", *decls = NULL, *macros = NULL;
    const char *hpvm = NULL, *fortran = NULL, *unmatched = NULL, *src = NULL, *v;
    for (int i = 1; i < argc; i++) {
        if ((v = opt(argv[i], "--out"))) out = v;
        else if ((v = opt(argv[i], "--version"))) version = v;
        else if ((v = opt(argv[i], "--date"))) date = v;
        else if ((v = opt(argv[i], "--decls"))) decls = v;
        else if ((v = opt(argv[i], "--macros"))) macros = v;
        else if ((v = opt(argv[i], "--hpvm"))) hpvm = v;
        else if ((v = opt(argv[i], "--fortran"))) fortran = v;
        else if ((v = opt(argv[i], "--unmatched"))) unmatched = v;
        else if (argv[i][0] != '-' && !src) src = argv[i];
        else die("unknown argument '%s'", argv[i]);
    }
    if (!out || !version || !decls || !macros || !src)
        die("usage: man3gen --out=DIR --version=V [--date=D] --decls=FILE --macros=FILE "
            "[--hpvm=FILE] [--fortran=shmem.f90] [--unmatched=FILE] SRCDIR");

    parse_macros(macros);
    parse_c(decls, 0);
    if (hpvm) parse_c(hpvm, 1);
    if (fortran) parse_fortran(fortran);
    size_t nfuncs = 0;
    for (size_t i = 0; i < nnames; i++) nfuncs += names[i].csyn != NULL;
    if (nfuncs < 100) die("found only %zu functions in %s: its format changed?", nfuncs, decls);
    if (fortran && nfnames < 50)
        die("found only %zu routines in %s: its format changed?", nfnames, fortran);

    read_pages(src);
    if (errors) return 1;
    match_pages();
    if (errors) return 1;
    clean_dir(out);
    for (size_t p = 0; p < npages; p++) write_page(&pages[p], out, version, date, fortran != NULL);
    if (errors) return 1;
    size_t naliases = 0, nmissing = 0;
    for (size_t i = 0; i < nnames; i++) {
        const struct name *n = &names[i];
        if (n->page < 0) {
            nmissing++;
            continue;
        }
        if (strcmp(n->name, pages[n->page].name) == 0) continue;
        write_alias(out, n->name, pages[n->page].name);
        naliases++;
    }
    if (unmatched) {
        FILE *f = fopen(unmatched, "w");
        if (!f) die("cannot write %s: %s", unmatched, strerror(errno));
        size_t *order = xmalloc(nnames * sizeof(*order));
        for (size_t i = 0; i < nnames; i++) order[i] = i;
        qsort(order, nnames, sizeof(*order), cmp_rank);
        for (size_t i = 0; i < nnames; i++) {
            const struct name *n = &names[order[i]];
            if (n->page >= 0) continue;
            fprintf(f, "%s %s\n", n->name,
                    n->in & IN_CFUNC ? "C" : n->in & IN_MACRO ? "C11" : "Fortran");
        }
        free(order);
        if (fclose(f) != 0) die("cannot write %s: %s", unmatched, strerror(errno));
    }
    printf("man3gen: %zu pages, %zu aliases; %zu of %zu names have no page%s%s\n", npages,
           naliases, nmissing, nnames, nmissing && unmatched ? ": " : "",
           nmissing && unmatched ? unmatched : "");
    return 0;
}
