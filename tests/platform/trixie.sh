#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds and tests mcpud on Debian 13 (trixie): libgpiod 2 (hal/gpio/gpio_v2.cpp)
# and sdbus-c++ 2 (sdbus_compat_v2.cpp), as Raspberry Pi OS trixie has them.
# In a debootstrap root cached in WORK/trixie-root, with the build dependencies
# from scripts/deps, a build tree in WORK/trixie-build and a compiler cache in
# WORK/ccache (MCPUD_PLATFORM_CCACHE_DIR overrides it): it runs the unit tests,
# then (unless --unit-only) the integration and D-Bus tests.
# --sanitize builds with g++'s AddressSanitizer and UndefinedBehaviorSanitizer
# (-DMCPUD_SANITIZE=ON): a report from any test or from an mcpud or mcpuctl a
# test started fails the run (tests/sanitize/reports.sh). The ctest does that, so
# CI runs the suites sanitized without a build of its own for them.
# Usage: trixie.sh WORK [--unit-only] [--sanitize]   Needs root; prints the time of each step.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
shift
unit_only="" sanitize=OFF
for option in "$@"; do
  case "$option" in
    --unit-only) unit_only=yes ;;
    --sanitize) sanitize=ON ;;
    *) echo "trixie: unknown option $option" >&2; exit 2 ;;
  esac
done
root=$work/trixie-root
build=$work/trixie-build
cache=$(realpath -m "${MCPUD_PLATFORM_CCACHE_DIR:-$work/ccache}")
jobs=${MCPUD_PLATFORM_JOBS:-2}
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"
# shellcheck source=tests/sanitize/reports.sh
source "$source/tests/sanitize/reports.sh"

require_root_and_work "$build" "$source"

ensure_root trixie "$root"
step "trixie root ready"
# What the build and the tests need (not the kernel, fuzz, browser, MCU or npm lists).
in_root "$root" "$source" "$cache" "$source/scripts/install-deps.sh" \
  core dbus hardware bridge serial mqtt uplink soak >"$work/trixie-deps.log" 2>&1 || {
  tail -n 30 "$work/trixie-deps.log" >&2
  echo "platform: installing the build dependencies failed; log in $work/trixie-deps.log" >&2
  exit 1
}
step "build dependencies installed"

werror=OFF
[ -z "${CI:-}" ] || werror=ON
in_root "$root" "$source" "$cache" cmake -S "$source" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMCPUD_BUILD_BENCH=OFF -DMCPUD_BUILD_FIRMWARE=OFF -DMCPUD_WERROR=$werror -DMCPUD_SANITIZE=$sanitize -DMCPUD_PCH=ON -DMCPUD_UNITY=ON >"$work/trixie-configure.log" 2>&1 || {
  cat "$work/trixie-configure.log" >&2
  exit 1
}
grep -E 'mcpud: (GPIO backend|sdbus-c\+\+)' "$work/trixie-configure.log" | sed 's/^-- /platform: /'
grep -q 'gpio/gpio_v2.cpp' "$work/trixie-configure.log" || { echo "platform: not the libgpiod v2 backend" >&2; exit 1; }
grep -q 'sdbus_compat_v2.cpp' "$work/trixie-configure.log" || { echo "platform: not the sdbus-c++ 2 glue" >&2; exit 1; }

mapfile -t unit < <(unit_layers "$source")  # every suite of tests/unit
# build_targets TARGET...: builds them in the root, or shows the errors.
: >"$work/trixie-build.log"
build_targets() {
  in_root "$root" "$source" "$cache" cmake --build "$build" -j "$jobs" --target "$@" >>"$work/trixie-build.log" 2>&1 || {
    grep -E -B2 -A12 'error|FAILED' "$work/trixie-build.log" | head -n 150 >&2
    echo "platform: the trixie build failed; full log in $work/trixie-build.log" >&2
    exit 1
  }
}
# kernel-client: kernel_qemu_v2 boots it with this mcpud (tests/kernel).
targets=(mcpud kernel-client)
binaries=()
for layer in "${unit[@]}"; do
  targets+=("${layer}_tests")
  binaries+=("$build/tests/${layer}_tests")
done
build_targets "${targets[@]}"
step "mcpud, kernel-client and the unit tests built (-j $jobs)"

status=0
report_dir=$work/trixie-sanitizer-reports
rm -rf "$report_dir"
if [ $sanitize = ON ]; then
  mkdir -p "$report_dir"
  mapfile -t options < <(sanitizer_options "$report_dir")
  PLATFORM_RUNNER="env ${options[*]}"  # the options hold no spaces
fi
echo "platform: unit tests on trixie"
run_suites "$root" "$source" "$cache" "$work/trixie-logs" "${binaries[@]}" || status=1
summary="unit $PLATFORM_PASSED passed, $PLATFORM_FAILED failed"
step "unit tests run"
if [ -z "$unit_only" ]; then
  build_targets mcpuctl integration_tests dbus_tests
  step "mcpuctl, the integration and the D-Bus tests built (-j $jobs)"
  echo "platform: integration and D-Bus tests on trixie"
  run_suites "$root" "$source" "$cache" "$work/trixie-logs" "$build/tests/integration_tests:2" \
    "$build/tests/dbus_tests" || status=1
  summary+="; integration and D-Bus $PLATFORM_PASSED passed, $PLATFORM_FAILED failed"
  step "integration and D-Bus tests run"
fi
[ $sanitize = OFF ] || fail_on_sanitizer_reports "$report_dir" platform || status=1
echo "platform: trixie: $summary; $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
exit $status
