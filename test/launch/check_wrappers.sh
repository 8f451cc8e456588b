#!/bin/sh
# oshcc / oshc++: flags, --showme variants, compile-only, compiler override,
# argument quoting, and an install tree that works from any prefix (checked
# with a stand-in libushmem, so this does not depend on the real library).
# Usage: check_wrappers.sh BUILD_OSHCC INSTALL_OSHCC INSTALL_OSHCXX \
#                          SOURCE_DIR INCLUDEDIR LIBDIR
OSHRUN=unused
. "$(dirname "$0")/lib.sh"
build_oshcc=$1 inst_oshcc=$2 inst_oshcxx=$3 srcdir=$4 increl=$5 librel=$6

# --- build-tree wrapper ---------------------------------------------------
show=$("$build_oshcc" --showme prog.c -o prog)
case $show in
    "cc -I$srcdir/include "*" prog.c -o prog -L"*" -Wl,-rpath,"*" -lushmem") ;;
    *) fail "oshcc --showme gave: $show" ;;
esac
show=$("$build_oshcc" --showme -c prog.c)
case $show in
    *-lushmem*|*-L*) fail "oshcc --showme -c adds link flags: $show" ;;
esac
for flag in -E -S -M -MM; do
    case $("$build_oshcc" --showme $flag prog.c) in
        *-lushmem*) fail "oshcc $flag adds link flags" ;;
    esac
done
case $("$build_oshcc" --showme:compile) in
    "-I$srcdir/include"*) ;;
    *) fail "oshcc --showme:compile gave: $("$build_oshcc" --showme:compile)" ;;
esac
case $("$build_oshcc" --showme:link) in
    "-L"*" -Wl,-rpath,"*" -lushmem") ;;
    *) fail "oshcc --showme:link gave: $("$build_oshcc" --showme:link)" ;;
esac
"$build_oshcc" --showme:bogus >/dev/null 2>&1 && fail "oshcc accepted --showme:bogus"

# the compiler override, and arguments with spaces kept whole
fake=$scratch/fake-cc
printf '#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done\n' >"$fake"
chmod +x "$fake"
USHMEM_CC=$fake "$build_oshcc" -DMSG="a b" -c prog.c >"$out"
expect_grep "$out" "^\[-DMSG=a b\]$"
expect_grep "$out" "^\[-c\]$"
expect_no_grep "$out" "lushmem"
USHMEM_CC=$fake "$build_oshcc" prog.o -o prog >"$out"
expect_grep "$out" "^\[-lushmem\]$"

# --- install tree, relocated, reached through a symlink ---------------------
prefix=$scratch/some/prefix
mkdir -p "$prefix/bin" "$prefix/$increl" "$prefix/$librel" "$scratch/elsewhere"
cp "$inst_oshcc" "$inst_oshcxx" "$prefix/bin/"
ln -s "$prefix/bin/oshcc" "$scratch/elsewhere/oshcc"
ln -s "$prefix/bin/oshc++" "$scratch/elsewhere/oshc++"

cat >"$prefix/$increl/shmem.h" <<'EOH'
#ifdef __cplusplus
extern "C" {
#endif
int ush_wrapper_test_answer(void);
#ifdef __cplusplus
}
#endif
EOH
printf 'int ush_wrapper_test_answer(void) { return 42; }\n' >"$scratch/stub.c"
cc -shared -fPIC -o "$prefix/$librel/libushmem.so" "$scratch/stub.c" || fail "cannot build the stand-in library"
printf '#include <shmem.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", ush_wrapper_test_answer()); return 0; }\n' >"$scratch/prog.c"

real_prefix=$(cd "$prefix" && pwd -P)
case $("$scratch/elsewhere/oshcc" --showme:compile) in
    "-I$real_prefix/$increl") ;;
    *) fail "relocated oshcc --showme:compile gave: $("$scratch/elsewhere/oshcc" --showme:compile)" ;;
esac
"$scratch/elsewhere/oshcc" -o "$scratch/prog" "$scratch/prog.c" || fail "relocated oshcc cannot build a program"
# no LD_LIBRARY_PATH: the rpath must find the library
[ "$(env -u LD_LIBRARY_PATH "$scratch/prog")" = 42 ] || fail "program built by relocated oshcc does not run"

# separate compile and link steps
(cd "$scratch" && "$scratch/elsewhere/oshcc" -c prog.c -o prog2.o && "$scratch/elsewhere/oshcc" prog2.o -o prog2) ||
    fail "relocated oshcc: separate compile and link failed"
[ "$("$scratch/prog2")" = 42 ] || fail "program linked in a separate step does not run"

if command -v "${USHMEM_CXX:-c++}" >/dev/null 2>&1; then
    printf '#include <shmem.h>\n#include <cstdio>\nint main() { std::printf("%%d\\n", ush_wrapper_test_answer()); }\n' >"$scratch/prog.cpp"
    "$scratch/elsewhere/oshc++" -o "$scratch/progxx" "$scratch/prog.cpp" || fail "relocated oshc++ cannot build a program"
    [ "$("$scratch/progxx")" = 42 ] || fail "program built by oshc++ does not run"
    case $("$scratch/elsewhere/oshc++" --showme) in
        "${USHMEM_CXX:-c++} "*) ;;
        *) fail "oshc++ --showme does not use the C++ compiler" ;;
    esac
fi
echo "PASS [$test_name]"
