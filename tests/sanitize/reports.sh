#!/bin/bash
# SPDX-License-Identifier: MIT
# Where sanitizer reports go, and the check that none came. Sourced by
# run-sanitized.sh and tests/platform/trixie.sh: every sanitized program a test
# starts (mcpud, mcpuctl, the test binaries) inherits the options and writes any
# report to a file of REPORT_DIR, so a report fails the run even when its test
# passed (a daemon's report never reaches the test's output).

# sanitizer_options REPORT_DIR: the environment assignments, one per line.
sanitizer_options() {
  local report_dir=$1
  echo "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$report_dir/asan"
  echo "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$report_dir/ubsan"
  echo "LSAN_OPTIONS=log_path=$report_dir/lsan"
}

# fail_on_sanitizer_reports REPORT_DIR LABEL: prints every report (its first
# lines) and returns 1 when there is any.
fail_on_sanitizer_reports() {
  local report_dir=$1 label=$2 report
  compgen -G "$report_dir/*" >/dev/null || return 0
  echo "$label: sanitizer reports:" >&2
  for report in "$report_dir"/*; do
    echo "== $report" >&2
    head -60 "$report" >&2
  done
  return 1
}
