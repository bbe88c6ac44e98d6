#!/bin/bash
# SPDX-License-Identifier: MIT
# `systemd-analyze verify` on the units as CMake installs them (staged with
# DESTDIR), including their Documentation= manual page. verify insists that the
# programs a unit runs exist, so Exec lines pointing at staged programs are
# prefixed with the staging directory in the copy that is checked; nothing else
# is changed. Usage: units_verify.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR="$stage/root" cmake --install "$build" >/dev/null

mkdir "$stage/units"
units=()
for unit in $(find "$stage/root" -path '*/systemd/system/*' -name '*.service'); do
  copy="$stage/units/$(basename "$unit")"
  while IFS= read -r line; do
    if [[ $line =~ ^(Exec[A-Za-z]*=[-@+!:]*)(/[^ ]*)(.*)$ ]] && [ -x "$stage/root${BASH_REMATCH[2]}" ]; then
      line="${BASH_REMATCH[1]}$stage/root${BASH_REMATCH[2]}${BASH_REMATCH[3]}"
    fi
    printf '%s\n' "$line"
  done <"$unit" >"$copy"
  units+=("$copy")
done
[ ${#units[@]} -ge 2 ] || { echo "units_verify: expected mcpud.service and mcpud-gadget.service, found ${units[*]}" >&2; exit 1; }

man_dirs=$(find "$stage/root" -type d -path '*/share/man' | paste -sd: -)
output=$(MANPATH="$man_dirs:" systemd-analyze verify --man=yes "${units[@]}" 2>&1) || {
  echo "$output" >&2
  exit 1
}
if [ -n "$output" ]; then echo "units_verify: systemd-analyze verify complained:" >&2; echo "$output" >&2; exit 1; fi
echo "units_verify: ${#units[@]} units verified: $(cd "$stage/units" && echo *)"
