#!/bin/sh
# One source for each figure: every figure the README quotes, marked
# <!--fig:ID-->TEXT<!--/fig-->, must be the figure with that ID in the page
# of docs/ it was taken from, which the README's line links to. Each ID is
# marked once in docs/. Fails naming the figure, both texts and the line.
#
#   check_figures.sh README DOCS_DIR
set -u
readme=$1 docs=$2
[ -f "$readme" ] && [ -d "$docs" ] || { echo "usage: check_figures.sh README DOCS_DIR" >&2; exit 2; }

awk -v readme="$readme" '
function each_fig(line, fn,    m, id, val, n) {
    n = 0
    while (match(line, /<!--fig:[A-Za-z0-9_-]+-->[^<]*<!--\/fig-->/)) {
        m = substr(line, RSTART, RLENGTH)
        line = substr(line, RSTART + RLENGTH)
        id = m;  sub(/^<!--fig:/, "", id); sub(/-->.*$/, "", id)
        val = m; sub(/^<!--fig:[A-Za-z0-9_-]+-->/, "", val); sub(/<!--\/fig-->$/, "", val)
        ids[++n] = id; vals[n] = val
    }
    return n
}
function base(path) { sub(/^.*\//, "", path); return path }
{
    marks = gsub(/<!--fig:/, "&")
    n = each_fig($0)
    if (marks != n) {
        printf "%s:%d: a figure marker that is not <!--fig:ID-->TEXT<!--/fig--> on one line\n",
               FILENAME, FNR
        bad = 1
    }
    for (i = 1; i <= n; i++) {
        if (FILENAME != readme) {
            if (ids[i] in def) {
                printf "%s:%d: figure %s is marked again (first in %s)\n", FILENAME, FNR, ids[i], deffile[ids[i]]
                bad = 1
            }
            def[ids[i]] = vals[i]; deffile[ids[i]] = base(FILENAME)
            continue
        }
        quoted++
        if (!(ids[i] in def)) {
            printf "%s:%d: figure %s (\"%s\") is marked in no page of docs/\n", FILENAME, FNR, ids[i], vals[i]
            bad = 1
        } else if (def[ids[i]] != vals[i]) {
            printf "%s:%d: figure %s is \"%s\" here but \"%s\" in docs/%s\n", FILENAME, FNR,
                   ids[i], vals[i], def[ids[i]], deffile[ids[i]]
            bad = 1
        } else if (index($0, "docs/" deffile[ids[i]]) == 0) {
            printf "%s:%d: figure %s comes from docs/%s, which this line does not link to\n",
                   FILENAME, FNR, ids[i], deffile[ids[i]]
            bad = 1
        }
    }
}
END {
    if (quoted == 0) { printf "%s quotes no marked figure\n", readme; bad = 1 }
    if (!bad) printf "%d figures in %s match docs/\n", quoted, readme
    exit bad
}' "$docs"/*.md "$readme"
