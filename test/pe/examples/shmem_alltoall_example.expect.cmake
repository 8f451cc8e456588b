# Only errors are printed.
set(expect_lines "")
