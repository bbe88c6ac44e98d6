#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything mcpud needs to build and test on Debian 12. Idempotent.
# Package names come from scripts/deps/*.list, one file per feature, so a feature
# brings its own build and test dependencies.
set -euo pipefail
cd "$(dirname "$0")"

# A list named NAME.if-missing-CMD.list is read only when CMD is not on PATH.
lists=()
for list in deps/*.list; do
  case "$list" in
    *.if-missing-*.list)
      command="${list##*.if-missing-}"
      command -v "${command%.list}" >/dev/null && continue
      ;;
  esac
  lists+=("$list")
done
mapfile -t packages < <(cat "${lists[@]}" | sed -e 's/#.*//' -e 's/[[:space:]]//g' | grep -v '^$' | sort -u)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
