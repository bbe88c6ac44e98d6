#!/bin/bash
# SPDX-License-Identifier: MIT
# Checks what the built mcpud .deb contains and does: files, conffiles,
# maintainer scripts, control fields. Usage: inspect_deb.sh DEB
set -euo pipefail
deb=$1
failures=0
fail() { echo "inspect_deb: $*" >&2; failures=$((failures + 1)); }

files=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|')
for path in /usr/sbin/mcpud /etc/mcpud/mcpud.toml /lib/systemd/system/mcpud.service \
    /lib/systemd/system/mcpud-gadget.service /usr/lib/sysusers.d/mcpud.conf /lib/udev/rules.d/60-mcpud.rules \
    /usr/libexec/mcpud/mcpud-gadget /usr/share/man/man8/mcpud.8.gz /usr/share/man/man5/mcpud.toml.5.gz \
    /usr/share/doc/mcpud/copyright; do
  grep -qxF "$path" <<<"$files" || fail "missing $path"
done
# The TLS module, loaded from where mcpud was built to look (uplinks/tls_loader.cpp).
module=/usr/lib/$(dpkg-architecture -a "$(dpkg-deb -f "$deb" Architecture)" -qDEB_HOST_MULTIARCH 2>/dev/null)/mcpud/mcpud-tls.so
grep -qxF "$module" <<<"$files" || fail "missing $module"
# Every program on PATH has a manual page (mcpuctl and friends included as they arrive).
for program in $(grep -E '^/usr/s?bin/[^/]+$' <<<"$files"); do
  name=$(basename "$program")
  grep -qE "^/usr/share/man/man[18]/$name\.[18]\.gz$" <<<"$files" || fail "$program has no manual page"
done
grep -q '^/usr/local' <<<"$files" && fail "files under /usr/local: $(grep '^/usr/local' <<<"$files" | head -3)"

control=$(mktemp -d)
trap 'rm -rf "$control"' EXIT
dpkg-deb -e "$deb" "$control"

# Everything under /etc, and only that, is a conffile (user edits survive upgrades).
expected_conffiles=$(grep -E '^/etc/.*[^/]$' <<<"$files" | sort)
actual_conffiles=$(sort "$control/conffiles" 2>/dev/null || true)
[ "$expected_conffiles" = "$actual_conffiles" ] || fail "conffiles are [$actual_conffiles], expected [$expected_conffiles]"

# postinst: the user exists before the service starts; the gadget is not enabled.
postinst="$control/postinst"
sysusers_line=$(grep -n 'systemd-sysusers .*mcpud.conf' "$postinst" | head -1 | cut -d: -f1)
start_line=$(grep -n "deb-systemd-invoke .*'mcpud.service'" "$postinst" | head -1 | cut -d: -f1)
[ -n "$sysusers_line" ] || fail "postinst does not run systemd-sysusers mcpud.conf"
[ -n "$start_line" ] || fail "postinst does not start mcpud.service"
[ -n "$sysusers_line" ] && [ -n "$start_line" ] && [ "$sysusers_line" -lt "$start_line" ] ||
  fail "postinst starts mcpud.service before creating its user"
grep -q "deb-systemd-helper enable 'mcpud.service'" "$postinst" || fail "mcpud.service is not enabled on install"
# (--no-enable: debhelper only re-enables it if the admin had it enabled.)
grep -q "deb-systemd-helper debian-installed 'mcpud-gadget.service'" "$postinst" ||
  fail "mcpud-gadget.service is enabled on install"
grep -q "deb-systemd-invoke .*'mcpud-gadget.service'" "$postinst" && fail "mcpud-gadget.service is started on install"
grep -q "deb-systemd-helper purge 'mcpud.service'" "$control/postrm" || fail "postrm does not clean up on purge"
sh -n "$postinst" || fail "postinst has a syntax error"

# Control fields: built for the machine's architecture, with its real dependencies.
[ "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture)" ] || fail "unexpected Architecture"
depends=$(dpkg-deb -f "$deb" Depends)
# libiio0 and libmosquitto1 are named by hand: mcpud loads them on first use, so
# shlibs cannot see them; libssl3 comes from the TLS module (mcpud-tls.so).
for dep in procps libc6 libtomlplusplus3 systemd-sysusers libiio0 libmosquitto1 libssl3; do
  grep -q "$dep" <<<"$depends" || fail "Depends lacks $dep: $depends"
done

# The unit runs the installed binary with the installed configuration.
unit=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./lib/systemd/system/mcpud.service)
grep -qx 'ExecStart=/usr/sbin/mcpud --config /etc/mcpud/mcpud.toml' <<<"$unit" || fail "ExecStart is not the installed path"

if [ "$failures" -ne 0 ]; then echo "inspect_deb: $failures problem(s) in $deb" >&2; exit 1; fi
echo "inspect_deb: $(wc -l <<<"$files") paths, conffiles and maintainer scripts as expected"
