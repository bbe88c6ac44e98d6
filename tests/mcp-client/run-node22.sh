#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The MCP checks that need Node 22 (npm's `node` package provides it), against
# the real mcpud:
#   setup WORKDIR             installs the pinned packages there (npm ci, once per lock file)
#   conformance WORKDIR MCPUD the official conformance suite (0.1.16, 2025-11-25) against
#                             `mcpud --http`: every scenario that applies to a device server
#                             (docs/mcp.md says which do not, and why)
#   conformance-2026 WORKDIR MCPUD
#                             conformance 0.2.0-alpha.12, the 2026-07-28 requirement set:
#                             everything passes but what node22/conformance-2026-expected-failures.yml
#                             lists (and says why), which must still fail
#   inspector WORKDIR MCPUD   MCP Inspector v2 `--strict` on `mcpud --stdio`'s tools/list:
#                             no schema portability problem at all
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/node22"
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
    exit 0
    ;;
  conformance | conformance-2026 | inspector) ;;
  *)
    echo "usage: $0 setup|conformance|conformance-2026|inspector WORKDIR [MCPUD]" >&2
    exit 2
    ;;
esac

mcpud="$3"
export PATH="$work/node_modules/.bin:$PATH"
echo "node $(node --version)"

if [ "$mode" = inspector ]; then
  problems="$(mktemp)"
  trap 'rm -f "$problems"' EXIT
  # mcpud's own log lines (timestamp, level, [category]) share stderr; the rest is the Inspector's.
  set +e
  mcp-inspector --cli --strict --method tools/list "$mcpud" --stdio 2>&1 > /dev/null |
    grep -Ev '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} [a-z]+ \[' > "$problems"
  status=${PIPESTATUS[0]}
  set -e
  cat "$problems" >&2
  if [ "$status" -ne 0 ] || [ -s "$problems" ]; then
    echo "Inspector v2 --strict: exit $status, problems above" >&2
    exit 1
  fi
  echo "Inspector v2 --strict: 0 errors, 0 warnings"
  exit 0
fi

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
if [ "$mode" = conformance-2026 ]; then
  runner=(node "$work/node_modules/conformance-2026/dist/index.js")
  echo "conformance $("${runner[@]}" --version) (2026-07-28) against http://$address/mcp"
  "${runner[@]}" server --url "http://$address/mcp" --requirements 2026-07-28 \
    --expected-failures "$here/conformance-2026-expected-failures.yml"
  exit
fi
echo "conformance $(conformance --version) against http://$address/mcp"
failed=()
for scenario in "${scenarios[@]}"; do
  conformance server --url "http://$address/mcp" --scenario "$scenario" || failed+=("$scenario")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed scenarios: ${failed[*]}" >&2
  exit 1
fi
echo "all ${#scenarios[@]} applicable scenarios passed"
