set(expect_lines "OK")
