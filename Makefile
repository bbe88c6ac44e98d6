# SPDX-License-Identifier: MIT
# Convenience front end: `make run` and `make test` are the two README commands.
BUILD_DIR ?= build
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
JOBS ?= $(shell nproc)
# CI treats every compiler warning as an error.
ifdef CI
CMAKE_FLAGS += -DMCPUD_WERROR=ON
endif
# Debian's hardening flags, as the package is built (debian/rules): the programs
# the tests run are compiled as the ones shipped, and the package's build finds
# every compile in the compiler cache. Elsewhere (no dpkg-buildflags) the build
# type's flags alone.
DEB_HARDENING = DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags
CMAKE_FLAGS += "-DCMAKE_CXX_FLAGS=$$($(DEB_HARDENING) --get CXXFLAGS 2>/dev/null) $$($(DEB_HARDENING) --get CPPFLAGS 2>/dev/null)" \
  "-DCMAKE_EXE_LINKER_FLAGS=$$($(DEB_HARDENING) --get LDFLAGS 2>/dev/null)"

.PHONY: all deps configure build run test check check-unit lint format bench bench-mcp bench-mqtt bench-services fuzz sanitize soak deb deb-arm64 deb-arm64-bookworm release-check clean

all: build

deps:
	./scripts/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@echo "mcpud: starting on the built-in simulated board (Ctrl-C stops it)."
	@echo "mcpud: talk to it from another terminal, e.g.:"
	@echo "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"list_tools\"}' | nc -q1 127.0.0.1 3000"
	@echo "  nc 127.0.0.1 3000    (then type one JSON-RPC request per line)"
	./$(BUILD_DIR)/daemon/mcpud $(ARGS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 300

# The inner loop (docs/development.md): check-unit builds and runs the unit
# suites alone; check adds the suites against the real binaries (no fuzz tree,
# package, platform roots, kernel, Node or browser).
check-unit: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target unit_tests
	cd $(BUILD_DIR) && ctest -L unit -j $(JOBS) --output-on-failure --timeout 120

check: check-unit
	cmake --build $(BUILD_DIR) -j $(JOBS)
	cd $(BUILD_DIR) && ctest -L integration -j $(JOBS) --output-on-failure --timeout 300

# clang-tidy (.clang-tidy) over the daemon's and hal's sources, in a build tree of
# its own without precompiled headers; `make format` formats the tree.
lint: deps
	./scripts/lint.sh $(BUILD_DIR)-lint

format:
	./scripts/check-format.sh --fix

bench: build
	./tests/bench/run-bench.sh $(BUILD_DIR)

# MCP tools/call over stdio against the official TypeScript SDK server (tests/bench/ts-peer).
bench-mcp: build
	./tests/bench/run-mcp-bench.sh $(BUILD_DIR)

# RPC through a mosquitto broker (fleet mode) next to direct TCP.
bench-mqtt: build
	./tests/bench/run-mqtt-bench.sh $(BUILD_DIR)

# A tool call through the ##START services uplink next to direct TCP, against the same mcpud.
bench-services: build
	./tests/bench/run-services-bench.sh $(BUILD_DIR)

# Every fuzz target of tests/fuzz for FUZZ_SECONDS each (the ctests run them for
# seconds); what they find stays in $(BUILD_DIR)/fuzz/corpus and .../artifacts.
FUZZ_SECONDS ?= 600
fuzz: deps
	./tests/fuzz/run-fuzz.sh --build-dir $(BUILD_DIR)/fuzz --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The unit, integration and D-Bus suites built with g++ -fsanitize=address,undefined
# in $(BUILD_DIR)/sanitize; any sanitizer report fails (tests/sanitize/run-sanitized.sh).
sanitize: deps
	./tests/sanitize/run-sanitized.sh --build-dir $(BUILD_DIR)/sanitize

# Everything at once for SOAK_SECONDS against the built mcpud: many clients,
# hostile ones, a bridged mcu-sim replugged, serial streams, a SIGHUP a second
# (tests/soak/soak.py; docs/RELIABILITY.md has its figures). Not part of `make test`.
SOAK_SECONDS ?= 600
soak: build
	./tests/soak/soak.py --mcpud $(BUILD_DIR)/daemon/mcpud --mcu-sim $(BUILD_DIR)/mcu-firmware/mcu-sim \
	  --seconds $(SOAK_SECONDS) --json $(BUILD_DIR)/soak.json

# The Debian package, built on this machine (e.g. on the Pi): build/deb/out/mcpud_*.deb
deb:
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get build-dep -y ./
	./tests/package/build_deb.sh . $(BUILD_DIR)/deb

# The package for 64-bit Raspberry Pi OS (Debian 13 based), cross-built on this
# (amd64) machine in a cached Debian 13 root: needs root (debootstrap, chroot).
deb-arm64:
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64.sh $(BUILD_DIR)/platform --deb-only

# The same for 64-bit Raspberry Pi OS bookworm (Debian 12: libgpiod 1, sdbus-c++ 1), in a
# cached Debian 12 root: build/platform/arm64-bookworm-deb/out/mcpud_*_arm64.deb
deb-arm64-bookworm:
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64.sh $(BUILD_DIR)/platform --deb-only --suite bookworm

# The platform tests (docs/packaging.md), in roots cached in $(BUILD_DIR)/platform:
# mcpud built with ASan+UBSan and tested on Debian 13; the arm64 package cross-built, lintian-checked,
# its mcpud checked under qemu-user and the package installed in an arm64 Debian 13
# root (these three `make test` runs too: ctest -L platform); then what only a release
# needs, too slow for every CI run: the unit tests cross-built for arm64 and run under
# qemu-user, the arm64 package for Raspberry Pi OS bookworm installed in an arm64
# Debian 12 root, and the amd64 package for Debian 13 installed in a Debian 13 root.
# Needs root.
release-check:
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/trixie.sh $(BUILD_DIR)/platform --sanitize
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64.sh $(BUILD_DIR)/platform
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64_install.sh $(BUILD_DIR)/platform
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64_unit.sh $(BUILD_DIR)/platform
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64.sh $(BUILD_DIR)/platform --suite bookworm
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/arm64_install.sh $(BUILD_DIR)/platform --suite bookworm
	$(if $(filter 0,$(shell id -u)),,sudo) ./tests/platform/trixie_package.sh $(BUILD_DIR)/platform

clean:
	rm -rf $(BUILD_DIR)
