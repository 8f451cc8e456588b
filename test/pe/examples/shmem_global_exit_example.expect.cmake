# shmem_global_exit(EXIT_FAILURE): the launcher reports that status.
set(expect_rc 1)
set(expect_lines "")
