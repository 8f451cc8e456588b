# Point-to-point set semantics, and the OpenSHMEM 1.6 specification's own
# example programs (test/pe/examples/, see examples/examples.cmake there).
ush_add_pe_test(NAME p2p_sets SOURCES p2p_sets.c TIMEOUT 120)
ush_add_pe_test(NAME p2p_sets_ucx TARGET pe_p2p_sets NPES 2 4 ENV SHMEM_SHARE_STATIC=0)
ush_add_pe_test(NAME legacy_cache SOURCES legacy_cache.c)
include(${CMAKE_CURRENT_LIST_DIR}/examples/examples.cmake)
