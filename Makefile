# Two entry points for a fresh Debian 12 machine (as root, or with sudo):
#   make demo    set up, build, and run a small program on 4 PEs
#   make check   set up, build, and run every test
# `make` and `make install` build only what is installed (the library,
# launcher, wrappers, headers, Fortran files, man pages); the test and
# benchmark programs are built by `make build-tests`, which check runs.
# Each target installs only the Debian packages it needs that are missing:
# `make install` (into PREFIX) only those of the build, so it also works
# without root where they are there already. Other distributions: the
# plain CMake commands in README.md.

BUILD   ?= build
PREFIX  ?= $(abspath $(BUILD))/install
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# The Debian 12 packages each target needs; this is the one list of them.
# Each target adds its own to PACKAGES (target-specific variables reach the
# prerequisites, so `deps` sees them), and `deps` installs what is missing.
# The library, oshrun, oshcc, oshinfo and the man pages (all, install, demo):
PKG_BUILD = cmake make gcc pkg-config libucx-dev libpmix-dev libhwloc-dev
# The tests (check, check-tsan, check-asan): Criterion for the unit tests,
# g++ for the C++ header and oshc++ tests, groff to render the man pages and
# man-db for `man`, which finds them by name (every routine's page),
# gfortran for the Fortran interface's module and tests (the library builds
# without it: CMake then leaves the module and those tests out).
PKG_TEST  = libcriterion-dev g++ groff-base man-db gfortran
# The launcher and multi-node tests run the real mpirun and srun (Open MPI
# and Slurm are PMIx servers), on network namespaces made with iproute2.
PKG_TEST += openmpi-bin slurmd slurmctld slurm-client munge slurm-wlm-basic-plugins iproute2
# MPI + OpenSHMEM in one program (test/cluster/mpi_interop.c): Open MPI's
# headers and mpicc.
PKG_TEST += libopenmpi-dev
# The job profile's plots (test/profile/): gnuplot without X.
PKG_TEST += gnuplot-nox
# The modulefile test (test/modules/) loads the installed modulefile with
# Lmod and with environment-modules, whose Debian packages conflict: lmod
# is installed, environment-modules' .deb unpacked into the build tree by
# the test's set-up (scripts/envmodules-unpack.sh) and run with tclsh8.6;
# man-db, above, serves its `man -w` in the loaded environment. (lmod's package also
# gives login shells its `module` command, /etc/profile.d/lmod.sh.)
PKG_TEST += lmod tcl8.6
# clang and its libFuzzer runtime (a Recommends of clang, so named here for
# --no-install-recommends): the fuzz targets, test/fuzz/ (fuzz.short in check).
PKG_FUZZ  = clang libclang-rt-14-dev
# The cross builds (test/cross/): Debian's cross compilers and their C
# libraries; the target's UCX, PMIx, hwloc and Criterion are unpacked, not
# installed, by scripts/cross-sysroot.sh (it says why) into $(BUILD)/cross.
PKG_CROSS = gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
            gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
# The aarch64 and ppc64le builds' tests run here under QEMU user-mode
# emulation (test/emu/): its static user-mode emulators, and
# update-binfmts to register those two with the kernel (scripts/binfmt.sh).
PKG_CROSS += qemu-user-static binfmt-support
# make bench: Debian's Open MPI OSHMEM to compare with (its oshcc needs the
# headers), gnuplot without X for the latency-against-size PNG, and
# ucx_perftest, the baseline of the cross-node latency bench.
PKG_BENCH = openmpi-bin libopenmpi-dev gnuplot-nox ucx-utils
# make bench-scale: the emulated nodes of its multi-node series, and the
# private Slurm of its srun series.
PKG_BENCH_SCALE = $(PKG_BENCH) iproute2 slurmd slurmctld slurm-client munge slurm-wlm-basic-plugins

PACKAGES = $(PKG_BUILD)
# DEPS=no: check and install nothing (a machine set up some other way).
DEPS ?= yes
# Whether CMake defines the tests: auto does when Criterion is there; the
# test targets say ON, so a missing Criterion is an error there. Defined,
# they are still built only by build-tests, never by build or install.
TESTS ?=

.PHONY: all deps deps-bench-scale configure build build-tests install demo check cross-sysroots emu-binfmt check-tsan check-asan fuzz bench bench-scale clean

all: build

deps:
ifneq ($(DEPS),no)
	@sh scripts/deps.sh $(sort $(PACKAGES))
endif

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX)$(if $(TESTS), -DUSHMEM_BUILD_TESTS=$(TESTS))

build: configure
	cmake --build $(BUILD) -j$(JOBS)

install: build
	cmake --install $(BUILD)

# The test and benchmark programs, with everything else: CMake's build-tests
# target (cmake/UshmemBuildTests.cmake) depends on every target of the tree.
BUILD_TESTS = cmake --build $(BUILD) -j$(JOBS) --target build-tests
build-tests: PACKAGES += $(PKG_TEST)
build-tests: TESTS = ON
build-tests: build
	$(BUILD_TESTS)

# The demo goes the way a user does: the installed oshcc and oshrun.
demo: install
	$(PREFIX)/bin/oshcc docs/examples/ring.c -o $(BUILD)/ring
	$(PREFIX)/bin/oshrun -n 4 $(BUILD)/ring

check: PACKAGES += $(PKG_TEST) $(PKG_FUZZ) $(PKG_CROSS)
check: TESTS = ON
check: install cross-sysroots emu-binfmt
	$(BUILD_TESTS)
	cd $(BUILD) && ctest --output-on-failure --timeout 300 -j$(JOBS)

# The arm64 and ppc64el overlays of the cross builds; where they cannot be
# made (not root on a machine without those architectures' package lists)
# the cross tests say so and are skipped.
cross-sysroots: deps
ifneq ($(DEPS),no)
	@for a in arm64 ppc64el; do \
	    sh scripts/cross-sysroot.sh $$a $(abspath $(BUILD))/cross/$$a || \
	        echo "ushmem: no $$a overlay: the $$a cross build will be skipped"; \
	done
endif

# aarch64 and ppc64le executables run through qemu-<arch> (binfmt_misc);
# where the kernel or the container refuses an entry, that architecture's
# emu tests are skipped.
emu-binfmt: deps
ifneq ($(DEPS),no)
	@for a in aarch64 ppc64le; do \
	    sh scripts/binfmt.sh $$a || \
	        echo "ushmem: no qemu-$$a in binfmt_misc: the emulated $$a tests will be skipped"; \
	done
endif

# Only the ThreadSanitizer run of the threaded tests (test/sanitize/):
# builds $(BUILD)/tsan with -fsanitize=thread and runs them there.
check-tsan: PACKAGES += $(PKG_TEST)
check-tsan: TESTS = ON
check-tsan: configure
	cd $(BUILD) && ctest --output-on-failure -L tsan

# Only the AddressSanitizer+UBSan run (test/sanitize/): builds $(BUILD)/asan
# and runs the unit tests and a multi-PE subset there.
check-asan: PACKAGES += $(PKG_TEST)
check-asan: TESTS = ON
check-asan: configure
	cd $(BUILD) && ctest --output-on-failure -L asan

# The libFuzzer targets (test/fuzz/, docs/fuzzing.md), built with clang in
# $(BUILD)/fuzz; each runs FUZZ_TIME seconds (or FUZZ_RUNS executions).
FUZZ_TIME ?= 600
FUZZ_RUNS ?= -1
# (Not through ctest: fuzz.short's TIMEOUT is sized for the short run.)
fuzz: PACKAGES += $(PKG_FUZZ)
fuzz: deps
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_RUNS=$(FUZZ_RUNS) sh test/fuzz/run_fuzz.sh \
	    $(CURDIR) $(abspath $(BUILD))/fuzz clang cmake ""

# The start-up bench and the microbenchmark suite, both against Debian's
# Open MPI OSHMEM (bench/README.md); results in $(BUILD)/bench-results.
# Its Open MPI side is built with Debian's oshcc, which needs the headers.
bench: PACKAGES += $(PKG_BENCH)
bench: install
	$(MAKE) -C bench PREFIX=$(PREFIX) OUT=$(abspath $(BUILD))/bench-results

# Start-up scaling, 4 to 256 PEs and 2 to 8 emulated nodes, against Open MPI
# (bench/README.md); about 15 minutes. Not part of bench: it
# needs root for the nodes. bench/Makefile's scale target calls
# deps-bench-scale itself, so `make -C bench scale` installs them too.
bench-scale: PACKAGES += $(PKG_BENCH_SCALE)
bench-scale: install
	$(MAKE) -C bench scale PREFIX=$(PREFIX) OUT=$(abspath $(BUILD))/bench-results DEPS=no
deps-bench-scale: PACKAGES += $(PKG_BENCH_SCALE)
deps-bench-scale: deps

clean:
	rm -rf $(BUILD)
