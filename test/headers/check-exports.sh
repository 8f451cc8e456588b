#!/usr/bin/env bash
# libushmem.so exports none of its ush_* internals (api/libushmem.map) but
# the three objects <shmem.h>'s constants point at, so a program's own
# ush_ symbol cannot take the place of the library's; and a program using
# those constants links.
# Usage: check-exports.sh <include-dir> <libushmem.so>
# Exit status 0 when every check passes.
set -u
inc=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

want=$(printf '%s\n' ush_ctx_default ush_team_shared ush_team_world)
got=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep '^ush_' | sort)
if [ "$got" != "$want" ]; then
    printf 'FAIL  %s exports these ush_ symbols:\n%s\nexpected only:\n%s\n' "$lib" "$got" "$want"
    exit 1
fi
printf 'ok    the only ush_ symbols exported are %s\n' "$(echo $want)"

cat >"$tmp/use.c" <<'PROG'
#include <shmem.h>
int main(void)
{
    return SHMEM_CTX_DEFAULT == 0 || SHMEM_TEAM_WORLD == SHMEM_TEAM_SHARED;
}
PROG
if ! gcc -I"$inc" "$tmp/use.c" "$lib" -o "$tmp/use" 2>"$tmp/err"; then
    printf 'FAIL  a program using SHMEM_CTX_DEFAULT and the team constants does not link:\n'
    head -5 "$tmp/err"
    exit 1
fi
printf 'ok    SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED link\n'
