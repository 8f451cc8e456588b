# tests.built (cmake/UshmemBuildTests.cmake): every file of LIST, one a
# line (the programs and libraries of the tree), exists; otherwise names
# the missing ones and fails.
#   cmake -DLIST=<build>/build-tests.files -P check_built.cmake
cmake_minimum_required(VERSION 3.20)
file(STRINGS ${LIST} files)
set(missing)
foreach(f IN LISTS files)
    if(NOT EXISTS "${f}")
        list(APPEND missing "${f}")
    endif()
endforeach()
list(LENGTH files n)
if(missing)
    list(LENGTH missing m)
    list(JOIN missing "\n  " shown)
    message(FATAL_ERROR "${m} of ${n} programs and libraries are not built (the tests are "
                        "not part of `all`: run `make build-tests`, or "
                        "`cmake --build <build> --target build-tests`, before ctest):\n  ${shown}")
endif()
message("all ${n} programs and libraries are built")
