#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs the built package into a clean Debian 12 root (debootstrap minbase,
# chroot; systemd does not run) with `apt-get install ./mcpud_*.deb`, as a user
# does, and checks what a user gets: the binary, the configuration it accepts, the
# system user and groups, the enabled unit, the daemon running as its user, and
# that an upgrade keeps the user's edits and a purge cleans up.
# Usage: install_chroot.sh DEB CACHE_DIR
# MCPUD_CHROOT_SUITE picks another Debian release (e.g. trixie). A package of
# another architecture (arm64) goes into a root of that architecture, made with
# `debootstrap --foreign` and finished inside under emulation: that needs a
# binfmt_misc handler for it (tests/platform/arm64_install.sh registers qemu-user).
# The root is cached in CACHE_DIR, keyed on the date, mirror, suite, architecture
# and package list, so reruns on the same day reuse it. Needs root (debootstrap, chroot).
set -euo pipefail
deb=$(realpath "$1")
cache=$(realpath -m "$2")
suite=${MCPUD_CHROOT_SUITE:-bookworm}
arch=$(dpkg-deb -f "$deb" Architecture)
host_arch=$(dpkg --print-architecture)

if [ "$(id -u)" -ne 0 ]; then
  echo "install_chroot: needs root for debootstrap and chroot; skipped" >&2
  exit 77
fi
command -v debootstrap >/dev/null || { echo "install_chroot: debootstrap missing (scripts/deps/package.list)" >&2; exit 1; }

# The Debian mirror apt already uses for the suite (deb822 .sources or one-line
# format; either file may be missing).
mirror=${MCPUD_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk -v s="$suite" '/^URIs:/ {u=$2} /^Suites:/ {for (i = 2; i <= NF; i++) if ($i == s) print u}' | head -1 || true)
fi
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk -v s="$suite" '$1 == "deb" && $3 == s {print $2}' | head -1 || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}

# The package's dependencies (first alternative, no versions) go into the cached
# root, so installing needs no network: dpkg checks the versions.
include=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/[[:space:]]//g' |
  grep -v '^$' | sort -u | paste -sd, -)
key=$( (date +%Y-%m-%d; echo "$suite $arch $mirror $include") | sha256sum | cut -c1-16)
root_cache="$cache/root-$key"

mkdir -p "$cache"
if [ ! -e "$root_cache/.complete" ]; then
  find "$cache" -mindepth 1 -maxdepth 1 -name 'root-*' -exec rm -rf {} +
  echo "install_chroot: debootstrap $suite ($arch) from $mirror with $include"
  start=$(date +%s)
  rm -rf "$root_cache.tmp"
  foreign=()
  [ "$arch" = "$host_arch" ] || foreign=(--foreign "--arch=$arch")
  debootstrap "${foreign[@]}" --variant=minbase --include="$include" "$suite" "$root_cache.tmp" "$mirror" \
    >"$cache/debootstrap.log" 2>&1 || {
    tail -n 30 "$cache/debootstrap.log" >&2
    echo "install_chroot: debootstrap failed; log in $cache/debootstrap.log" >&2
    exit 1
  }
  if [ "$arch" != "$host_arch" ]; then
    # The second stage runs the root's own ($arch) programs: emulated through binfmt_misc.
    chroot "$root_cache.tmp" /bin/true 2>/dev/null || {
      echo "install_chroot: cannot run $arch programs (no binfmt_misc handler for $arch; tests/platform/arm64_install.sh registers one)" >&2
      exit 1
    }
    echo "install_chroot: debootstrap's first stage done in $(( $(date +%s) - start )) s; the second runs under emulation"
    chroot "$root_cache.tmp" /debootstrap/debootstrap --second-stage >>"$cache/debootstrap.log" 2>&1 || {
      tail -n 30 "$cache/debootstrap.log" >&2
      echo "install_chroot: debootstrap's second stage failed; log in $cache/debootstrap.log" >&2
      exit 1
    }
  fi
  rm -rf "$root_cache.tmp"/var/cache/apt/archives/*.deb
  touch "$root_cache.tmp/.complete"
  mv "$root_cache.tmp" "$root_cache"
  echo "install_chroot: root ready in $(( $(date +%s) - start )) s"
else
  echo "install_chroot: reusing the cached root $root_cache"
fi

# Work on a copy so the cached root stays clean.
root="$cache/work"
rm -rf "$root"
cp -a "$root_cache" "$root"
trap 'rm -rf "$root"' EXIT
cp "$deb" "$root/tmp/mcpud.deb"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }
failures=0
fail() { echo "install_chroot: $*" >&2; failures=$((failures + 1)); }
expect() {  # expect DESCRIPTION COMMAND...: runs in the root, fails with its output
  local what=$1; shift
  local out
  out=$(in_root "$@" 2>&1) || { fail "$what: $* failed: $out"; return 1; }
  printf '%s\n' "$out"
}

# A chroot has no service manager: policy-rc.d stops anything from being started.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"

# The package's dependencies are in the root already, so apt needs no package lists.
expect "install" apt-get install -y -q /tmp/mcpud.deb >/dev/null || { echo "install_chroot: install failed" >&2; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
[ "$(expect "version" /usr/sbin/mcpud --version)" = "mcpud $version" ] || fail "mcpud --version is not $version"
expect "check-config" /usr/sbin/mcpud --check-config /etc/mcpud/mcpud.toml >/dev/null
# Outputs are matched as variables: `cmd | grep -q` under pipefail fails when grep
# exits before cmd has written everything (SIGPIPE), which happens under load.
passwd=$(expect "passwd entry" getent passwd mcpud) || true
grep -q ':/usr/sbin/nologin$' <<<"$passwd" || fail "mcpud is not a nologin system user"
groups=$(expect "groups" id -nG mcpud)
for group in mcpud gpio dialout i2c spi; do
  grep -qw "$group" <<<"$groups" || fail "user mcpud is not in group $group (groups: $groups)"
done
[ -L "$root/etc/systemd/system/multi-user.target.wants/mcpud.service" ] || fail "mcpud.service is not enabled"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/mcpud-gadget.service" ] || fail "mcpud-gadget.service is enabled"
verify=$(expect "verify units" systemd-analyze verify --man=no /lib/systemd/system/mcpud.service \
  /lib/systemd/system/mcpud-gadget.service)
[ -z "$verify" ] || fail "systemd-analyze verify in the installed system: $verify"

# The installed daemon runs as the service runs it: user mcpud with its groups and
# the shipped configuration (on a free port instead of 3000), answers get_info,
# serves the dashboard built into it (HTTP on another free port) and stops
# cleanly on SIGTERM.
log="$root/tmp/mcpud.log"
chroot --userspec=mcpud:mcpud --groups=gpio,dialout,i2c,spi "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin \
  /usr/sbin/mcpud --config /etc/mcpud/mcpud.toml --listen 127.0.0.1:0 --http 127.0.0.1:0 2>"$log" &
daemon=$!
port=""
for _ in $(seq 200); do  # up to 20 s for the listening line
  port=$(sed -n 's/.*tcp\] listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
  [ -n "$port" ] || ! kill -0 "$daemon" 2>/dev/null && break
  sleep 0.1
done
if [ -z "$port" ]; then
  fail "the installed mcpud did not start as user mcpud: $(cat "$log")"
else
  uid=$(in_root id -u mcpud)
  [ "$(stat -c %u "/proc/$daemon")" = "$uid" ] || fail "mcpud does not run as user mcpud (uid $uid)"
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  echo '{"jsonrpc":"2.0","id":1,"method":"get_info"}' >&3
  read -r -t 10 reply <&3 || reply=""
  exec 3>&-
  grep -q '"board":"none"' <<<"$reply" && grep -q '"pin_count":0' <<<"$reply" ||
    fail "unexpected get_info reply from the installed mcpud: $reply"
  http_port=$(sed -n 's/.*http\] listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
  exec 3<>"/dev/tcp/127.0.0.1/$http_port"
  printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
  page=$(timeout 10 cat <&3 || true)
  exec 3>&-
  grep -q '^HTTP/1.1 200' <<<"$page" && grep -q '<title>mcpud</title>' <<<"$page" ||
    fail "the installed mcpud does not serve the dashboard at /: $(head -c 300 <<<"$page")"
  echo "install_chroot: the installed mcpud ran as user mcpud, answered get_info on port $port and served the dashboard"
fi
kill -TERM "$daemon" 2>/dev/null || true
status=0
wait "$daemon" || status=$?
[ "$status" -eq 0 ] || fail "mcpud exited with $status after SIGTERM: $(cat "$log")"

# The installed mcpud finds its TLS module (loaded only for a TLS uplink, from
# /usr/lib/<multiarch>/mcpud) and the OpenSSL it needs: a TLS uplink to a closed
# port gets as far as connecting.
printf 'device = "tls"\nboard = "none"\n[uplink.services]\nserver = "127.0.0.1:1"\ntls = true\ntoken = "t"\n' \
  >"$root/tmp/tls.toml"
tls_log="$root/tmp/mcpud-tls.log"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin /usr/sbin/mcpud --config /tmp/tls.toml --dbus none --unix "" \
  --listen 127.0.0.1:0 2>"$tls_log" &
daemon=$!
for _ in $(seq 100); do  # up to 10 s for the first attempt
  grep -q 'TLS module\|refused' "$tls_log" && break
  sleep 0.1
done
kill -TERM "$daemon" 2>/dev/null || true
wait "$daemon" || true
grep -q 'refused' "$tls_log" && ! grep -q 'TLS module' "$tls_log" ||
  fail "the installed mcpud cannot use its TLS module: $(cat "$tls_log")"

# An upgrade (here: the same package again) keeps the administrator's edits.
sed -i 's/^device = "mcpud"$/device = "greenhouse"/' "$root/etc/mcpud/mcpud.toml"
expect "reinstall" dpkg -i /tmp/mcpud.deb >/dev/null
grep -q '^device = "greenhouse"$' "$root/etc/mcpud/mcpud.toml" || fail "the upgrade replaced the edited configuration"
edited=$(expect "check edited config" /usr/sbin/mcpud --check-config /etc/mcpud/mcpud.toml) || true
grep -q '"greenhouse"' <<<"$edited" || fail "the edited configuration is not accepted"

# Purge removes the package's files and configuration.
expect "purge" dpkg --purge mcpud >/dev/null
[ ! -e "$root/etc/mcpud" ] || fail "/etc/mcpud is left after purge"
[ ! -e "$root/usr/sbin/mcpud" ] || fail "/usr/sbin/mcpud is left after purge"

if [ "$failures" -ne 0 ]; then echo "install_chroot: $failures problem(s)" >&2; exit 1; fi
echo "install_chroot: installed, configured, upgraded and purged cleanly in a fresh $suite $arch root"
