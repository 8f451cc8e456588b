# Shared by check_man.sh and check_man3.sh (sourced, POSIX sh).

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# need_groff: exit 77 (skipped) without groff; `make check` installs it.
need_groff() {
    if ! command -v groff >/dev/null 2>&1; then
        echo "SKIP: no groff (apt-get install groff-base)"
        exit 77
    fi
}

# install_into BUILD WORK CMAKE: `cmake --install` BUILD into a new
# WORK/prefix, set as $prefix; stops the test if that fails.
install_into() {
    rm -rf "$2"
    mkdir -p "$2"
    prefix=$2/prefix
    "$3" --install "$1" --prefix "$prefix" >"$2/install.log" 2>&1 ||
        { cat "$2/install.log"; echo "FAIL: cmake --install"; exit 1; }
}
