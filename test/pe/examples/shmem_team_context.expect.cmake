# 15 PEs: 2s = {0,2,...,12} (7), 3s = {0,3,...,12} (5); the PEs in both
# (0, 6, 12) add ival2 + ival3 = 6+4, 2+1, 5+3 onto world PE 12.
if(NP GREATER_EQUAL 15)
    if(NOT NP EQUAL 15)
        message(FATAL_ERROR "expected total only worked out for 15 PEs")
    endif()
    set(expect_lines "The total value on PE 4 of the 3s team is 21")
else()
    set(expect_lines "")
endif()
