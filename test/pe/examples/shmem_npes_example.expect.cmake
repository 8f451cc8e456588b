set(expect_lines "Number of PEs executing this program is: ${NP}")
