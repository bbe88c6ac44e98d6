#!/bin/bash
# SPDX-License-Identifier: MIT
# mcpud for 64-bit Raspberry Pi OS, cross-built on amd64 in a Debian 13 (trixie)
# root (multiarch: crossbuild-essential-arm64 and the :arm64 -dev packages): the
# Debian package with `dpkg-buildpackage -a arm64 -Pnocheck`, lintian clean; then
# the packaged arm64 mcpud on the simulated board answers
# tests/platform/protocol_check.py under qemu-user.
# The root is cached in WORK/trixie-root (shared with trixie.sh), the compiler
# cache in WORK/ccache (MCPUD_PLATFORM_CCACHE_DIR overrides it).
# Usage: arm64.sh WORK [--deb-only]   Needs root; prints the time of each step.
# The package lands in WORK/arm64-deb/out/mcpud_VERSION_arm64.deb.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
deb_only=${2:-}
root=$work/trixie-root
cache=$(realpath -m "${MCPUD_PLATFORM_CCACHE_DIR:-$work/ccache}")
jobs=${MCPUD_PLATFORM_JOBS:-2}
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "platform: needs root for debootstrap, mount and chroot; skipped" >&2
  exit 77
fi
case "$work" in
  "$source"/*) ;;
  *) echo "platform: WORK must lie inside the source tree $source (it is mounted in the root)" >&2; exit 2 ;;
esac

ensure_root trixie "$root"
step "trixie root ready"
# The package's own build dependencies for arm64 (debian/control, without the
# tests' <!nocheck> ones), the cross compiler, ccache, qemu-user, python3 (the protocol
# check) and the packaging tools.
in_root "$root" "$source" "$cache" /bin/bash -c '
  set -e
  cd "$1"
  scripts/install-deps.sh package
  dpkg --print-foreign-architectures | grep -qx arm64 || { dpkg --add-architecture arm64; apt-get update -qq; }
  if ! dpkg-checkbuilddeps -a arm64 -P nocheck debian/control 2>/dev/null ||
     ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
     ! command -v ccache >/dev/null || ! command -v python3 >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends crossbuild-essential-arm64 qemu-user ccache python3
    apt-get build-dep -y -qq --no-install-recommends -a arm64 -P nocheck ./
  fi' deps "$source" >"$work/arm64-deps.log" 2>&1 || {
  tail -n 30 "$work/arm64-deps.log" >&2
  echo "platform: installing the arm64 build dependencies failed; log in $work/arm64-deps.log" >&2
  exit 1
}
step "arm64 build dependencies installed"

deb_dir=$work/arm64-deb
in_root "$root" "$source" "$cache" /usr/bin/env \
  MCPUD_DEB_HOST_ARCH=arm64 MCPUD_PACKAGE_JOBS="$jobs" "$source/tests/package/build_deb.sh" "$source" "$deb_dir"
deb=$(ls "$deb_dir"/out/mcpud_*_arm64.deb)
step "arm64 package built (-j $jobs)"
in_root "$root" "$source" "$cache" "$source/tests/package/lintian_deb.sh" "$deb"
step "lintian run"
echo "platform: the arm64 package for Debian 13 is $deb"
if [ "$deb_only" = "--deb-only" ]; then
  echo "platform: arm64 package: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
  exit 0
fi

# The packaged arm64 mcpud (unpacked, with the arm64 libraries of the root) on the
# simulated board under qemu-user.
unpacked=$work/arm64-unpacked
rm -rf "$unpacked"
dpkg-deb -x "$deb" "$unpacked"
in_root "$root" "$source" "$cache" python3 "$here/protocol_check.py" --config "$source/config/examples/sim.toml" \
  --arch aarch64 -- "${qemu[@]}" "$unpacked/usr/sbin/mcpud"
step "protocol checks of the packaged arm64 mcpud under qemu-user run"
echo "platform: arm64: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
