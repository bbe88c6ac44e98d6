#!/bin/bash
# SPDX-License-Identifier: MIT
# mcpud for 64-bit Raspberry Pi OS, cross-built on amd64 in a Debian 13 (trixie)
# root (multiarch: crossbuild-essential-arm64 and the :arm64 -dev packages): the
# Debian package with `dpkg-buildpackage -a arm64 -Pnocheck`, lintian clean; then
# the packaged arm64 mcpud on the simulated board answers
# tests/platform/protocol_check.py under qemu-user.
# --suite bookworm does the same in a Debian 12 root (libgpiod 1, sdbus-c++ 1):
# the package for Raspberry Pi OS bookworm.
# The root is cached in WORK/SUITE-root (trixie: shared with trixie.sh), the compiler
# cache in WORK/ccache (MCPUD_PLATFORM_CCACHE_DIR overrides it).
# Usage: arm64.sh WORK [--deb-only] [--suite bookworm]   Needs root; prints the time of each step.
# The package lands in WORK/arm64-deb/out/mcpud_VERSION_arm64.deb (bookworm:
# WORK/arm64-bookworm-deb/out/).
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
shift
deb_only="" suite=trixie
while [ $# -gt 0 ]; do
  case "$1" in
    --deb-only) deb_only=$1 ;;
    --suite) suite=${2:?--suite needs a Debian release name}; shift ;;
    *) echo "platform: unknown argument $1 (usage: arm64.sh WORK [--deb-only] [--suite bookworm])" >&2; exit 2 ;;
  esac
  shift
done
root=$work/$suite-root
name=arm64
[ "$suite" = trixie ] || name=arm64-$suite
deb_dir=$work/$name-deb
cache=$(realpath -m "${MCPUD_PLATFORM_CCACHE_DIR:-$work/ccache}")
jobs=${MCPUD_PLATFORM_JOBS:-2}
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"

require_root_and_work "$work" "$source"

ensure_root "$suite" "$root"
step "$suite root ready"
install_arm64_deps "$root" "$source" "$cache" "$work/$name-deps.log"
step "arm64 build dependencies installed"

in_root "$root" "$source" "$cache" /usr/bin/env \
  MCPUD_DEB_HOST_ARCH=arm64 MCPUD_UNITY=ON MCPUD_PACKAGE_JOBS="$jobs" "$source/tests/package/build_deb.sh" "$source" "$deb_dir"
deb=$(ls "$deb_dir"/out/mcpud_*_arm64.deb)
step "arm64 package built (-j $jobs)"
in_root "$root" "$source" "$cache" "$source/tests/package/lintian_deb.sh" "$deb"
step "lintian run"
echo "platform: the arm64 package for $suite is $deb"
if [ "$deb_only" = "--deb-only" ]; then
  echo "platform: arm64 package: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
  exit 0
fi

# The packaged arm64 mcpud (unpacked, with the arm64 libraries of the root) on the
# simulated board under qemu-user.
unpacked=$work/$name-unpacked
rm -rf "$unpacked"
dpkg-deb -x "$deb" "$unpacked"
in_root "$root" "$source" "$cache" python3 "$here/protocol_check.py" --config "$source/config/examples/sim.toml" \
  --arch aarch64 -- "${qemu[@]}" "$unpacked/usr/sbin/mcpud"
step "protocol checks of the packaged arm64 mcpud under qemu-user run"
echo "platform: $name: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
