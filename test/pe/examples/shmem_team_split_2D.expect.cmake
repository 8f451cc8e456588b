# PE p sits at x = p % 3, y = (p / 3) % 4, z = p / 12 (the spec lists
# this for 16 PEs).
set(expect_lines "")
math(EXPR top "${NP} - 1")
foreach(p RANGE ${top})
    math(EXPR x "${p} % 3")
    math(EXPR y "(${p} / 3) % 4")
    math(EXPR z "${p} / 12")
    list(APPEND expect_lines "(${x}, ${y}, ${z}) is me = ${p}")
endforeach()
