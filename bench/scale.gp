# scale.gp: startup-scale.sh's figures against PE count, both libraries, one
# node (solid) and emulated nodes (dashed: mpirun; dotted: srun). startup-scale.sh runs it:
#   gnuplot -e "infile='scale.csv'; outfile='scale.png'" scale.gp
# infile is startup-scale.sh's scale.csv:
#   series,nodes,npes,lib,runs_ok,runs,wall_ms,per_pe_ms,rss_mib_per_pe,rss_mib_max,init_ms_median,init_ms_max
set datafile separator ","
set terminal pngcairo size 1500,560 font ",10"
set output outfile
set logscale x 2
set xlabel "PEs"
set grid
set key below horizontal maxcols 3
set multiplot layout 1,3 title "start-up scaling of bench/scale.c: ushmem and Open MPI OSHMEM (lower is better)"

# The rows of one curve, series s and library l, in their own stream, so
# the points of a curve are joined (skipped points leave no row).
rows(s, l) = sprintf("< awk -F, '$1 == \"%s\" && $4 == \"%s\" && $7 != \"\"' '%s'", s, l, infile)

do for [c in "8 9 11"] {
    col = c + 0
    set title (col == 8 ? "wall time per PE (ms)" : col == 9 ? "peak RSS per PE (MiB)" : "shmem_init inside a PE (ms, median over PEs)") noenhanced
    # Times on a log scale (they span two decades), memory from zero.
    if (col == 9) { unset logscale y; set yrange [0:*] } else { set logscale y; set yrange [*:*] }
    plot rows("node", "ushmem")  using 3:col with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "ushmem, one node", \
         rows("netns", "ushmem") using 3:col with linespoints lw 2 pt 5 dt 2 lc rgb "#2ca02c" title "ushmem, netns nodes (mpirun)", \
         rows("node", "ompi")    using 3:col with linespoints lw 2 pt 6 lc rgb "#d62728" title "Open MPI, one node", \
         rows("netns", "ompi")   using 3:col with linespoints lw 2 pt 4 dt 2 lc rgb "#ff7f0e" title "Open MPI, netns nodes (mpirun)", \
         rows("srun", "ushmem")  using 3:col with linespoints lw 2 pt 9 dt 3 lc rgb "#17becf" title "ushmem, netns nodes (srun)", \
         rows("srun", "ompi")    using 3:col with linespoints lw 2 pt 8 dt 3 lc rgb "#9467bd" title "Open MPI, netns nodes (srun)"
}
unset multiplot
