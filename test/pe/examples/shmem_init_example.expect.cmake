math(EXPR receiver "1 % ${NP}")
set(expect_lines "PE ${receiver} targ=33 (expect 33)")
