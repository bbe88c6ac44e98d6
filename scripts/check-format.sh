#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails, naming the files, when a C++ file of the project is not formatted as
# .clang-format says. `scripts/check-format.sh --fix` formats them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--dry-run --Werror)
[ "${1:-}" = --fix ] && mode=(-i)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.ino')
else
  mapfile -t files < <(find daemon hal mcu-firmware tests -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.ino')
fi
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if ! clang-format "${mode[@]}" "${files[@]}" 2>"$report"; then
  grep -o '^[^:]*:' "$report" | sort -u | sed 's/:$//; s/^/not formatted: /' >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted as .clang-format says"
