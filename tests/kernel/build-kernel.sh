#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds (or reuses) a small x86_64 kernel with gpio-sim, iio_dummy, a USB serial
# gadget and I2C from Debian's linux-source-6.1, cached on the fragment's hash and
# the source package's version, with the fragment's modules (=m, e.g. i2c-stub,
# which cannot be built in) in modules/ beside it. Prints the bzImage path on stdout.
set -euo pipefail

cache_dir=${1:?usage: build-kernel.sh CACHE_DIR FRAGMENT}
fragment=$(realpath "${2:?usage: build-kernel.sh CACHE_DIR FRAGMENT}")
tarball=/usr/src/linux-source-6.1.tar.xz

[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (install linux-source-6.1)" >&2; exit 2; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hash=$(sha256sum "$fragment" | cut -c1-16)
key="linux-${version//[^A-Za-z0-9.]/_}-$hash"
image="$cache_dir/$key/bzImage"

mkdir -p "$cache_dir"
exec 9>"$cache_dir/.lock"
flock 9
if [ -s "$image" ]; then
  echo "$image"
  exit 0
fi

work="$cache_dir/$key/src"
rm -rf "$work"
mkdir -p "$work"
echo "build-kernel: unpacking $tarball ($version)" >&2
# The AMD GPU register headers are a third of the tree and never built here.
tar -xJf "$tarball" -C "$work" --strip-components=1 --exclude='*/drivers/gpu/drm/amd/include/asic_reg'
cd "$work"
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "$fragment" >&2
make -s olddefconfig >&2
missing=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=[ym]\)$/\1/p' "$fragment" | while read -r opt; do
  grep -qx "$opt" .config || echo "$opt"
done)
[ -z "$missing" ] || echo "build-kernel: warning: not enabled after olddefconfig: $missing" >&2
echo "build-kernel: building bzImage (a few minutes)" >&2
make -s -j"$(nproc)" bzImage modules >&2
mkdir -p "$cache_dir/$key/modules"
find . -name '*.ko' -exec cp {} "$cache_dir/$key/modules/" \;
cp arch/x86/boot/bzImage "$image.tmp"
mv "$image.tmp" "$image"
cd /
rm -rf "$work"
echo "$image"
