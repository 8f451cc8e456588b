# One line per PE, and the counts are exactly 0 .. NP-1.
set(expect_regex "")
math(EXPR top "${NP} - 1")
foreach(k RANGE ${top})
    list(APPEND expect_regex "[0-9]+: count is ${k}")
endforeach()
