set(expect_lines "PE 1 dest: 1, 2, 3, 4")
