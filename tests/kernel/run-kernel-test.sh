#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Proves mcpud's libgpiod and libiio backends, the serial gadget listener, the
# I2C tools and sensor inputs against a real kernel: builds (or reuses) a small kernel, packs
# an initramfs with busybox, the kernel's modules, mcpud, the test client and
# their libraries, boots it in QEMU and turns the guest's KCHECK lines into the
# test result.
#
#   run-kernel-test.sh WORK_DIR FRAGMENT MCPUD KERNEL_CLIENT GUEST_INIT
set -euo pipefail

work=${1:?} fragment=${2:?} mcpud=${3:?} client=${4:?} guest_init=${5:?}
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 cpio gzip ldd strip; do
  command -v "$tool" >/dev/null || { echo "kernel-test: $tool missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
busybox=/bin/busybox
[ -x "$busybox" ] && "$busybox" --list | grep -qx poweroff || { echo "kernel-test: busybox-static missing" >&2; exit 1; }

bzimage=$("$here/build-kernel.sh" "$work/kernel-cache" "$fragment")

root=$(mktemp -d "$work/initramfs.XXXXXX")
log="$work/kernel-test.log"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/usr/bin" "$root/usr/sbin"
cp "$busybox" "$root/bin/busybox"
# The fragment's modules (=m), built beside the image; the guest loads them.
mkdir -p "$root/lib/modules"
cp "$(dirname "$bzimage")"/modules/*.ko "$root/lib/modules/" 2>/dev/null || true
cp "$guest_init" "$root/init"
chmod +x "$root/init"
# Without debug info: a RelWithDebInfo mcpud is about 200 MB, and the initramfs
# is unpacked into the guest's RAM.
strip --strip-debug -o "$root/usr/sbin/mcpud" "$mcpud"
strip --strip-debug -o "$root/usr/bin/kernel-client" "$client"
# Every shared library the two programs need, and the dynamic loader, at their paths.
for lib in $( (ldd "$mcpud"; ldd "$client") | grep -o '/[^ ]*' | sort -u); do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

echo "kernel-test: booting $bzimage"
timeout 600 qemu-system-x86_64 -m 512 -cpu max -nographic -no-reboot -kernel "$bzimage" -initrd "$work/initrd.gz" \
  -append "console=ttyS0 quiet panic=-1" </dev/null >"$log" 2>&1 || true
tr -d '\r' <"$log" | grep -E '^(KCHECK|MCPUD\|)' || true

passes=$(tr -d '\r' <"$log" | grep -c '^KCHECK PASS' || true)
fails=$(tr -d '\r' <"$log" | grep -c '^KCHECK FAIL' || true)
if ! tr -d '\r' <"$log" | grep -q '^KTEST DONE'; then
  echo "kernel-test: the guest never reported KTEST DONE; console log: $log" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo "kernel-test: $passes checks passed, $fails failed"
[ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]
