#!/bin/bash
# startup-scale.sh: how start-up cost and memory per PE grow with the job,
# ushmem against Open MPI's OSHMEM: one node from 4 to 256 PEs,
# and 2 to 8 emulated (netns) nodes of 8 PEs each.
#
#   startup-scale.sh [--prefix DIR] [--runs N] [--np "4 8 ..."] [options]   (see --help)
#
# Both libraries build the same bench/scale.c (init, shmem_malloc, barrier,
# one get from the PE npes/2 ranks away, finalize; each PE reports its
# shmem_init time and peak RSS). On one node each library runs under its
# own oshrun; across nodes both run under Open MPI's mpirun, started on the
# nodes through the cluster tooling's rsh agent, as bench/xnode.sh does,
# and under srun --mpi=pmix of a private Slurm with one slurmd in each
# node (--launcher). Across nodes the bytes each node received during the
# job (its interface's count: the launcher's wire-up traffic, PMIx's
# included, and the program's own) stand for what its PMIx server was
# sent; --wireup chooses how ushmem reads its peers' wire-up data.
# Per run and PE count: ushmem, then Open MPI, so a burst of load falls on
# both. Figures are medians over runs. The script measures; it never
# decides which side must be faster or what is flat enough.
#
# Exit status: 0 every timed run was correct; 1 some run failed (exit status
# not 0, or not one correct line from each PE); 2 usage, set-up or build
# error.

set -u
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCALE_SRC=$SCRIPT_DIR/scale.c
BENCH_NAME=startup-scale.sh

PREFIX=${PREFIX:-}
RUNS=3
NPS="4 8 16 32 64 128 256"
NODES=default        # "2 4 8" when root, else none (with a note)
PER_NODE=8
LAUNCHERS=default    # "mpirun srun", or mpirun alone (with a note) without Slurm
OMPI_MAX=128         # Open MPI takes ~100 s at 256 PEs on 2 cores
HEAP=32M
HEAP_ABOVE=64
RUN_TIMEOUT=600
ONLY=""
WIREUP=auto          # collect, demand or auto: SHMEM_WIREUP_COLLECT -1, 0 or unset
OUT=$SCRIPT_DIR/../build/bench-results/scale
KEEP=0
OMPI_OSHCC=/usr/bin/oshcc
OMPI_OSHRUN=/usr/bin/oshrun
# See startup.sh: Open MPI 4.1.4 dies in shmem_finalize without it.
OMPI_MCA=(--mca spml_ucx_opal_mem_hooks 0)
CLUSTER_TOOL=${CLUSTER_TOOL:-$SCRIPT_DIR/../test/cluster/tools/netns-cluster}
MIN_RUNS=1

# The cluster's own names, subnet and Slurm ports, distinct from the
# cluster tests' (ushn*, 10.79.0, Slurm 6917) and xnode.sh's (ushb*,
# 10.78.0), so they can run at the same time. Two bridges with one subnet
# would give the root namespace two routes to it: mpirun's replies would
# reach one cluster's nodes only, after TCP's retries. SCALE_CLUSTER
# (prefix), SCALE_SUBNET and SCALE_SLURM_PORT choose others.
SCALE_CLUSTER=${SCALE_CLUSTER:-ushs}
export CLUSTER_PREFIX=$SCALE_CLUSTER CLUSTER_SUBNET=${SCALE_SUBNET:-10.80.0}
export CLUSTER_BRIDGE=${SCALE_CLUSTER}br0 CLUSTER_STATE_DIR=/tmp/$SCALE_CLUSTER-cluster
# Names in /etc/hosts (a block of its own, removed by down) only for Slurm.
export CLUSTER_ETC_HOSTS=0
export SLURM_LOCAL_STATE_DIR=/var/tmp/$SCALE_CLUSTER-slurm SLURM_LOCAL_CLUSTER=${SCALE_CLUSTER}cl
export SLURM_LOCAL_CTLD_PORT=${SCALE_SLURM_PORT:-6937}
export SLURM_LOCAL_SLURMD_PORT=$((SLURM_LOCAL_CTLD_PORT + 1))
SLURM_TOOL=${SLURM_TOOL:-$SCRIPT_DIR/../test/cluster/tools/slurm-local}
LOCK_FILE=/tmp/$SCALE_CLUSTER-scale.lock

usage() {
    cat <<EOF
usage: $(basename "$0") [options]

Times bench/scale.c (init, shmem_malloc, barrier, one far get, finalize)
with ushmem and Open MPI's OSHMEM at growing PE counts, and prints per PE
count: wall time of the job, wall time per PE, peak RSS per PE and the time
shmem_init took inside the PEs; with a CSV and a PNG in --out.

  --prefix DIR       ushmem install prefix (DIR/bin/oshcc, DIR/bin/oshrun);
                     default: \$PREFIX
  --runs N           timed runs per library and point (default $RUNS)
  --np "LIST"        PE counts on this node (default "$NPS"; "" for none)
  --nodes "LIST"     emulated node counts, --per-node PEs each (default
                     "2 4 8" as root, none otherwise; "" for none); needs
                     root, iproute2 and Open MPI's mpirun for both libraries
  --per-node P       PEs per emulated node (default $PER_NODE)
  --launcher "LIST"  how the emulated-node jobs start (default "mpirun srun",
                     mpirun alone where Slurm is not installed): mpirun
                     (Open MPI's, through the tooling's rsh agent; series
                     netns) and/or srun (--mpi=pmix, a private Slurm with a
                     slurmd in each node; series srun)
  --ompi-max N       no Open MPI job above N PEs (default $OMPI_MAX; 0: no cap)
  --heap SIZE        symmetric heap per PE above --heap-above PEs, given to
                     both libraries (default $HEAP)
  --heap-above N     (default $HEAP_ABOVE)
  --only ushmem|ompi one library (no ratios)
  --wireup MODE      how ushmem's PEs get their peers' wire-up data across
                     nodes: collect (every node's launcher gets every PE's,
                     SHMEM_WIREUP_COLLECT=-1), demand (read on first use,
                     SHMEM_WIREUP_COLLECT=0) or auto (the library's
                     default); default $WIREUP
  --timeout S        seconds before one run is killed and counted as failed
                     (default $RUN_TIMEOUT)
  --out DIR          scale.txt, scale.csv, scale.png, runs.txt (every run's
                     figures), raw/ (default build/bench-results/scale)
  --keep             keep the work directory (builds, every run's output)
  --self-test        check this script's parsing and arithmetic, then exit
  -h, --help         this text

The heap size goes in SHMEM_SYMMETRIC_SIZE (ushmem) and SMA_SYMMETRIC_SIZE
(Open MPI 4.1 ignores SHMEM_SYMMETRIC_SIZE; it reads SMA_SYMMETRIC_SIZE and
SHMEM_SYMMETRIC_HEAP_SIZE); both PEs see both.

Environment: SCALE_CLUSTER (node prefix, default ushs), SCALE_SUBNET
(default 10.80.0), SCALE_SLURM_PORT (slurmctld's, default 6937; slurmd's is
the next): another cluster, to run beside one already up.
EOF
}

die() {
    echo "$BENCH_NAME: $*" >&2
    exit 2
}

# median, min_max, ratio, is_uint, at_least, now_us, bench_self_test.
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"

# ---------------------------------------------------------------- parsing
# scale_stats NP FILE: "init_med init_max rss_mean_mib rss_max_mib" over
# the PEs' lines of one run, or nothing (status 1) unless FILE holds
# exactly one "scale PE k of NP ... get ok" line for every k in 0..NP-1.
# A launcher that starts NP one-PE jobs, loses a PE or reads a wrong value
# is a failed run, not a fast one.
scale_stats() {
    awk -v np="$1" '
        $1 == "scale" && $2 == "PE" {
            n++
            if ($3 !~ /^[0-9]+$/ || $4 != "of" || $5 != np || $3 >= np || seen[$3]++ ||
                $6 != "init_ms" || $8 != "hwm_kib" || $10 != "get" || $11 != "ok" ||
                $9 !~ /^[0-9]+$/) { bad = 1; next }
            init[n] = $7 + 0; rss += $9
            if ($9 > rmax) rmax = $9
        }
        END {
            if (bad || n != np) exit 1
            for (i = 2; i <= n; i++)            # insertion sort, at most a few hundred
                for (j = i; j > 1 && init[j - 1] > init[j]; j--) { t = init[j]; init[j] = init[j - 1]; init[j - 1] = t }
            med = n % 2 ? init[(n + 1) / 2] : (init[n / 2] + init[n / 2 + 1]) / 2
            printf "%.1f %.1f %.2f %.2f\n", med, init[n], rss / n / 1024, rmax / 1024
        }' "$2"
}

# summarise RESULTS: one CSV line per (series, nodes, npes, lib), in order of
# first appearance, medians over runs of every figure. RESULTS lines:
#   series nodes npes lib wall_ms init_med init_max rss_mean rss_max rx_kib
#                                                  (a run; rx_kib: received
#                                                  per node, - on one node)
#   series nodes npes lib FAIL                                         (a failed run)
#   series nodes npes lib SKIP                                         (not run)
summarise() {
    awk '
        function med(key, col,   m, i, j, t, a) {
            m = n[key]
            for (i = 1; i <= m; i++) a[i] = v[key, i, col]
            for (i = 2; i <= m; i++)
                for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        {
            key = $1 "," $2 "," $3 "," $4
            if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
            if ($5 == "SKIP") { skip[key] = 1; next }
            runs[key]++
            if ($5 == "FAIL") next
            m = ++n[key]
            for (c = 5; c <= 10; c++) v[key, m, c] = $c
            if ($10 != "-") rx[key] = 1
        }
        END {
            print "series,nodes,npes,lib,runs_ok,runs,wall_ms,per_pe_ms,rss_mib_per_pe,rss_mib_max,init_ms_median,init_ms_max,rx_kib_per_node"
            for (k = 1; k <= nk; k++) {
                key = order[k]
                split(key, f, ",")
                if (skip[key] || !n[key]) {
                    printf "%s,%d,%s,,,,,,,\n", key, n[key], runs[key]; continue
                }
                w = med(key, 5)
                printf "%s,%d,%d,%.1f,%.2f,%.2f,%.2f,%.1f,%.1f,%s\n", key, n[key], runs[key],
                       w, w / f[3], med(key, 8), med(key, 9), med(key, 6), med(key, 7),
                       rx[key] ? sprintf("%.1f", med(key, 10)) : ""
            }
        }' "$1"
}

# table CSV: the human-readable table of summarise's CSV, both libraries of
# a point on one line, the ratio of their per-PE cost, and each library's
# per-PE cost over the lowest of its series (the aim: every point
# within 1.5 of it).
table() {
    awk -F, '
        NR == 1 { next }
        {
            key = $1 "," $2 "," $3
            if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
            ok[key, $4]  = $6 == "" ? "skip" : $5 "/" $6
            pp[key, $4]  = $8; wall[key, $4] = $7; rss[key, $4] = $9; init[key, $4] = $11; imax[key, $4] = $12
            rxk[key, $4] = $13
            # The lowest ms/PE of the series: at a few PEs the fixed job
            # cost (launcher, loading) inflates ms/PE, so the first point
            # is not the one to measure the rise from.
            if ($8 != "" && (!(($1, $4) in base) || $8 + 0 < base[$1, $4])) base[$1, $4] = $8 + 0
        }
        function cell(key, lib,   s) {
            if (pp[key, lib] == "")
                return sprintf("%5s %8s %8s %7s %8s %8s %6s %7s", ok[key, lib] == "" ? "-" : ok[key, lib], "-", "-", "-", "-", "-", "-", "-")
            split(key, f, ",")
            return sprintf("%5s %8.2f %8.1f %7.1f %8.1f %8.1f %6.2f %7s", ok[key, lib], wall[key, lib] / 1000,
                           pp[key, lib], rss[key, lib], init[key, lib], imax[key, lib], pp[key, lib] / base[f[1], lib],
                           rxk[key, lib] == "" ? "-" : rxk[key, lib])
        }
        END {
            printf "%-7s %5s %5s | %-64s | %-64s | %6s\n", "", "", "", "ushmem", "Open MPI", "ratio"
            printf "%-7s %5s %5s | %5s %8s %8s %7s %8s %8s %6s %7s | %5s %8s %8s %7s %8s %8s %6s %7s | %6s\n",
                   "series", "nodes", "PEs", "ok", "wall s", "ms/PE", "MiB/PE", "init ms", "init max", "growth", "rx KiB",
                   "ok", "wall s", "ms/PE", "MiB/PE", "init ms", "init max", "growth", "rx KiB", "ms/PE"
            for (k = 1; k <= nk; k++) {
                key = order[k]; split(key, f, ",")
                r = "n/a"
                if (pp[key, "ushmem"] != "" && pp[key, "ompi"] + 0 > 0)
                    r = sprintf("%.2f", pp[key, "ushmem"] / pp[key, "ompi"])
                printf "%-7s %5s %5s | %s | %s | %6s\n", f[1], f[2], f[3], cell(key, "ushmem"), cell(key, "ompi"), r
            }
        }' "$1"
}

self_test() {
    local fails=0 tmp got
    bench_self_test >/dev/null || { echo "self-test FAIL: lib.sh checks (run startup.sh --self-test)"; fails=1; }
    tmp=$(mktemp -d) || { echo "self-test: mktemp failed"; return 1; }
    xcheck() { if [ "$2" != "$3" ]; then printf 'self-test FAIL: %s:\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi; }

    printf 'scale PE 1 of 3 init_ms 30.00 hwm_kib 2048 get ok\nnoise\nscale PE 0 of 3 init_ms 10.00 hwm_kib 1024 get ok\nscale PE 2 of 3 init_ms 20.00 hwm_kib 3072 get ok\n' >"$tmp/ok"
    xcheck "scale_stats" "20.0 30.0 2.00 3.00" "$(scale_stats 3 "$tmp/ok")"
    printf 'scale PE 0 of 2 init_ms 1 hwm_kib 1 get ok\nscale PE 1 of 2 init_ms 3 hwm_kib 1 get ok\n' >"$tmp/even"
    xcheck "scale_stats even" "2.0 3.0 0.00 0.00" "$(scale_stats 2 "$tmp/even")"
    head -n 3 "$tmp/ok" >"$tmp/missing"
    scale_stats 3 "$tmp/missing" >/dev/null; xcheck "scale_stats one PE missing" 1 $?
    sed 's/PE 2 of 3 init_ms 20.00 hwm_kib 3072 get ok/PE 2 of 3 init_ms 20.00 hwm_kib 3072 get bad/' "$tmp/ok" >"$tmp/bad"
    scale_stats 3 "$tmp/bad" >/dev/null; xcheck "scale_stats wrong get" 1 $?
    printf 'scale PE 0 of 1 init_ms 1 hwm_kib 1 get ok\nscale PE 0 of 1 init_ms 1 hwm_kib 1 get ok\n' >"$tmp/ones"
    scale_stats 2 "$tmp/ones" >/dev/null; xcheck "scale_stats two one-PE jobs" 1 $?
    printf 'scale PE 0 of 2 init_ms 1 hwm_kib 1 get ok\nscale PE 2 of 2 init_ms 1 hwm_kib 1 get ok\n' >"$tmp/range"
    scale_stats 2 "$tmp/range" >/dev/null; xcheck "scale_stats PE out of range" 1 $?

    cat >"$tmp/results" <<'EOF'
node 1 4 ushmem 100 10 12 2.00 2.50 -
node 1 4 ompi 400 50 60 20.00 21.00 -
node 1 4 ushmem 300 30 32 4.00 4.50 -
node 1 4 ompi FAIL
node 1 4 ushmem 200 20 22 3.00 3.50 -
node 1 8 ushmem 320 40 42 3.00 3.50 -
node 1 8 ompi SKIP
netns 2 16 ushmem 1600 5 6 1.00 1.00 30.5
netns 2 16 ushmem 1800 5 6 1.00 1.00 20.5
EOF
    summarise "$tmp/results" >"$tmp/csv"
    got=$(paste -sd'|' "$tmp/csv")
    xcheck "summarise" "series,nodes,npes,lib,runs_ok,runs,wall_ms,per_pe_ms,rss_mib_per_pe,rss_mib_max,init_ms_median,init_ms_max,rx_kib_per_node|node,1,4,ushmem,3,3,200.0,50.00,3.00,3.50,20.0,22.0,|node,1,4,ompi,1,2,400.0,100.00,20.00,21.00,50.0,60.0,|node,1,8,ushmem,1,1,320.0,40.00,3.00,3.50,40.0,42.0,|node,1,8,ompi,0,,,,,,,,|netns,2,16,ushmem,2,2,1700.0,106.25,1.00,1.00,5.0,6.0,25.5" "$got"
    got=$(table "$tmp/csv" | awk 'NR > 2 { print $NF }' | paste -sd'|')
    xcheck "table ratio" "0.50|n/a|n/a" "$got"
    # Over the series' lowest ms/PE (40 at 8 PEs), not its first point.
    got=$(table "$tmp/csv" | awk 'NR == 3 || NR == 4 { print $(NF - 12) }' | paste -sd'|')
    xcheck "table init max" "22.0|42.0" "$(table "$tmp/csv" | awk 'NR == 3 || NR == 4 { print $(NF - 13) }' | paste -sd'|')"
    xcheck "table growth" "1.25|1.00" "$got"
    xcheck "table rx" "-|25.5" "$(table "$tmp/csv" | awk 'NR == 3 || NR == 5 { print $(NF - 11) }' | paste -sd'|')"
    rm -rf "$tmp"
    self_test_verdict "$fails"
}

# ---------------------------------------------------------------- options
while [ $# -gt 0 ]; do
    case $1 in
        --prefix)     PREFIX=${2-}; shift ;;
        --runs)       RUNS=${2-}; shift ;;
        --np)         NPS=${2-}; shift ;;
        --nodes)      NODES=${2-}; shift ;;
        --per-node)   PER_NODE=${2-}; shift ;;
        --launcher)   LAUNCHERS=${2-}; shift ;;
        --ompi-max)   OMPI_MAX=${2-}; shift ;;
        --heap)       HEAP=${2-}; shift ;;
        --heap-above) HEAP_ABOVE=${2-}; shift ;;
        --only)       ONLY=${2-}; shift ;;
        --wireup)     WIREUP=${2-}; shift ;;
        --timeout)    RUN_TIMEOUT=${2-}; shift ;;
        --out)        OUT=${2-}; shift ;;
        --keep)       KEEP=1 ;;
        --self-test)  self_test; exit $? ;;
        -h|--help)    usage; exit 0 ;;
        *)            usage >&2; die "unknown option '$1'" ;;
    esac
    [ $# -gt 0 ] && shift
done

at_least "$RUNS" "$MIN_RUNS" || die "--runs must be a whole number of at least $MIN_RUNS, not '$RUNS'"
at_least "$RUN_TIMEOUT" 1 || die "--timeout must be a whole number of seconds, not '$RUN_TIMEOUT'"
at_least "$PER_NODE" 1 || die "--per-node must be a whole number of at least 1, not '$PER_NODE'"
is_uint "$OMPI_MAX" || die "--ompi-max must be a whole number (0: no cap), not '$OMPI_MAX'"
is_uint "$HEAP_ABOVE" || die "--heap-above must be a whole number, not '$HEAP_ABOVE'"
for n in $NPS; do at_least "$n" 1 || die "--np takes whole numbers of at least 1, not '$n'"; done
case $ONLY in ''|ushmem|ompi) ;; *) die "--only takes 'ushmem' or 'ompi', not '$ONLY'" ;; esac
case $WIREUP in
    collect) export SHMEM_WIREUP_COLLECT=-1 ;;
    demand)  export SHMEM_WIREUP_COLLECT=0 ;;
    auto)    unset SHMEM_WIREUP_COLLECT ;;
    *)       die "--wireup takes collect, demand or auto, not '$WIREUP'" ;;
esac
[ -r "$SCALE_SRC" ] || die "cannot read $SCALE_SRC"
command -v timeout >/dev/null || die "needs 'timeout' (Debian package coreutils)"

if [ "$NODES" = default ]; then
    if [ "$(id -u)" -eq 0 ]; then
        NODES="2 4 8"
    else
        NODES=""
        echo "$BENCH_NAME: not root: no emulated-node series (it needs network namespaces)" >&2
    fi
fi
for n in $NODES; do at_least "$n" 1 || die "--nodes takes whole numbers of at least 1, not '$n'"; done
# have_slurm: what the srun series needs, or a line saying what is missing.
have_slurm() {
    local tool
    for tool in srun:slurm-client slurmd:slurmd slurmctld:slurmctld munged:munge; do
        PATH=$PATH:/usr/sbin:/sbin command -v "${tool%%:*}" >/dev/null ||
            { echo "'${tool%%:*}' not found (Debian package ${tool#*:})"; return 1; }
    done
    ls /usr/lib/*/slurm-wlm/mpi_pmix*.so >/dev/null 2>&1 ||
        { echo "no Slurm PMIx plugin (Debian package slurm-wlm-basic-plugins)"; return 1; }
    [ -r "$SLURM_TOOL" ] || { echo "Slurm tooling '$SLURM_TOOL' not found (set SLURM_TOOL to bin/slurm-local)"; return 1; }
}
if [ "$LAUNCHERS" = default ]; then
    LAUNCHERS="mpirun srun"
    if [ -n "$NODES" ] && ! why=$(have_slurm); then
        LAUNCHERS=mpirun
        echo "$BENCH_NAME: no srun series: $why" >&2
    fi
fi
[ -n "$LAUNCHERS" ] || die "--launcher takes mpirun, srun or both, not nothing"
for l in $LAUNCHERS; do
    case $l in mpirun|srun) ;; *) die "--launcher takes mpirun and/or srun, not '$l'" ;; esac
done
has_launcher() { case " $LAUNCHERS " in *" $1 "*) return 0 ;; esac; return 1; }
[ -n "$NPS$NODES" ] || die "nothing to run: --np and --nodes are both empty"

DO_USH=1; DO_OMPI=1
[ "$ONLY" = ompi ] && DO_USH=0
[ "$ONLY" = ushmem ] && DO_OMPI=0
if [ "$DO_USH" = 1 ]; then
    [ -n "$PREFIX" ] || die "give the ushmem install prefix: --prefix DIR (or PREFIX=DIR), or --only ompi"
    PREFIX=$(cd "$PREFIX" 2>/dev/null && pwd) || die "install prefix does not exist (run 'make install' first)"
    for tool in oshcc oshrun; do
        [ -x "$PREFIX/bin/$tool" ] || die "ushmem's '$PREFIX/bin/$tool' not found or not executable"
    done
fi
if [ "$DO_OMPI" = 1 ]; then
    for tool in "$OMPI_OSHCC" "$OMPI_OSHRUN"; do
        [ -x "$tool" ] || die "Open MPI's '$tool' not found (Debian packages openmpi-bin, libopenmpi-dev), or use --only ushmem"
    done
fi
if [ -n "$NODES" ]; then
    [ "$(id -u)" -eq 0 ] || die "--nodes needs root: it creates network namespaces and a bridge"
    for tool in ip nsenter flock mpirun:openmpi-bin; do
        command -v "${tool%%:*}" >/dev/null ||
            die "needs '${tool%%:*}'$([ "${tool#*:}" != "$tool" ] && echo " (Debian package ${tool#*:})")"
    done
    [ -r "$CLUSTER_TOOL" ] || die "cluster tooling '$CLUSTER_TOOL' not found (set CLUSTER_TOOL to bin/netns-cluster)"
    if has_launcher srun && ! why=$(have_slurm); then
        die "--launcher srun: $why; or use --launcher mpirun"
    fi
fi

mkdir -p "$OUT/raw" || die "cannot create --out '$OUT'"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/raw/*.log
# The nodes start these binaries from here.
WORKDIR=$(mktemp -d /var/tmp/ushmem-scale.XXXXXX) || die "mktemp failed"
CLUSTER_UP=0
SLURM_UP=0
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    # Slurm first: its slurmds live in the nodes.
    if [ "$SLURM_UP" = 1 ]; then
        bash "$SLURM_TOOL" down >>"$WORKDIR/cluster.log" 2>&1 ||
            echo "$BENCH_NAME: stopping the private Slurm failed; run SLURM_LOCAL_STATE_DIR=$SLURM_LOCAL_STATE_DIR" \
                 "bash $SLURM_TOOL down" >&2
    fi
    if [ "$CLUSTER_UP" = 1 ]; then
        # down ends whatever still runs inside the nodes, by PID.
        CLUSTER_ETC_HOSTS=1 bash "$CLUSTER_TOOL" down >>"$WORKDIR/cluster.log" 2>&1 ||
            echo "$BENCH_NAME: tearing down the cluster failed; run CLUSTER_PREFIX=$CLUSTER_PREFIX" \
                 "CLUSTER_BRIDGE=$CLUSTER_BRIDGE CLUSTER_STATE_DIR=$CLUSTER_STATE_DIR CLUSTER_ETC_HOSTS=1" \
                 "bash $CLUSTER_TOOL down" >&2
    fi
    if [ "$KEEP" = 1 ]; then echo "$BENCH_NAME: work directory kept in $WORKDIR"; else rm -rf "$WORKDIR"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- build
build() { # build LABEL WRAPPER OUTPUT
    "$2" -O2 "$SCALE_SRC" -o "$3" >"$WORKDIR/build-$1.log" 2>&1 ||
        { cat "$WORKDIR/build-$1.log" >&2; die "building scale.c with $2 failed"; }
}
USH_EXE=$WORKDIR/scale_ushmem
OMPI_EXE=$WORKDIR/scale_ompi
[ "$DO_USH" = 1 ] && build ushmem "$PREFIX/bin/oshcc" "$USH_EXE"
[ "$DO_OMPI" = 1 ] && build ompi "$OMPI_OSHCC" "$OMPI_EXE"

# ---------------------------------------------------------------- runs
FAILED=0
RESULTS=$WORKDIR/results
: >"$RESULTS"

# nodes_rx NODES: the bytes each of the first NODES emulated nodes has
# received so far, on one line: what its bridge port sent it.
nodes_rx() {
    local i
    for i in $(seq 0 $(($1 - 1))); do
        cat "/sys/class/net/${CLUSTER_BRIDGE}p$i/statistics/tx_bytes" 2>/dev/null || echo 0
    done | paste -sd' '
}

# rx_kib BEFORE AFTER: KiB received per node between two nodes_rx lines.
rx_kib() {
    awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
                                     for (i = 1; i <= n; i++) s += y[i] - x[i]
                                     printf "%.1f\n", n ? s / n / 1024 : 0 }'
}

# run_point SERIES NODES NP LIB TAG CMD...: one job, timed; a line to
# RESULTS unless TAG is warmup.
run_point() {
    local series=$1 nodes=$2 np=$3 lib=$4 tag=$5 log t0 t1 rc stats rx0="" rx="-"
    shift 5
    log=$OUT/raw/$series-$nodes-$np-$lib-$tag.log
    [ "$series" = node ] || rx0=$(nodes_rx "$nodes")
    t0=$(now_us)
    (cd "$WORKDIR" && exec timeout -k 10 "$RUN_TIMEOUT" "$@") </dev/null >"$log" 2>&1
    rc=$?
    t1=$(now_us)
    [ -z "$rx0" ] || rx=$(rx_kib "$rx0" "$(nodes_rx "$nodes")")
    if [ "$rc" -eq 0 ] && stats=$(scale_stats "$np" "$log"); then
        [ "$tag" = warmup ] ||
            echo "$series $nodes $np $lib $(( (t1 - t0) / 1000 )) $stats $rx" >>"$RESULTS"
        return 0
    fi
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "$BENCH_NAME: $lib on $np PEs ($series), run $tag: killed after ${RUN_TIMEOUT}s" >&2
    else
        echo "$BENCH_NAME: $lib on $np PEs ($series), run $tag: exit status $rc, or not one good line per PE; its output:" >&2
    fi
    tail -n 20 "$log" | sed 's/^/    /' >&2
    [ "$tag" = warmup ] && return 1
    echo "$series $nodes $np $lib FAIL" >>"$RESULTS"
    FAILED=1
}

# heap_env NP: the environment that sizes the heap at NP PEs (the issue's
# SHMEM_SYMMETRIC_SIZE=32M above 64), as VAR=VALUE words.
heap_env() {
    [ "$1" -gt "$HEAP_ABOVE" ] && echo "SHMEM_SYMMETRIC_SIZE=$HEAP SMA_SYMMETRIC_SIZE=$HEAP"
}

# ompi_point SERIES NODES NP TAG CMD...: Open MPI's job of a point, or
# above its cap a SKIP line in the results (none for a warm-up).
ompi_point() {
    [ "$DO_OMPI" = 1 ] || return 0
    if [ "$OMPI_MAX" -gt 0 ] && [ "$3" -gt "$OMPI_MAX" ]; then
        [ "$4" = warmup ] || echo "$1 $2 $3 ompi SKIP" >>"$RESULTS"
    else
        run_point "$1" "$2" "$3" ompi "$4" "${@:5}"
    fi
}

# One node: each library under its own launcher.
node_point() { # node_point NP TAG
    local np=$1 tag=$2 envs
    envs=$(heap_env "$np")
    # shellcheck disable=SC2086  # envs: VAR=VALUE words
    [ "$DO_USH" = 1 ] && run_point node 1 "$np" ushmem "$tag" env $envs "$PREFIX/bin/oshrun" -n "$np" "$USH_EXE"
    # shellcheck disable=SC2086
    ompi_point node 1 "$np" "$tag" env $envs "$OMPI_OSHRUN" --allow-run-as-root --oversubscribe \
        -np "$np" "${OMPI_MCA[@]}" "$OMPI_EXE"
}

# Emulated nodes: both libraries under one launcher (ushmem's oshrun is
# one node only), PER_NODE PEs on each of the first N nodes.
netns_point() { # netns_point NODES TAG
    has_launcher mpirun && mpirun_point "$@"
    has_launcher srun && srun_point "$@"
}

# Open MPI's mpirun, starting its daemons through the rsh agent.
AGENT=$WORKDIR/rsh-agent
mpirun_point() { # mpirun_point NODES TAG
    local nodes=$1 tag=$2 np hosts="" i envs fwd=()
    np=$((nodes * PER_NODE))
    for i in $(seq 0 $((nodes - 1))); do
        hosts=$hosts${hosts:+,}$CLUSTER_SUBNET.$((10 + i)):$PER_NODE
    done
    envs=$(heap_env "$np")
    for e in $envs; do fwd+=(-x "$e"); done
    # The agent starts PEs with a clean environment, like ssh: UCX_* and
    # SHMEM_* settings of the caller reach them through -x.
    while IFS='=' read -r name _; do
        case $name in UCX_*|SHMEM_*|SMA_*) fwd+=(-x "$name") ;; esac
    done < <(env)
    local mpirun=(mpirun --allow-run-as-root -np "$np" --host "$hosts"
                  --mca plm_rsh_agent "$AGENT" --mca plm_rsh_no_tree_spawn 1
                  --mca oob_tcp_if_include "$CLUSTER_SUBNET.0/24" --mca btl_tcp_if_include "$CLUSTER_SUBNET.0/24"
                  # Every node sees the same cores: bound, PEs would pile up on the first ones.
                  --bind-to none "${fwd[@]}")
    [ "$DO_USH" = 1 ] && run_point netns "$nodes" "$np" ushmem "$tag" "${mpirun[@]}" "$USH_EXE"
    ompi_point netns "$nodes" "$np" "$tag" "${mpirun[@]}" "${OMPI_MCA[@]}" "$OMPI_EXE"
}

# srun --mpi=pmix: each node's slurmd starts its PEs, and Slurm's PMIx
# plugin serves them, with no mpirun, orted or rsh agent. srun passes the
# caller's environment on, so Open MPI's finalize workaround goes there as
# OMPI_MCA_*. Slurm runs no task plugin here (slurm-local): nothing binds.
srun_point() { # srun_point NODES TAG
    local nodes=$1 tag=$2 np envs
    np=$((nodes * PER_NODE))
    envs=$(heap_env "$np")
    # shellcheck disable=SC2206  # envs: VAR=VALUE words
    local srun=(env SLURM_CONF="$SLURM_LOCAL_STATE_DIR/etc/slurm.conf" $envs
                srun --mpi=pmix -N "$nodes" -n "$np" --ntasks-per-node="$PER_NODE")
    [ "$DO_USH" = 1 ] && run_point srun "$nodes" "$np" ushmem "$tag" "${srun[@]}" "$USH_EXE"
    ompi_point srun "$nodes" "$np" "$tag" env OMPI_MCA_spml_ucx_opal_mem_hooks=0 "${srun[@]}" "$OMPI_EXE"
}

if [ -n "$NODES" ]; then
    exec 8>"$LOCK_FILE"
    flock -n 8 || die "another startup-scale.sh holds $LOCK_FILE (its cluster is $CLUSTER_PREFIX*); wait for it to end"
    # shellcheck disable=SC2086  # NODES: a list of whole numbers, split on purpose
    max_nodes=$(printf '%s\n' $NODES | sort -n | tail -n 1)
    # Leftovers of a run killed outright (the lock says nobody owns them).
    [ -e "$SLURM_LOCAL_STATE_DIR" ] && bash "$SLURM_TOOL" down >>"$WORKDIR/cluster.log" 2>&1
    [ -e "$CLUSTER_STATE_DIR" ] && CLUSTER_ETC_HOSTS=1 bash "$CLUSTER_TOOL" down >>"$WORKDIR/cluster.log" 2>&1
    CLUSTER_UP=1
    has_launcher srun && CLUSTER_ETC_HOSTS=1
    bash "$CLUSTER_TOOL" up "$max_nodes" >>"$WORKDIR/cluster.log" 2>&1 ||
        { cat "$WORKDIR/cluster.log" >&2; die "bringing up $max_nodes emulated nodes failed"; }
    if has_launcher srun; then
        SLURM_UP=1
        SLURM_LOCAL_NETNS_NODES=$max_nodes SLURM_LOCAL_CPUS=$PER_NODE \
            bash "$SLURM_TOOL" up >>"$WORKDIR/cluster.log" 2>&1 ||
            { cat "$WORKDIR/cluster.log" >&2; die "starting Slurm in $max_nodes emulated nodes failed"; }
    fi
    cat >"$AGENT" <<EOF
#!/bin/sh
export CLUSTER_PREFIX=$CLUSTER_PREFIX CLUSTER_SUBNET=$CLUSTER_SUBNET CLUSTER_BRIDGE=$CLUSTER_BRIDGE CLUSTER_STATE_DIR=$CLUSTER_STATE_DIR CLUSTER_ETC_HOSTS=0
exec bash '$CLUSTER_TOOL' rsh "\$@"
EOF
    chmod +x "$AGENT"
fi

# shellcheck disable=SC2086  # lists of whole numbers, split on purpose
first_np=$(printf '%s\n' $NPS | head -n 1)
# shellcheck disable=SC2086
first_nodes=$(printf '%s\n' $NODES | head -n 1)
# Untimed: the first start pays for reading the libraries from disk.
echo "warm-up (untimed) ..."
[ -n "$first_np" ] && node_point "$first_np" warmup
[ -n "$first_nodes" ] && netns_point "$first_nodes" warmup
for r in $(seq 1 "$RUNS"); do
    for np in $NPS; do
        echo "run $r of $RUNS: $np PEs on one node ..."
        node_point "$np" "$r"
    done
    for nodes in $NODES; do
        echo "run $r of $RUNS: $nodes nodes x $PER_NODE PEs ..."
        netns_point "$nodes" "$r"
    done
done

# ---------------------------------------------------------------- report
summarise "$RESULTS" >"$OUT/scale.csv"
cp "$RESULTS" "$OUT/runs.txt"
{
    echo "start-up scaling of bench/scale.c (init, shmem_malloc, barrier, one get from PE"
    echo "me+npes/2, finalize), $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores;"
    echo "medians over $RUNS run(s) per point, libraries alternating."
    echo "  wall s:  the whole launcher command; ms/PE: wall / PEs;"
    echo "  MiB/PE:  peak RSS (VmHWM before shmem_finalize), mean over PEs;"
    echo "  init ms: shmem_init inside the PEs, median over PEs; init max: the slowest PE's;"
    echo "  growth:  ms/PE over the series' lowest ms/PE (1.00 at the lowest; flat: all near 1);"
    echo "  rx KiB:  bytes each emulated node received during the job (mean over nodes):"
    echo "           the launcher's and PMIx's traffic, and the program's own;"
    echo "  ratio:   ushmem ms/PE / Open MPI ms/PE (below 1: ushmem faster)."
    echo "  ushmem's wire-up data: $WIREUP ($(case $WIREUP in collect) echo "every node gets every PE's at start-up" ;;
        demand) echo "read from the peer's node on first use" ;; *) echo "the library's default, SHMEM_WIREUP_COLLECT" ;; esac))."
    echo "  heap: SHMEM_SYMMETRIC_SIZE=SMA_SYMMETRIC_SIZE=$HEAP above $HEAP_ABOVE PEs;" \
         "Open MPI capped at $([ "$OMPI_MAX" -gt 0 ] && echo "$OMPI_MAX PEs" || echo "no PE count")."
    [ -n "$NODES" ] && echo "  netns, srun: $PER_NODE PEs on each emulated node, both libraries under Open MPI's" \
                            "mpirun (netns) or srun --mpi=pmix (srun)."
    echo
    table "$OUT/scale.csv"
} >"$OUT/scale.txt"
cat "$OUT/scale.txt"

if command -v gnuplot >/dev/null; then
    # Its warnings (a curve of one point, a series not run) are noise here.
    gnuplot -e "infile='$OUT/scale.csv'; outfile='$OUT/scale.png'" "$SCRIPT_DIR/scale.gp" \
            2>"$WORKDIR/gnuplot.log" ||
        { cat "$WORKDIR/gnuplot.log" >&2; echo "$BENCH_NAME: gnuplot failed; no plot" >&2; }
else
    echo "$BENCH_NAME: no gnuplot (apt-get install gnuplot-nox): no plot" >&2
fi
echo
echo "results: $OUT/scale.txt, scale.csv, scale.png, runs.txt; every run's output in $OUT/raw/"
if [ "$FAILED" != 0 ]; then
    echo "$BENCH_NAME: some runs failed (see above); medians are over the correct runs only" >&2
    exit 1
fi
exit 0
