#!/bin/sh
# fuzz.short: build the libFuzzer targets with clang into BINARY_DIR (a
# configure of its own) and run each for a bounded count.
#   run_fuzz.sh SOURCE_DIR BINARY_DIR CC CMAKE GENERATOR
# FUZZ_RUNS and FUZZ_TIME in the environment (executions and seconds per
# target; default 20000 and 20) make longer runs: see docs/fuzzing.md.
# Exit 77 (ctest: skipped) when CC or its libFuzzer runtime is missing.
set -u
src=$1 bin=$2 cc=$3 cmake=$4 gen=$5
runs=${FUZZ_RUNS:-20000}
time=${FUZZ_TIME:-20}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz.short: SKIP: no $cc to build the libFuzzer targets (Debian: apt-get install clang)"
    exit 77
fi
mkdir -p "$bin" || exit 1
probe=$bin/probe
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' > "$probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>"$probe.log"; then
    cat "$probe.log"
    echo "fuzz.short: SKIP: $cc cannot link -fsanitize=fuzzer (Debian 12: apt-get install libclang-rt-14-dev)"
    exit 77
fi
rm -f "$probe" "$probe.c" "$probe.log"

exec "$cmake" -DNAME=fuzz -DSOURCE_DIR="$src" -DBINARY_DIR="$bin" -DGENERATOR="$gen" \
    -DC_COMPILER="$cc" \
    "-DDEFINES=USHMEM_FUZZ=ON|USHMEM_FUZZ_RUNS=$runs|USHMEM_FUZZ_TIME=$time" \
    -DTARGETS=fuzz_env,fuzz_oshrun_args '-DTESTS=^fuzz\.' \
    -P "$src/test/sanitize/run_sanitized.cmake"
