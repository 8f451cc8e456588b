set(expect_lines "x: { 1, 2, 3 }" "y: 90")
