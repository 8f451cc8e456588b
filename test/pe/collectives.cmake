# Collective and team tests (test/pe/coll_*.c, team_*.c), included from
# test/pe/CMakeLists.txt after UshPeTest.cmake.
#
# Every collective test runs once per algorithm that serves it, forced
# through SHMEM_<KIND>_ALGORITHM, at 1, 2, 3, 4, 5 and 8 PEs:
#
#   pe.coll_bcast.tree.np4     coll_bcast.c with SHMEM_BCAST_ALGORITHM=tree
#
#   ctest --test-dir build -R '^pe\.coll_'          # all collective tests
#   ctest --test-dir build -R '^pe\.coll_bcast\.'   # one program, every algorithm
#   ctest --test-dir build -L coll                  # collectives and teams
#
# The algorithm names are read from the selection table in
# collectives/select.c, so a new algorithm is tested as soon as it is in the
# table; the lists below are used only when that file cannot be read.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/UshPeTest.cmake)

set(USH_COLL_FALLBACK_BARRIER  dissemination)
set(USH_COLL_FALLBACK_BCAST    tree chain linear)
set(USH_COLL_FALLBACK_COLLECT  linear ring)
set(USH_COLL_FALLBACK_FCOLLECT rd ring linear)
set(USH_COLL_FALLBACK_ALLTOALL pairwise linear)
set(USH_COLL_FALLBACK_REDUCE   rd ring linear)

set(USH_COLL_NPES 1 2 3 4 5 8)

# ush_coll_algorithms(<KIND> <out-var>): the names of SHMEM_<KIND>_ALGORITHM
# from the table's line  [USH_COLL_<KIND>] = { "SHMEM_<KIND>_ALGORITHM", { "a", "b" } },
set(_ush_coll_select ${PROJECT_SOURCE_DIR}/collectives/select.c)
if(EXISTS ${_ush_coll_select})
    file(READ ${_ush_coll_select} _ush_coll_select_text)
    # select.c is an input: a change to its table re-runs CMake.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ush_coll_select})
endif()
function(ush_coll_algorithms kind out)
    # called from another folder (test/cluster): read the table there too
    if(NOT DEFINED _ush_coll_select_text AND EXISTS ${PROJECT_SOURCE_DIR}/collectives/select.c)
        file(READ ${PROJECT_SOURCE_DIR}/collectives/select.c _ush_coll_select_text)
    endif()
    set(names "")
    if(_ush_coll_select_text MATCHES
       "\\[USH_COLL_${kind}\\][ \t]*=[ \t]*{[ \t]*\"SHMEM_${kind}_ALGORITHM\"[ \t]*,[ \t]*{([^}]*)}")
        string(REGEX MATCHALL "\"[a-z0-9_]+\"" quoted "${CMAKE_MATCH_1}")
        foreach(q IN LISTS quoted)
            string(REPLACE "\"" "" n "${q}")
            list(APPEND names ${n})
        endforeach()
    endif()
    if(NOT names)
        set(names ${USH_COLL_FALLBACK_${kind}})
    endif()
    set(${out} ${names} PARENT_SCOPE)
endfunction()

# ush_coll_forcings(<out> <KIND>...): in <out> the algorithm names of the
# KINDs (their union), and in <out>_<name> the variables that force that
# name: SHMEM_<KIND>_ALGORITHM=<name> for each KIND that has it, =auto for
# the others. Also used by test/cluster.
function(ush_coll_forcings out)
    set(all "")
    foreach(kind IN LISTS ARGN)
        ush_coll_algorithms(${kind} names_${kind})
        list(APPEND all ${names_${kind}})
    endforeach()
    list(REMOVE_DUPLICATES all)
    foreach(algo IN LISTS all)
        set(env "")
        foreach(kind IN LISTS ARGN)
            if(algo IN_LIST names_${kind})
                list(APPEND env SHMEM_${kind}_ALGORITHM=${algo})
            else()
                list(APPEND env SHMEM_${kind}_ALGORITHM=auto)
            endif()
        endforeach()
        set(${out}_${algo} ${env} PARENT_SCOPE)
    endforeach()
    set(${out} ${all} PARENT_SCOPE)
endfunction()

# One program, built once (the harness's settings), run by ush_add_pe_test().
function(ush_coll_program name)
    set(tgt pe_${name})
    add_executable(${tgt} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${name}.c)
    target_link_libraries(${tgt} PRIVATE ${USH_PE_SHMEM_TARGET})
    target_include_directories(${tgt} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
    target_compile_definitions(${tgt} PRIVATE PE_TEST_REQUIRE_SPEC=${USH_PE_REQUIRE_SPEC})
    if(NOT CMAKE_C_STANDARD)
        set_target_properties(${tgt} PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
    endif()
endfunction()

# ush_coll_test(<program> KINDS <KIND>... [NPES ...] [TIMEOUT s])
# Registers pe.<program>.<algorithm>.np<N> for every algorithm of every
# KIND (union of their names): a name forces each KIND that has it; a KIND
# without that name stays on its own choice ("auto").
function(ush_coll_test name)
    cmake_parse_arguments(PARSE_ARGV 1 A "" "TIMEOUT" "KINDS;NPES")
    if(NOT A_NPES)
        set(A_NPES ${USH_COLL_NPES})
    endif()
    if(NOT A_TIMEOUT)
        set(A_TIMEOUT 60) # the slowest passes in ~3 s; a hang ends sooner
    endif()
    ush_coll_forcings(algos ${A_KINDS})
    foreach(algo IN LISTS algos)
        ush_add_pe_test(NAME ${name}.${algo} TARGET pe_${name} NPES ${A_NPES}
                        TIMEOUT ${A_TIMEOUT} ENV ${algos_${algo}} LABELS coll coll_${algo})
    endforeach()
endfunction()

foreach(p coll_barrier coll_bcast coll_collect coll_alltoall coll_reduce coll_b2b coll_burst
          coll_seeds coll_psync team_split)
    ush_coll_program(${p})
endforeach()

# team_ctx.c needs shmem_team_create_ctx and shmem_ctx_get_team; it is built
# once api/ defines them, so the rest of the tree builds meanwhile.
file(GLOB _ush_coll_src_files ${PROJECT_SOURCE_DIR}/api/*.c)
set(_ush_coll_have_team_ctx FALSE)
foreach(f IN LISTS _ush_coll_src_files)
    file(STRINGS ${f} hit REGEX "USH_API\\([^,]*, *shmem_team_create_ctx\\)")
    if(hit)
        set(_ush_coll_have_team_ctx TRUE)
    endif()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ush_coll_src_files})

# Barriers: active-set shmem_barrier/shmem_sync, barrier_all, sync_all,
# team_sync.
# 12 and 16 PEs: a central barrier's arrivals counted in one word.
ush_coll_test(coll_barrier  KINDS BARRIER NPES 1 2 3 4 5 8 12 16)
# 12 and 16 PEs: mailboxes beyond 8 members, and a team's tree where its
# layout has none for the size.
ush_coll_test(coll_bcast    KINDS BCAST NPES 1 2 3 4 5 8 12 16)
ush_coll_test(coll_collect  KINDS COLLECT FCOLLECT)
ush_coll_test(coll_alltoall KINDS ALLTOALL)
ush_coll_test(coll_reduce   KINDS REDUCE)
# Multi-threaded PEs make active-set reductions work in pWrk itself (in
# chunks) instead of the library's scratch: the same checks, that path.
foreach(algo rd ring linear)
    ush_add_pe_test(NAME coll_reduce_mt.${algo} TARGET pe_coll_reduce NPES 3 4 TIMEOUT 60
                    ENV SHMEM_REDUCE_ALGORITHM=${algo} PE_TEST_THREAD=multiple
                    LABELS coll coll_${algo})
endforeach()
# pWrk shorter than the spec asks (as published examples declare it), at
# the end of the heap: the library's scratch serves, or at
# SHMEM_THREAD_MULTIPLE what there is of pWrk, in smaller chunks.
ush_add_pe_test(NAME pwrk_short SOURCES pwrk_short.c NPES 1 2 4 TIMEOUT 60
                ENV SHMEM_SYMMETRIC_SIZE=4M LABELS coll)
foreach(algo rd ring linear)
    ush_add_pe_test(NAME pwrk_short_mt.${algo} TARGET pe_pwrk_short NPES 2 3 4 TIMEOUT 60
                    ENV SHMEM_SYMMETRIC_SIZE=4M SHMEM_REDUCE_ALGORITHM=${algo}
                        PE_TEST_THREAD=multiple SHMEM_DEBUG=1
                    LABELS coll coll_${algo})
endforeach()
# Mixed back-to-back sequences with late PEs: every algorithm of any kind.
ush_coll_test(coll_b2b      KINDS BCAST COLLECT FCOLLECT ALLTOALL REDUCE)
# Long bursts of broadcasts, reductions, alltoalls and fcollects from
# changing roots, with no barrier: the paths where a member runs ahead.
ush_coll_test(coll_burst    KINDS BCAST REDUCE ALLTOALL FCOLLECT NPES 2 3 4 8 16)

# The seeds' examples, as written (the broadcast64 page's second case and
# the shmem_max page's second example need 8 PEs),
# under every broadcast, alltoall and reduction algorithm.
ush_coll_test(coll_seeds    KINDS BCAST ALLTOALL REDUCE NPES 1 2 4 5 8)
# pSync as programs size and share it: one array of any documented size for
# every kind, more (pSync, set) pairs than channels, PEs outside the set.
ush_coll_test(coll_psync    KINDS BCAST COLLECT FCOLLECT ALLTOALL REDUCE NPES 1 2 3 4 8)
# The same through UCX instead of the mapping: with UCX_TLS=tcp,self no
# peer's heap is mapped, so the channels (which live there), their
# agreements, slots and mailboxes, and the pipelined recursive doubling go
# through UCX atomics and puts; forced direct falls back to rd.
ush_add_pe_test(NAME coll_psync_ucx TARGET pe_coll_psync NPES 2 4 TIMEOUT 60
                ENV UCX_TLS=tcp,self LABELS coll)
foreach(algo rd direct)
    ush_add_pe_test(NAME coll_reduce_ucx.${algo} TARGET pe_coll_reduce NPES 2 4 TIMEOUT 60
                    ENV UCX_TLS=tcp,self SHMEM_REDUCE_ALGORITHM=${algo} LABELS coll)
endforeach()
# collect's slots (lengths in the tags, small blocks inline, large ones
# put after the exchange) through UCX too; 4 PEs mix inline and put blocks.
ush_add_pe_test(NAME coll_collect_ucx TARGET pe_coll_collect NPES 2 4 TIMEOUT 60
                ENV UCX_TLS=tcp,self SHMEM_COLLECT_ALGORITHM=linear LABELS coll)
# Team management, and contexts created from teams.
ush_add_pe_test(NAME team_split TARGET pe_team_split NPES 1 2 3 4 5 8 LABELS coll)
if(_ush_coll_have_team_ctx)
    ush_coll_program(team_ctx)
    ush_add_pe_test(NAME team_ctx TARGET pe_team_ctx NPES 1 2 3 4 LABELS coll)
else()
    message(STATUS "team_ctx test skipped: api/ does not define shmem_team_create_ctx yet")
endif()
