set(expect_lines "dest on PE 1 is 1 3 5 7 9")
