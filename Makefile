# Thin wrapper over CMake presets. `make run` and `make test` are the two
# quick-start commands of the README.
BUILD_DIR ?= build
PYTHON    := /usr/bin/python3
JOBS      ?= $(shell nproc)
SAMPLE    ?= samples/vadd.py
export CCACHE_BASEDIR := $(CURDIR)
# Debug info would otherwise put the build dir into every cache key, so no
# other checkout (a worktree, a CI clone) could reuse an object.
export CCACHE_NOHASHDIR := 1

.PHONY: all deps configure build run test test-asan package install clean

all: build

deps:
	@bash packaging/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake --preset default -B $(BUILD_DIR)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Opens the workbench on a sample; without a display, runs it headless and
# says where the report went.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(BUILD_DIR)/bin/asc2-workbench $(SAMPLE); \
	else \
	  echo "No display: running $(SAMPLE) headless"; \
	  $(BUILD_DIR)/bin/asc2-workbench --headless $(SAMPLE) --report out/$(notdir $(basename $(SAMPLE))); \
	fi

test: build
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

# The whole suite on an AddressSanitizer + UBSan build (build-asan/). The
# Python interpreter that runs pytest, the samples and the twin sweeps is not
# instrumented, so every test process preloads the runtimes; leaks are not
# checked (CPython and numpy keep theirs by design). ASan's own signal stack
# is off: LLVM installs one per thread, and ASan aborted unmapping the stack
# it no longer owned when an MLIR worker thread exited.
SANITIZER_RUNTIMES = $(shell g++ -print-file-name=libasan.so):$(shell g++ -print-file-name=libubsan.so)
test-asan: deps
	cmake --preset asan
	cmake --build build-asan -j $(JOBS)
	cd build-asan && QT_QPA_PLATFORM=offscreen LD_PRELOAD=$(SANITIZER_RUNTIMES) \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_odr_violation=0:use_sigaltstack=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 3000

# The .deb a user installs (docs/install.md): the app, asc2-python, the asc2
# package, arch models and samples; CPack writes it into $(BUILD_DIR)/.
package: build
	cd $(BUILD_DIR) && cpack -G DEB

# The same tree into $(DESTDIR)$(CMAKE_INSTALL_PREFIX); the prefix defaults to
# the configured one (/usr/local). Both are optional: make install
# CMAKE_INSTALL_PREFIX=/opt/asc2 DESTDIR=/tmp/stage.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR) $(if $(CMAKE_INSTALL_PREFIX),--prefix "$(CMAKE_INSTALL_PREFIX)")

clean:
	rm -rf $(BUILD_DIR) build-asan
