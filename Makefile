# Two entry points for a fresh Debian 12 machine (as root, or with sudo):
#   make demo    set up, build, and run a small program on 4 PEs
#   make check   set up, build, and run every test
# Both install only the Debian packages that are missing.

BUILD   ?= build
PREFIX  ?= $(CURDIR)/$(BUILD)/install
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PACKAGES = cmake make gcc g++ pkg-config libucx-dev libpmix-dev libhwloc-dev libcriterion-dev
# The launcher and multi-node tests run the real mpirun and srun (Open MPI
# and Slurm are PMIx servers), on network namespaces made with iproute2.
PACKAGES += openmpi-bin slurmd slurmctld slurm-client munge slurm-wlm-basic-plugins iproute2
# ucx_perftest, the baseline of the cross-node latency bench.
PACKAGES += ucx-utils
# clang and its libFuzzer runtime (a Recommends of clang, so named here for
# --no-install-recommends): the fuzz targets, test/fuzz/.
PACKAGES += clang libclang-rt-14-dev
# gnuplot without X: `make bench` draws its latency-against-size PNG with it.
PACKAGES += gnuplot-nox

.PHONY: all deps configure build install demo check check-tsan check-asan fuzz bench clean

all: build

deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "ushmem: installing missing Debian packages:$$missing"; \
	    SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	    echo "ushmem: all required Debian packages are installed"; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

install: build
	cmake --install $(BUILD)

# The demo goes the way a user does: the installed oshcc and oshrun.
demo: install
	$(PREFIX)/bin/oshcc docs/examples/ring.c -o $(BUILD)/ring
	$(PREFIX)/bin/oshrun -n 4 $(BUILD)/ring

check: install
	cd $(BUILD) && ctest --output-on-failure --timeout 300 -j$(JOBS)

# Only the ThreadSanitizer run of the threaded tests (test/sanitize/):
# builds $(BUILD)/tsan with -fsanitize=thread and runs them there.
check-tsan: configure
	cd $(BUILD) && ctest --output-on-failure -L tsan

# Only the AddressSanitizer+UBSan run (test/sanitize/): builds $(BUILD)/asan
# and runs the unit tests and a multi-PE subset there.
check-asan: configure
	cd $(BUILD) && ctest --output-on-failure -L asan

# The libFuzzer targets (test/fuzz/, docs/fuzzing.md), built with clang in
# $(BUILD)/fuzz; each runs FUZZ_TIME seconds (or FUZZ_RUNS executions).
FUZZ_TIME ?= 600
FUZZ_RUNS ?= -1
# (Not through ctest: fuzz.short's TIMEOUT is sized for the short run.)
fuzz: deps
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_RUNS=$(FUZZ_RUNS) sh test/fuzz/run_fuzz.sh \
	    $(CURDIR) $(abspath $(BUILD))/fuzz clang cmake ""

# The start-up bench and the microbenchmark suite, both against Debian's
# Open MPI OSHMEM (bench/README.md); results in $(BUILD)/bench-results.
# Its Open MPI side is built with Debian's oshcc, which needs the headers.
bench: PACKAGES += libopenmpi-dev
bench: install
	$(MAKE) -C bench PREFIX=$(PREFIX) OUT=$(abspath $(BUILD))/bench-results

clean:
	rm -rf $(BUILD)
