#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the MCP client tests (Node): `setup WORKDIR` installs the pinned npm
# packages there (npm ci, once per lock file); `run WORKDIR FILE...` runs test files.
# Uses whatever node and npm are on PATH, or runs the tests with MCP_NODE when
# set (the SDK v2 tests: the Node 22 of node22/). NODE_TESTS_SOURCE names another
# folder of tests (package files and *.mjs) to run the same way, e.g. tests/dashboard.
set -euo pipefail
here="${NODE_TESTS_SOURCE:-$(cd "$(dirname "$0")" && pwd)}"
mode="$1"
work="$2"
shift 2

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "MCP client tests need Node.js >= 18 and npm on PATH, and found none." >&2
  echo "Install them with: bash scripts/install-deps.sh (installs Debian's nodejs and npm when npm is missing)" >&2
  exit 1
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 18 ]; then
  echo "MCP client tests need Node.js >= 18; $(command -v node) is $(node --version)." >&2
  exit 1
fi

mkdir -p "$work"
cp "$here"/package.json "$here"/package-lock.json "$here"/*.mjs "$work"/
case "$mode" in
  setup)
    stamp="$work/node_modules/.mcpud-lock"
    if [ -f "$stamp" ] && cmp -s "$stamp" "$here/package-lock.json"; then
      echo "npm packages up to date in $work"
      exit 0
    fi
    (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$here/package-lock.json" "$stamp"
    ;;
  run)
    cd "$work"
    exec "${MCP_NODE:-node}" --test "$@"
    ;;
  *)
    echo "usage: $0 setup|run WORKDIR [FILE...]" >&2
    exit 2
    ;;
esac
