#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Proves mcpud's libgpiod and libiio backends, the serial gadget listener, the
# I2C tools and sensor inputs against a real kernel: builds (or reuses) a small kernel, packs
# an initramfs with busybox, the kernel's modules, mcpud, the test client and
# their libraries, boots it in QEMU and turns the guest's KCHECK lines into the
# test result. GPIO_API (v1 or v2) is the libgpiod API mcpud must report driving
# the lines with; NAME (default kernel-test) names the log and the initramfs.
#
#   run-kernel-test.sh WORK_DIR FRAGMENT MCPUD KERNEL_CLIENT GUEST_INIT GPIO_API [NAME]
#
# With MCPUD_KERNEL_SYSROOT=DIR (a Debian root the two programs were built in,
# e.g. the platform test's trixie root) their libraries and loader are resolved
# and copied from DIR (ldd run in a chroot, so needs root), never from the host:
# the guest gets one coherent set. Exits 77 (skipped) when DIR is not there.
# KERNEL_TEST_APPEND adds to the guest's kernel command line (a guest init's options).
set -euo pipefail

work=${1:?} fragment=${2:?} mcpud=${3:?} client=${4:?} guest_init=${5:?} gpio_api=${6:?} name=${7:-kernel-test}
sysroot=${MCPUD_KERNEL_SYSROOT:+$(realpath -m "$MCPUD_KERNEL_SYSROOT")}
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 cpio gzip ldd strip; do
  command -v "$tool" >/dev/null || { echo "kernel-test: $tool missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
busybox=/bin/busybox
# Not `busybox --list | grep -q`: under pipefail that fails when grep exits before
# busybox has written its list (SIGPIPE), which happens under load.
[ -x "$busybox" ] && grep -qx poweroff < <("$busybox" --list) || { echo "kernel-test: busybox-static missing" >&2; exit 1; }

if [ -n "$sysroot" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "kernel-test: a library root needs root (chroot); skipped" >&2; exit 77; }
  [ -x "$sysroot/usr/bin/ldd" ] || { echo "kernel-test: no Debian root at $sysroot; skipped" >&2; exit 77; }
  for binary in "$mcpud" "$client"; do
    [ -x "$binary" ] || { echo "kernel-test: $binary not built; skipped" >&2; exit 77; }
  done
fi

# Libraries mcpud loads only when a configuration needs them (dlopen, so ldd
# does not list them): libiio for the IIO ADC pins (hal/iio/libiio_on_demand.cpp).
export MCPUD_ON_DEMAND_LIBRARIES="libiio.so.0"

# shared_libraries BINARY...: every library they need (and the on-demand ones
# with theirs) and the loader, one "PATH-IN-GUEST FILE-TO-COPY" pair a line;
# fails on a library ldd or ldconfig cannot find. Resolved on the host, or in
# the library root (the binaries copied into its /tmp, since a chroot sees only
# the root).
shared_libraries() {
  # shellcheck disable=SC2016
  local resolve='loaded=""
    for soname in $MCPUD_ON_DEMAND_LIBRARIES; do
      path=$(/sbin/ldconfig -p | awk -v name="$soname" "\$1 == name { print \$NF; exit }")
      [ -n "$path" ] || { echo "$soname: not installed" >&2; exit 1; }
      loaded="$loaded $path"
    done
    found=$(for binary in "$@" $loaded; do ldd "$binary" || exit 1; done 2>&1) || { echo "$found" >&2; exit 1; }
    found=$(printf "%s\n" "$found" $loaded)
    if echo "$found" | grep "not found" >&2; then exit 1; fi
    echo "$found" | grep -o "^[[:space:]]*/[^ ]*\|=> /[^ ]*" | grep -o "/.*" | sort -u |
      while read -r lib; do echo "$lib $(readlink -f "$lib")"; done'
  if [ -z "$sysroot" ]; then
    sh -c "$resolve" ldd "$@"
    return
  fi
  local inside binary copies=()
  inside=$(mktemp -d "$sysroot/tmp/kernel-test.XXXXXX")
  for binary in "$@"; do
    cp "$binary" "$inside/"
    copies+=("/tmp/$(basename "$inside")/$(basename "$binary")")
  done
  chroot "$sysroot" /bin/sh -c "$resolve" ldd "${copies[@]}" >"$inside/libraries" || { rm -rf "$inside"; return 1; }
  sed "s, , ${sysroot%/}," "$inside/libraries"
  rm -rf "$inside"
}

bzimage=$("$here/build-kernel.sh" "$work/kernel-cache" "$fragment")

root=$(mktemp -d "$work/initramfs.XXXXXX")
log="$work/$name.log"
initrd="$work/$name.initrd.gz"
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
libraries=$(shared_libraries "$root/usr/sbin/mcpud" "$root/usr/bin/kernel-client")
[ -n "$libraries" ] || { echo "kernel-test: no shared libraries found for $mcpud" >&2; exit 1; }
while read -r lib file; do
  [ -f "$file" ] || { echo "kernel-test: $lib resolves to $file, which is not a file" >&2; exit 1; }
  mkdir -p "$root$(dirname "$lib")"
  cp "$file" "$root$lib"
done <<<"$libraries"
echo "kernel-test: $(wc -l <<<"$libraries") libraries from ${sysroot:-the host}, e.g. $(grep -o 'libgpiod\.so[^ ]*' <<<"$libraries" | head -n1)"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd"

echo "kernel-test: booting $bzimage (mcpud must drive GPIO with libgpiod $gpio_api)"
# mcpud.gpio on the command line tells the guest which libgpiod API to expect.
timeout 600 qemu-system-x86_64 -m 512 -cpu max -nographic -no-reboot -kernel "$bzimage" -initrd "$initrd" \
  -append "console=ttyS0 quiet panic=-1 mcpud.gpio=$gpio_api ${KERNEL_TEST_APPEND:-}" </dev/null >"$log" 2>&1 || true
tr -d '\r' <"$log" | grep -E '^(KCHECK|MCPUD\|)' || true

passes=$(tr -d '\r' <"$log" | grep -c '^KCHECK PASS' || true)
fails=$(tr -d '\r' <"$log" | grep -c '^KCHECK FAIL' || true)
if ! grep -q '^KTEST DONE' < <(tr -d '\r' <"$log"); then
  echo "kernel-test: the guest never reported KTEST DONE; console log: $log" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo "kernel-test: $passes checks passed, $fails failed"
[ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]
