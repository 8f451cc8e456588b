# The draws are glibc's rand() seeded with 0 .. NP-1 (srand(0) is srand(1));
# these values were computed by replaying those sequences outside SHMEM.
# The last line keeps the example's trailing space.
if(NP EQUAL 1)
    set(total 32)
    set(idx "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 ")
elseif(NP EQUAL 2)
    set(total 34)
    set(idx "0 2 3 4 5 8 9 11 13 14 20 22 23 27 28 29 30 ")
elseif(NP EQUAL 4)
    set(total 36)
    set(idx "0 1 3 5 9 11 13 14 17 18 19 20 22 23 24 25 27 28 29 ")
else()
    message(FATAL_ERROR "shmem_reduce_example: no expectation for ${NP} PEs")
endif()
set(expect_lines
    "Found ${total} maximal random numbers across all PEs."
    "A maximal number occured (at least once) at the following indices:"
    "${idx}")
