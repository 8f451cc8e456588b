# Exactly one winner, any PE: 0 .. NP-1 (NP < 11 here).
math(EXPR last "${NP} - 1")
set(expect_regex "pe [0-${last}] was first")
