# Any PE but 0 may be first: 1 .. NP-1.
math(EXPR last "${NP} - 1")
if(last LESS 10)
    set(expect_regex "PE 0 observed first update from PE [1-${last}]")
else()
    set(expect_regex "PE 0 observed first update from PE [1-9][0-9]*")
endif()
