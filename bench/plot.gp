# plot.gp: latency against size, log-log, for the headline benchmarks of
# the suite, both libraries, heap and static targets. suite.sh runs it:
#   gnuplot -e "infile='medians.csv'; np=2; outfile='latency.png'" plot.gp
# infile is suite.sh's medians.csv:
#   bench,target,npes,bytes,ushmem_usec,ompi_usec,ratio,ushmem_runs,ompi_runs
set datafile separator ","
set datafile missing ""
set terminal pngcairo size 1500,950 font ",10"
set output outfile
set logscale xy
set format x "%.0s%cB"
set xlabel "bytes"
set ylabel "usec per operation (median)"
set grid
set key top left
set multiplot layout 2,3 title sprintf("shbench on %d PEs: ushmem and Open MPI OSHMEM (lower is better)", np)

# The column col of rows of benchmark b on target t at np PEs; NaN elsewhere,
# so each curve only takes its own rows.
pick(b, t, col) = (strcol(1) eq b && strcol(2) eq t && $3 == np) ? column(col) : NaN

do for [b in "put get pingpong bcast reduce put_nbi"] {
    set title b noenhanced
    plot infile using 4:(pick(b, "heap", 5))   with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "ushmem heap", \
         infile using 4:(pick(b, "static", 5)) with linespoints lw 2 pt 5 lc rgb "#2ca02c" title "ushmem static", \
         infile using 4:(pick(b, "heap", 6))   with linespoints lw 2 pt 6 dt 2 lc rgb "#d62728" title "Open MPI heap", \
         infile using 4:(pick(b, "static", 6)) with linespoints lw 2 pt 4 dt 2 lc rgb "#ff7f0e" title "Open MPI static"
}
unset multiplot
