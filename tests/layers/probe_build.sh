#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds one layer probe. EXPECT "ok": it must compile. Otherwise it must fail
# with EXPECT in the compiler's output (the include that the rule forbids),
# so a probe that fails for any other reason does not pass.
set -uo pipefail
build_dir=$1 target=$2 expect=$3
output=$(cmake --build "$build_dir" --target "$target" 2>&1)
status=$?
if [ "$expect" = ok ]; then
  [ $status -eq 0 ] && exit 0
  echo "$output"
  echo "probe $target should have compiled" >&2
  exit 1
fi
if [ $status -ne 0 ] && grep -qF "$expect" <<<"$output"; then
  echo "refused as it should be: $(grep -F "$expect" <<<"$output" | head -1)"
  exit 0
fi
echo "$output"
echo "probe $target should have failed with: $expect" >&2
exit 1
