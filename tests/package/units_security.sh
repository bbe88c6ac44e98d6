#!/bin/bash
# SPDX-License-Identifier: MIT
# `systemd-analyze security --offline=true` on mcpud.service: the exposure score
# must be at most MAX (default 4.0, "OK"). Prints what still counts against it.
# Usage: units_security.sh UNIT_FILE [MAX]
set -euo pipefail
unit=$1
max=${2:-4.0}
report=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1) || { echo "$report" >&2; exit 1; }
grep '✗' <<<"$report" || true
line=$(grep 'Overall exposure level' <<<"$report") || { echo "$report" >&2; exit 1; }
echo "$line"
score=$(sed -E 's/.*: ([0-9.]+) .*/\1/' <<<"$line")
awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }' || {
  echo "units_security: exposure $score is above $max" >&2
  exit 1
}
