#!/bin/bash
# SPDX-License-Identifier: MIT
# The arm64 package (built by arm64.sh into WORK/arm64-deb/out) installed as a
# user installs it on 64-bit Raspberry Pi OS: `apt-get install ./mcpud_*_arm64.deb`
# in a Debian 13 arm64 root, every program in it running under qemu-user through
# binfmt_misc. tests/package/install_chroot.sh then checks `mcpud --version`,
# `mcpud --check-config /etc/mcpud/mcpud.toml`, the user and groups, the enabled
# unit, the daemon answering as user mcpud, an upgrade and a purge.
# The root (debootstrap --foreign, second stage under emulation) is cached for the
# day in WORK/arm64-install. The static qemu-aarch64 comes from WORK/trixie-root
# (arm64.sh installs it); it is registered as binfmt_misc handler "mcpud-aarch64"
# for the run and removed afterwards, leaving the machine's handlers as they were.
# --suite bookworm installs the Debian 12 package (arm64.sh --suite bookworm) in a
# Debian 12 arm64 root instead.
# Usage: arm64_install.sh WORK [--suite bookworm]   Needs root; prints the time of each step.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
source=$(realpath "$here/../..")
work=$(realpath -m "$1")
suite=trixie
if [ "${2:-}" = --suite ]; then suite=${3:?--suite needs a Debian release name}; fi
debs_dir=$work/arm64-deb/out
[ "$suite" = trixie ] || debs_dir=$work/arm64-$suite-deb/out
binfmt=/proc/sys/fs/binfmt_misc
handler=mcpud-aarch64
# shellcheck source=tests/platform/root.sh
source "$here/root.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "platform: needs root for binfmt_misc, debootstrap and chroot; skipped" >&2
  exit 77
fi
debs=("$debs_dir"/mcpud_*_arm64.deb)
deb=${debs[0]}
[ -e "$deb" ] || { echo "platform: no arm64 package in $debs_dir: run arm64.sh --suite $suite first" >&2; exit 1; }
[ -x "$work/trixie-root/usr/bin/qemu-aarch64" ] ||
  { echo "platform: no qemu-aarch64 in $work/trixie-root: run arm64.sh first" >&2; exit 1; }

# A handler of our own, with the interpreter opened at registration (flag F), so
# programs inside the chroot find it; it is the newest, so the kernel tries it first.
mounted=""
if [ ! -e "$binfmt/register" ]; then
  mount -t binfmt_misc binfmt_misc "$binfmt" || { echo "platform: this kernel offers no binfmt_misc to run arm64 programs; skipped" >&2; exit 77; }
  mounted=yes
fi
cleanup() {
  [ ! -e "$binfmt/$handler" ] || echo -1 >"$binfmt/$handler"
  [ -z "$mounted" ] || umount "$binfmt"
}
trap cleanup EXIT
[ ! -e "$binfmt/$handler" ] || echo -1 >"$binfmt/$handler"
cp "$work/trixie-root/usr/bin/qemu-aarch64" "$work/qemu-aarch64-static"
magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
# A kernel or sandbox that refuses handlers (read-only binfmt_misc) cannot run
# arm64 programs at all: that is a missing facility, reported as a skip.
printf '%s' ":$handler:M::$magic:$mask:$work/qemu-aarch64-static:F" >"$binfmt/register" || {
  echo "platform: binfmt_misc refused the qemu-aarch64 handler; skipped" >&2
  exit 77
}
step "qemu-aarch64 registered with binfmt_misc"

MCPUD_CHROOT_SUITE=$suite nice -n 15 "$source/tests/package/install_chroot.sh" "$deb" "$work/arm64-install"
step "the arm64 package installed and checked in a $suite arm64 root"
echo "platform: arm64 install: $PLATFORM_WALL s in all (CPU $PLATFORM_CPU s)"
