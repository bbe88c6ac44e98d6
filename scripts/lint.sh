#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clang-tidy, with the checks .clang-tidy lists, over every source file of the
# daemon and the hal. Exits non-zero and names the findings when there are any.
#   scripts/lint.sh [BUILD_DIR]   (default build-lint)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-lint}
tidy=$(command -v run-clang-tidy-16 || command -v run-clang-tidy || true)
[ -n "$tidy" ] || { echo "lint: run-clang-tidy not found (apt-get install clang-tidy-16)" >&2; exit 2; }
# Precompiled headers are g++'s; clang-tidy cannot read them.
cmake -S . -B "$build_dir" -G Ninja -DMCPUD_PCH=OFF -DMCPUD_BUILD_FIRMWARE=OFF >/dev/null
# Generated headers (the version, the built-in config) must exist first.
cmake --build "$build_dir" --target mcpud_version >/dev/null 2>&1 || true
# clang 16 spells C++23 c++2b, and announces concepts as 201907, for which
# libstdc++ 12 hides std::expected although clang 16 compiles it.
# run-clang-tidy 16 has no -warnings-as-errors: a finding is any warning line.
# The pattern is anchored at the source tree: not tests/, not generated sources.
report="$build_dir/clang-tidy.txt"
"$tidy" -quiet -p "$build_dir" -j "$(nproc)" \
  -extra-arg=-std=c++2b -extra-arg=-D__cpp_concepts=202002L -extra-arg=-Wno-macro-redefined \
  "^$PWD/(daemon|hal)/.*\\.cpp\$" >"$report" 2>&1 || true
findings=$(grep -cE '^/.*: (warning|error): ' "$report" || true)
if [ "$findings" -gt 0 ]; then
  grep -E -A3 '^/.*: (warning|error): ' "$report"
  echo "lint: $findings findings (whole output: $report)" >&2
  exit 1
fi
echo "lint: no findings in $(grep -c '^\[' "$report" || echo 0) runs"
