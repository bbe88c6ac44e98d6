#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The unit, integration and D-Bus suites built with g++ -fsanitize=address,undefined
# in a tree of their own (-DMCPUD_SANITIZE=ON), and run there. Every sanitizer
# report, from a test program or from an mcpud/mcpuctl a test started, goes to a
# file of REPORT_DIR; any such file fails the run, even when the test passed.
#   tests/sanitize/run-sanitized.sh [--build-dir DIR] [CTEST_ARGS...]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$source_dir/build/sanitize
if [ "${1:-}" = --build-dir ]; then build_dir=$2; shift 2; fi
# The benches are left out: they measure, and test nothing the suites do not.
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMCPUD_SANITIZE=ON -DMCPUD_PCH=ON -DMCPUD_UNITY=ON \
    -DMCPUD_BUILD_BENCH=OFF -DMCPUD_TEST_PLATFORM=OFF >/dev/null
fi
cmake --build "$build_dir"

# shellcheck source=tests/sanitize/reports.sh
source "$source_dir/tests/sanitize/reports.sh"
report_dir=$build_dir/sanitizer-reports
rm -rf "$report_dir" && mkdir -p "$report_dir"
while IFS= read -r option; do export "${option?}"; done < <(sanitizer_options "$report_dir")
# Leaks of the libraries the tests load, not of mcpud (the file says which and why).
export LSAN_OPTIONS="$LSAN_OPTIONS:suppressions=$source_dir/tests/sanitize/lsan-suppressions.txt:print_suppressions=0"
status=0
# Kernel, package and platform tests build their own binaries, style and layers test no binary,
# and the fuzz targets have their own sanitized tree.
(cd "$build_dir" && ctest --output-on-failure -j "$(nproc)" --timeout 300 -LE "kernel|package|style|layers|fuzz|sanitize|platform" \
  "$@") || status=$?
fail_on_sanitizer_reports "$report_dir" run-sanitized || exit 1
exit $status
