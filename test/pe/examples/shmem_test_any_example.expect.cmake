set(expect_lines "")
math(EXPR top "${NP} - 1")

foreach(p RANGE ${top})
    string(REPLACE "@P@" "${p}" line "PE @P@: completed ${NP}, flags set ${NP}, masked ${NP}")
    list(APPEND expect_lines "${line}")
endforeach()
