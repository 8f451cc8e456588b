#!/bin/sh
# check_layers.sh must fail where a lower folder uses a higher one, where
# folders form a circle, where an object lies outside every layer and where
# a source includes a higher folder's header, and pass where every use
# goes down. It is run here on a made-up library of
# three folders, compiled by CC into objects laid out as CMake lays them.
#
#   selftest.sh CC NM CHECK_LAYERS_SH
set -eu
cc=$1 nm=$2 check=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "layers selftest: $*" >&2; exit 1; }

obj=$work/CMakeFiles/lib.dir
mkdir -p "$obj/top" "$obj/low" "$obj/stray"
printf 'int low_fn(void);\nint top_fn(void) { return low_fn(); }\n' >"$work/a.c"
printf 'int low_fn(void) { return 1; }\n' >"$work/b.c"
printf 'int top_fn(void);\nint low_fn(void) { return top_fn(); }\n' >"$work/b_up.c"
printf 'int stray_fn(void) { return 2; }\n' >"$work/c.c"
"$cc" -c "$work/a.c" -o "$obj/top/a.c.o"
"$cc" -c "$work/b.c" -o "$obj/low/b.c.o"
"$cc" -c "$work/c.c" -o "$obj/stray/c.c.o"

# Every use goes down: passes, and prints the edge.
out=$(sh "$check" --nm "$nm" top:low "$obj/top/a.c.o" "$obj/low/b.c.o") ||
    fail "a library whose calls go down failed: $out"
echo "$out" | grep -q 'top *-> low *1 uses of *1: low_fn' || fail "no edge top -> low in: $out"

# A call up, which closes a circle: fails, naming the symbol and both files.
"$cc" -c "$work/b_up.c" -o "$obj/low/b.c.o"
if out=$(sh "$check" --nm "$nm" top:low "$obj/top/a.c.o" "$obj/low/b.c.o"); then
    fail "a call from low/ up into top/ passed: $out"
fi
echo "$out" | grep -q 'low/b.c uses top_fn, defined in top/a.c (upward' ||
    fail "the upward call is not named: $out"
echo "$out" | grep -q 'circle between folders: .*top.*low' || fail "no circle reported: $out"

# The same two folders on one level may not use each other either.
if out=$(sh "$check" --nm "$nm" top,low "$obj/top/a.c.o" "$obj/low/b.c.o"); then
    fail "two folders of one level calling each other passed: $out"
fi
echo "$out" | grep -q 'sideways' || fail "no sideways use reported: $out"

# An object in a folder of no layer fails.
"$cc" -c "$work/b.c" -o "$obj/low/b.c.o"
if out=$(sh "$check" --nm "$nm" top:low "$obj/top/a.c.o" "$obj/low/b.c.o" "$obj/stray/c.c.o"); then
    fail "an object outside every layer passed: $out"
fi
echo "$out" | grep -q 'stray/c.c is in folder stray/, which is in no layer' ||
    fail "the stray object is not named: $out"
# A source that includes a higher folder's header fails with --sources,
# though no symbol shows it.
mkdir -p "$work/top" "$work/low"
printf '#define TOP_MACRO 1\n' >"$work/top/top.h"
printf '#include "top/top.h"\nint low_fn(void) { return TOP_MACRO; }\n' >"$work/low/b.c"
"$cc" -I"$work" -c "$work/low/b.c" -o "$obj/low/b.c.o"
sh "$check" --nm "$nm" top:low "$obj/top/a.c.o" "$obj/low/b.c.o" >/dev/null ||
    fail "without --sources, an include upward is not in the objects, yet it failed"
if out=$(sh "$check" --nm "$nm" --sources "$work" top:low "$obj/top/a.c.o" "$obj/low/b.c.o"); then
    fail "an include from low/ of top/'s header passed: $out"
fi
echo "$out" | grep -q 'low/b.c includes top/top.h (upward' || fail "the include is not named: $out"
echo "layers selftest: passed"
