#!/bin/bash
# SPDX-License-Identifier: MIT
# The amd64 package for Debian 13 (trixie): built with `dpkg-buildpackage` in the
# cached trixie root (shared with trixie.sh), lintian clean, then installed as a
# user installs it, `apt-get install ./mcpud_*.deb`, in a fresh Debian 13 root by
# tests/package/install_chroot.sh (`mcpud --version`, `--check-config`, the user,
# the unit, the daemon answering as user mcpud, an upgrade and a purge).
# The package lands in WORK/trixie-deb/out; the install root is cached in
# WORK/trixie-install. Usage: trixie_package.sh WORK   Needs root; prints the time
# of each step.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
root=$work/trixie-root
cache=$(realpath -m "${MCPUD_PLATFORM_CCACHE_DIR:-$work/ccache}")
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"

require_root_and_work "$work" "$source"

ensure_root trixie "$root"
step "trixie root ready"
in_root "$root" "$source" "$cache" /bin/bash -c '
  set -e
  cd "$1"
  scripts/install-deps.sh package
  dpkg-checkbuilddeps debian/control 2>/dev/null || { apt-get update -qq; apt-get build-dep -y -qq --no-install-recommends ./; }
' deps "$source" >"$work/trixie-package-deps.log" 2>&1 || {
  tail -n 30 "$work/trixie-package-deps.log" >&2
  echo "platform: installing the package build dependencies failed; log in $work/trixie-package-deps.log" >&2
  exit 1
}
step "package build dependencies installed"

deb_dir=$work/trixie-deb
in_root "$root" "$source" "$cache" /usr/bin/env MCPUD_PACKAGE_JOBS="${MCPUD_PLATFORM_JOBS:-2}" \
  "$source/tests/package/build_deb.sh" "$source" "$deb_dir"
deb=$(ls "$deb_dir"/out/mcpud_*_"$(dpkg --print-architecture)".deb)
step "package for trixie built"
in_root "$root" "$source" "$cache" "$source/tests/package/lintian_deb.sh" "$deb"
step "lintian run"
MCPUD_CHROOT_SUITE=trixie nice -n 15 "$source/tests/package/install_chroot.sh" "$deb" "$work/trixie-install"
step "the package installed and checked in a Debian 13 root"
echo "platform: trixie package: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
