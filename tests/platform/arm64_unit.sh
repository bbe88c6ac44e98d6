#!/bin/bash
# SPDX-License-Identifier: MIT
# The unit tests of every layer (tests/unit/*) cross-built for arm64 in the Debian
# 13 root (aarch64-linux-gnu-g++ 14, the :arm64 libraries; aarch64-toolchain.cmake)
# and run under qemu-aarch64: what differs on the Pi's CPU (char is unsigned, the
# libraries are their arm64 builds) shows here; qemu on x86 keeps x86's memory order.
# The root is cached in WORK/trixie-root (shared with trixie.sh and arm64.sh), the
# build tree in WORK/arm64-build, the compiler cache in WORK/ccache
# (MCPUD_PLATFORM_CCACHE_DIR overrides it).
# Usage: arm64_unit.sh WORK   Needs root; prints the time of each step.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
root=$work/trixie-root
build=$work/arm64-build
cache=$(realpath -m "${MCPUD_PLATFORM_CCACHE_DIR:-$work/ccache}")
jobs=${MCPUD_PLATFORM_JOBS:-2}
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"

require_root_and_work "$build" "$source"

ensure_root trixie "$root"
step "trixie root ready"
# googletest for arm64 and mosquitto (mqtt_tests start a broker: the amd64 one will do).
install_arm64_deps "$root" "$source" "$cache" "$work/arm64-unit-deps.log" libgtest-dev:arm64 libgmock-dev:arm64 mosquitto
step "arm64 build dependencies installed"

werror=OFF
[ -z "${CI:-}" ] || werror=ON
in_root "$root" "$source" "$cache" cmake -S "$source" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_TOOLCHAIN_FILE="$here/aarch64-toolchain.cmake" -DMCPUD_BUILD_BENCH=OFF -DMCPUD_BUILD_FIRMWARE=OFF -DMCPUD_PCH=ON -DMCPUD_UNITY=ON \
  -DMCPUD_TEST_PLATFORM=OFF -DMCPUD_WERROR=$werror >"$work/arm64-unit-configure.log" 2>&1 || {
  cat "$work/arm64-unit-configure.log" >&2
  exit 1
}
grep -q 'gpio/gpio_v2.cpp' "$work/arm64-unit-configure.log" || { echo "platform: not the libgpiod v2 backend" >&2; exit 1; }

targets=() binaries=()
for layer in $(unit_layers "$source"); do
  targets+=("${layer}_tests")
  binaries+=("$build/tests/${layer}_tests")
done
in_root "$root" "$source" "$cache" cmake --build "$build" -j "$jobs" --target "${targets[@]}" \
  >"$work/arm64-unit-build.log" 2>&1 || {
  grep -E -B2 -A12 'error|FAILED' "$work/arm64-unit-build.log" | head -n 150 >&2
  echo "platform: the arm64 build failed; full log in $work/arm64-unit-build.log" >&2
  exit 1
}
file_type=$(file -b "${binaries[0]}" 2>/dev/null || true)
echo "platform: ${targets[*]} built for arm64 ($file_type)" | cut -c1-200
step "the unit tests built for arm64 (-j $jobs)"

echo "platform: unit tests for arm64 under qemu-aarch64"
status=0
PLATFORM_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
  run_suites "$root" "$source" "$cache" "$work/arm64-unit-logs" "${binaries[@]}" || status=1
summary="unit $PLATFORM_PASSED passed, $PLATFORM_FAILED failed"
step "unit tests run under qemu-aarch64"
echo "platform: arm64: $summary; $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
exit $status
