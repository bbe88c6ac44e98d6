#!/bin/bash
# SPDX-License-Identifier: MIT
# systemd/mcpud-gadget against a stand-in configfs (plain directories) and UDC
# class: `up UDC` writes the gadget the kernel expects (IDs, strings, an ACM
# function linked into a configuration, bound to the named UDC), and `up`
# without a controller fails with a message that names the fix. `down` is
# exercised against the real configfs by the kernel tests (rmdir semantics).
# Usage: gadget_script.sh SCRIPT
set -euo pipefail
script=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/config/usb_gadget" "$dir/udc/dummy_udc.0"
export MCPUD_GADGET_CONFIGFS="$dir/config" MCPUD_GADGET_UDC_CLASS="$dir/udc"
failures=0
fail() { echo "gadget_script: $*" >&2; failures=$((failures + 1)); }
value() { { tr -d '\n' <"$dir/config/usb_gadget/mcpud/$1"; } 2>/dev/null || echo "<missing $1>"; }

"$script" up dummy_udc.0 >/dev/null
[ "$(value UDC)" = dummy_udc.0 ] || fail "UDC is $(value UDC), not the one named"
[ "$(value idVendor)" = 0x1d6b ] || fail "idVendor is $(value idVendor)"
[ "$(value bcdUSB)" = 0x0200 ] || fail "bcdUSB is $(value bcdUSB)"
[ "$(value strings/0x409/manufacturer)" = mcpud ] || fail "manufacturer is $(value strings/0x409/manufacturer)"
[ -n "$(value strings/0x409/serialnumber)" ] || fail "empty serial number"
[ -d "$dir/config/usb_gadget/mcpud/functions/acm.usb0" ] || fail "no ACM function"
[ "$(readlink "$dir/config/usb_gadget/mcpud/configs/c.1/acm.usb0")" = "$dir/config/usb_gadget/mcpud/functions/acm.usb0" ] ||
  fail "the ACM function is not linked into configuration c.1"

# Without a name, the first controller of the class is used.
rm -rf "$dir/config/usb_gadget/mcpud"
"$script" up >/dev/null
[ "$(value UDC)" = dummy_udc.0 ] || fail "default UDC is $(value UDC)"

# No controller: a clear error, non-zero.
rm -rf "$dir/config/usb_gadget/mcpud" "$dir/udc/dummy_udc.0"
if message=$("$script" up 2>&1); then fail "up succeeded without a UDC"; fi
grep -q 'dtoverlay=dwc2' <<<"$message" || fail "the error does not name the fix: $message"
if "$script" bogus 2>/dev/null; then fail "an unknown command succeeded"; fi

if [ "$failures" -ne 0 ]; then exit 1; fi
echo "gadget_script: gadget written and bound as expected"
