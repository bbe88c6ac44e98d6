#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs lintian on the built package: no errors and no warnings allowed (pedantic
# and info tags are printed, not fatal). Usage: lintian_deb.sh DEB
set -euo pipefail
command -v lintian >/dev/null || { echo "lintian_deb: lintian missing (scripts/deps/package.list)" >&2; exit 1; }
# lintian warns when run as root (CI is root); that note is not about the package.
lintian --fail-on error,warning --display-info --pedantic "$1" 2> >(grep -v 'running with root privileges' >&2)
echo "lintian_deb: no errors, no warnings"
