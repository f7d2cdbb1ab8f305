# Makefile - the two commands of the README, and a few conveniences.
#   make demo   set up, build, and run the digits example end to end
#   make test   set up, build, and run every test (what CI runs)
#   make bench  benchmark compiled models against ONNX Runtime (docs/performance.md)
#   make format clang-format-19 the C/C++ files changed since FORMAT_BASE (HEAD)
#   make package  the Debian package BUILD/package/onnxc_VERSION_ARCH.deb
#   make package-test-chroot  install it in a fresh Debian 12 root (mmdebstrap),
#               convert ZOO_DIR's models in batch mode, time both
BUILD ?= build
# ccache hits across clones at other paths (CI builds a fresh clone).
export CCACHE_BASEDIR ?= $(CURDIR)
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DLLVM_USE_LINKER=lld

.PHONY: all setup configure build demo test unit lit e2e bench format clean \
  package package-test-chroot

all: build

setup:
	./scripts/setup.sh

configure: setup
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./examples/digits/run_demo.sh $(BUILD)/bin $(BUILD)/demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

unit lit e2e: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L $@

bench: build
	/usr/bin/python3 bench/run_bench.py --build $(BUILD) $(BENCH_ARGS)

package: build
	cmake --build $(BUILD) --target package

# The zoo's models (test/models/export_zoo.py; ctest zoo writes them here).
ZOO_DIR ?= $(BUILD)/test/models/models
package-test-chroot: package
	./scripts/package/test-chroot.sh $(BUILD)/package $(ZOO_DIR) \
	  $(BUILD)/test/e2e/digits $(BUILD)/package-chroot

FORMAT_BASE ?= HEAD
format: setup
	./scripts/check_format.sh --fix $(FORMAT_BASE)

clean:
	rm -rf $(BUILD)
