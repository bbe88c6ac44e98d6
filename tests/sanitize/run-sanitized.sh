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
  cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMCPUD_SANITIZE=ON \
    -DMCPUD_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build_dir"

report_dir=$build_dir/sanitizer-reports
rm -rf "$report_dir" && mkdir -p "$report_dir"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$report_dir/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$report_dir/ubsan
export LSAN_OPTIONS=log_path=$report_dir/lsan
status=0
# Kernel and package tests need QEMU and dpkg, style and layers test no binary,
# and the fuzz targets have their own sanitized tree.
(cd "$build_dir" && ctest --output-on-failure -j "$(nproc)" --timeout 300 -LE "kernel|package|style|layers|fuzz|sanitize" \
  "$@") || status=$?
if compgen -G "$report_dir/*" >/dev/null; then
  echo "run-sanitized: sanitizer reports:" >&2
  for report in "$report_dir"/*; do
    echo "== $report" >&2
    head -60 "$report" >&2
  done
  exit 1
fi
exit $status
