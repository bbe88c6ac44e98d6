#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The official MCP conformance suite (@modelcontextprotocol/conformance) against
# `mcpud --http`: every server scenario that applies to a device server; the
# others, and why, are in docs/mcp.md. `setup WORKDIR` installs the pinned
# packages there (npm ci; the suite needs Node 22, which the `node` package
# provides); `run WORKDIR MCPUD` starts mcpud and runs the scenarios.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/conformance"
mode="$1"
work="$2"

# Keep in step with the list in docs/mcp.md.
scenarios=(server-initialize ping logging-set-level tools-list resources-list server-sse-multiple-streams
           dns-rebinding-protection)

case "$mode" in
  setup)
    mkdir -p "$work"
    cp "$here"/package.json "$here"/package-lock.json "$work"/
    stamp="$work/node_modules/.mcpud-lock"
    if [ -f "$stamp" ] && cmp -s "$stamp" "$here/package-lock.json"; then
      echo "npm packages up to date in $work"
      exit 0
    fi
    (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$here/package-lock.json" "$stamp"
    ;;
  run)
    mcpud="$3"
    log="$(mktemp)"
    "$mcpud" --http 127.0.0.1:0 --listen 127.0.0.1:0 --unix "" --dbus=none --log-level debug 2>"$log" &
    pid=$!
    trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
    address=""
    for _ in $(seq 100); do
      address="$(sed -n 's/.*\[http\] listening on \([^ ]*\) .*/\1/p' "$log")"
      [ -n "$address" ] && break
      sleep 0.1
    done
    [ -n "$address" ] || { echo "mcpud did not start serving HTTP:" >&2; cat "$log" >&2; exit 1; }
    export PATH="$work/node_modules/.bin:$PATH"
    echo "conformance $(conformance --version) on node $(node --version) against http://$address/mcp"
    failed=()
    for scenario in "${scenarios[@]}"; do
      conformance server --url "http://$address/mcp" --scenario "$scenario" || failed+=("$scenario")
    done
    if [ ${#failed[@]} -gt 0 ]; then
      echo "failed scenarios: ${failed[*]}" >&2
      exit 1
    fi
    echo "all ${#scenarios[@]} applicable scenarios passed"
    ;;
  *)
    echo "usage: $0 setup|run WORKDIR [MCPUD]" >&2
    exit 2
    ;;
esac
