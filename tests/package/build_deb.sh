#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the Debian package from a copy of the source tree, as a user would with
# `dpkg-buildpackage -us -uc -b`, into WORK (the .deb lands in WORK/out).
# Usage: build_deb.sh SOURCE_DIR WORK_DIR [PROJECT_VERSION]
# MCPUD_DEB_HOST_ARCH=arm64 cross-builds for that architecture (multiarch: the
# cross compiler and the :arm64 build dependencies installed; tests/platform/arm64.sh).
# The project's tests are not run inside this build (DEB_BUILD_OPTIONS=nocheck):
# the suite that runs this script runs them already.
set -euo pipefail
source_dir=$(realpath "$1")
work=$(realpath -m "$2")
version=$(dpkg-parsechangelog -l "$source_dir/debian/changelog" -S Version)
tree="$work/mcpud-$version"
if [ -n "${3:-}" ] && [ "$version" != "$3" ]; then
  echo "build_deb: debian/changelog says $version, CMakeLists.txt says $3: add a changelog entry" >&2
  exit 1
fi

for tool in dpkg-buildpackage dh; do
  command -v "$tool" >/dev/null || { echo "build_deb: $tool missing (scripts/deps/package.list)" >&2; exit 1; }
done

# A fixed path keeps the compiler cache warm between runs; copy only tracked
# and new files (no build trees), from git when available.
rm -rf "$tree" "$work/out"
mkdir -p "$tree" "$work/out"
if git -C "$source_dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$source_dir" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -xf - -C "$tree"
else
  tar -C "$source_dir" --exclude='./build*' --exclude='./obj-*' --exclude='./.git' -cf - . | tar -xf - -C "$tree"
fi

# debhelper points HOME at a scratch directory; keep ccache's real one.
export CCACHE_DIR=${CCACHE_DIR:-$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")}
export DEB_BUILD_OPTIONS="nocheck parallel=${MCPUD_PACKAGE_JOBS:-2} ${DEB_BUILD_OPTIONS:-}"
cross=()
[ -z "${MCPUD_DEB_HOST_ARCH:-}" ] || cross=(-a "$MCPUD_DEB_HOST_ARCH" -Pnocheck)
start=$(date +%s)
(cd "$tree" && dpkg-buildpackage -us -uc -b "${cross[@]}") > "$work/build.log" 2>&1 || {
  tail -n 60 "$work/build.log" >&2
  echo "build_deb: dpkg-buildpackage failed; full log in $work/build.log" >&2
  exit 1
}
mv "$work"/mcpud_"$version"_*.deb "$work"/mcpud*_"$version"_*.buildinfo "$work"/mcpud*_"$version"_*.changes "$work/out/"
# Debug symbols, when produced, go along too.
mv "$work"/mcpud-dbgsym_*.deb "$work/out/" 2>/dev/null || true
# The package's build tree is gigabytes of objects nothing reads again (the
# compiler cache keeps what a rebuild needs); tests that follow need the disk.
rm -rf "$tree"
echo "build_deb: built $(cd "$work/out" && ls ./*.deb) in $(( $(date +%s) - start )) s"
