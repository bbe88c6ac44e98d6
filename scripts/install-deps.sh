#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything mcpud needs to build and test on Debian 12 (and, with the
# lists of deps/trixie/, Debian 13). Idempotent.
# Usage: install-deps.sh [FEATURE...]   (no FEATURE: every list)
# Package names come from scripts/deps/*.list, one file per feature, so a feature
# brings its own build and test dependencies. Where a release names a package
# differently, deps/RELEASE/NAME.list replaces deps/NAME.list on that release
# (RELEASE: VERSION_CODENAME of /etc/os-release, or MCPUD_DEPS_RELEASE).
set -euo pipefail
cd "$(dirname "$0")"

release=${MCPUD_DEPS_RELEASE:-$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")}

# The list of FEATURE for this release.
list_for() {
  local name=$1
  if [ -n "$release" ] && [ -e "deps/$release/$name" ]; then echo "deps/$release/$name"; else echo "deps/$name"; fi
}

# A list named NAME.if-missing-CMD.list is read only when CMD is not on PATH.
lists=()
for list in deps/*.list; do
  name=${list#deps/}
  feature=${name%%.*}
  if [ $# -gt 0 ] && [[ " $* " != *" $feature "* ]]; then
    continue
  fi
  case "$list" in
    *.if-missing-*.list)
      command="${list##*.if-missing-}"
      command -v "${command%.list}" >/dev/null && continue
      ;;
  esac
  lists+=("$(list_for "$name")")
done
for feature in "$@"; do
  compgen -G "deps/$feature.*list" >/dev/null || { echo "install-deps: no list for feature '$feature' in scripts/deps" >&2; exit 1; }
done
[ ${#lists[@]} -gt 0 ] || exit 0
mapfile -t packages < <(cat "${lists[@]}" | sed -e 's/#.*//' -e 's/[[:space:]]//g' | grep -v '^$' | sort -u)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
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
