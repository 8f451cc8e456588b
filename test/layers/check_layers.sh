#!/bin/sh
# The library's folders are its layers, and calls only go down (docs/design.md,
# "Layers"). This reads the built library's object files with nm, attributes
# every object to the folder of its source, and derives which folder uses a
# symbol that another folder defines: a call, or a reference to data. It
# prints that folder graph and fails, naming the symbol and both files, on
# any use of a higher folder by a lower one, on any folder that is in no
# layer, and on any circle between folders. With --sources, it also fails
# on a source that includes a header of a higher folder ("api/ush_check.h"
# in core/), which the objects cannot show when only macros or inline
# code are used.
#
#   check_layers.sh [--nm NM] [--srcdir DIR] [--sources ROOT] LAYERS OBJECT...
#
# LAYERS lists the folders from the top down, one level after another,
# separated by ':'; folders on one level are separated by ',' and may not
# use each other. A folder may use any folder on a lower level. OBJECT is
# one of the library's objects as CMake builds it: the path after the
# target's `.dir/` is its source's path relative to DIR (the target's source
# folder, relative to the project's root; `.` by default), with `__` for `..`.
# ROOT is the project's root, whose LAYERS folders hold the sources.
set -eu

nm=nm
srcdir=.
sources=
while [ $# -gt 0 ]; do
    case $1 in
    --nm) nm=$2; shift 2 ;;
    --srcdir) srcdir=$2; shift 2 ;;
    --sources) sources=$2; shift 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    echo "usage: $0 [--nm NM] [--srcdir DIR] [--sources ROOT] LAYERS OBJECT..." >&2
    exit 2
fi
layers=$1
shift

# nm prints a line per object and symbol, "object: symbol type [value size]"
# (POSIX output, -P, with the file name first, -A, reads the same on every
# nm); then, with --sources, a line per include of a header by a path,
# "#include FILE HEADER".
{
    "$nm" -A -P "$@"
    if [ -n "$sources" ]; then
        for dir in $(echo "$layers" | tr ':,' '  '); do
            for f in "$sources/$dir"/*.[ch]; do
                [ -f "$f" ] || continue
                sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*/[^"]*\)".*|#include '"$dir/${f##*/}"' \1|p' "$f"
            done
        done
    fi
} | awk -v layers="$layers" -v srcdir="$srcdir" '
function source_of(obj,    rel, n, parts, out, i, m) {
    if (!match(obj, /\.dir\//))
        return ""
    rel = substr(obj, RSTART + RLENGTH)
    sub(/\.o(bj)?$/, "", rel)
    n = split((srcdir == "." ? "" : srcdir "/") rel, parts, "/")
    m = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "__" || parts[i] == "..") {
            if (m > 0) m--
        } else if (parts[i] != "." && parts[i] != "") {
            out[++m] = parts[i]
        }
    }
    rel = ""
    for (i = 1; i <= m; i++)
        rel = rel (i > 1 ? "/" : "") out[i]
    return rel
}
BEGIN {
    nlevels = split(layers, level, ":")
    for (l = 1; l <= nlevels; l++) {
        nf = split(level[l], fs, ",")
        for (f = 1; f <= nf; f++) {
            name = fs[f]
            rank[name] = l
            folders[++nfolders] = name
        }
    }
    bad = 0
}
$1 == "#include" {
    ff = $2
    sub(/\/.*/, "", ff)
    ft = $3
    sub(/\/.*/, "", ft)
    if (ff == ft || !(ft in rank))
        next                    # its own folder, or a system header
    if (rank[ff] > rank[ft])
        why = "upward: " ff "/ is below " ft "/"
    else if (rank[ff] == rank[ft])
        why = "sideways: " ff "/ and " ft "/ are on one level"
    else
        next
    printf "check_layers: %s includes %s (%s)\n", $2, $3, why
    bad = 1
    next
}
{
    # "path/to/x.c.o: symbol type [value size]"
    obj = $1
    sub(/:$/, "", obj)
    sym = $2
    type = $3
    if (!(obj in file)) {
        src = source_of(obj)
        if (src == "") {
            printf "check_layers: cannot tell the source of %s\n", obj
            bad = 1
            src = obj
        }
        file[obj] = src
        split(src, p, "/")
        folder[obj] = (index(src, "/") ? p[1] : ".")
        if (!(folder[obj] in rank)) {
            printf "check_layers: %s is in folder %s/, which is in no layer (%s)\n",
                   src, folder[obj], layers
            bad = 1
        }
    }
    if (type == "U" || type == "w") {
        nuse++
        use_obj[nuse] = obj
        use_sym[nuse] = sym
    } else if (type ~ /^[TDBRGSVWiu]$/) {
        # The first strong definition wins over weak ones (W, V).
        if (!(sym in def) || (def_weak[sym] && type !~ /^[WV]$/)) {
            def[sym] = obj
            def_weak[sym] = (type ~ /^[WV]$/)
        }
    }
}
END {
    for (i = 1; i <= nuse; i++) {
        sym = use_sym[i]
        if (!(sym in def))
            continue            # libc, UCX, PMIx, hwloc
        from = use_obj[i]
        to = def[sym]
        ff = folder[from]
        ft = folder[to]
        if (ff == ft)
            continue
        edge = ff SUBSEP ft
        if (!(edge in count)) {
            nedges++
            edge_from[nedges] = ff
            edge_to[nedges] = ft
        }
        count[edge]++
        if (!((edge, sym) in named)) {
            named[edge, sym] = 1
            nsyms[edge]++
            if (nsyms[edge] <= 5)
                syms[edge] = syms[edge] " " sym
        }
        succ[ff] = succ[ff] " " ft
        if (!(ff in rank) || !(ft in rank))
            continue
        why = ""
        if (rank[ff] > rank[ft])
            why = "upward: " ff "/ is below " ft "/"
        else if (rank[ff] == rank[ft])
            why = "sideways: " ff "/ and " ft "/ are on one level"
        if (why != "") {
            printf "check_layers: %s uses %s, defined in %s (%s)\n",
                   file[from], sym, file[to], why
            bad = 1
        }
    }

    print "folder graph (from -> to: uses, symbols, the first few named):"
    for (l = 1; l <= nlevels; l++)
        for (f = 1; f <= nfolders; f++) {
            ff = folders[f]
            if (rank[ff] != l) continue
            any = 0
            for (e = 1; e <= nedges; e++) {
                if (edge_from[e] != ff) continue
                edge = ff SUBSEP edge_to[e]
                printf "  %-11s -> %-11s %4d uses of %3d:%s%s\n", ff, edge_to[e],
                       count[edge], nsyms[edge], syms[edge], (nsyms[edge] > 5 ? " ..." : "")
                any = 1
            }
            if (!any)
                printf "  %-11s -> (nothing of the library)\n", ff
        }

    # A circle: depth-first search over the folder graph, grey on the stack.
    for (f = 1; f <= nfolders; f++)
        colour[folders[f]] = 0
    for (f = 1; f <= nfolders; f++)
        if (colour[folders[f]] == 0)
            visit(folders[f])
    if (bad) {
        print "check_layers: FAILED: a lower folder uses a higher one, or folders form a circle"
        exit 1
    }
    print "check_layers: every use goes down; no circle"
}
function visit(v,    n, next_, i, w, j, cyc) {
    colour[v] = 1
    stack[++depth] = v
    n = split(succ[v], next_, " ")
    for (i = 1; i <= n; i++) {
        w = next_[i]
        if (colour[w] == 1) {
            for (j = depth; stack[j] != w; j--)
                ;
            cyc = stack[j]
            for (j++; j <= depth; j++)
                cyc = cyc " -> " stack[j]
            if (!(cyc in seen_cycle)) {
                seen_cycle[cyc] = 1
                printf "check_layers: circle between folders: %s -> %s\n", cyc, w
            }
            bad = 1
        } else if (colour[w] == 0) {
            visit(w)
        }
    }
    depth--
    colour[v] = 2
}
'
