#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions mcpud executes per request, counted by callgrind (stable where wall-clock time is
# not): mcpud under valgrind answers N1 and then N2 sequential requests of one kind, and the
# difference of the two totals divided by N2 - N1 leaves start-up, the handshake and shutdown out.
# Over stdio (`mcpud --stdio`, driven by mcpud-mcp-bench, which initializes an MCP session first):
# MCP `tools/call` of gpio_write (legacy, and `mcp-modern`: the same call as MCP 2026-07-28, its
# _meta naming the version) and MCP/U `gpio_write`; over TCP (`mcpud --listen`, driven by
# mcpud-loadgen's sequential test, no MCP session): MCP/U `gpio_write`.
#
# usage: tests/bench/count-instructions.sh BUILD_DIR [MCPUD_BINARY]
#   prints one line per request kind: INSTRUCTIONS line=mcp|mcp-modern|mcpu|mcpu-tcp per_request=...
# knobs (environment): COUNT_N1 (default 2000), COUNT_N2 (default 4000), COUNT_LINES (the lines
#   to count, default "mcp mcpu mcpu-tcp")
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build_dir=${1:?usage: count-instructions.sh BUILD_DIR [MCPUD_BINARY]}
daemon=${2:-$build_dir/daemon/mcpud}
driver=$build_dir/tests/bench/mcpud-mcp-bench
loadgen=$build_dir/tests/bench/mcpud-loadgen
n1=${COUNT_N1:-2000}
n2=${COUNT_N2:-4000}
read -ra wanted_lines <<<"${COUNT_LINES:-mcp mcpu mcpu-tcp}"
command -v valgrind >/dev/null || {
  echo "count-instructions: needs valgrind" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpud-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A lines=(
  [mcp]='{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true}}}'
  [mcp-modern]='{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
  [mcpu]='{"jsonrpc":"2.0","id":{id},"method":"gpio_write","params":{"pin":2,"value":true}}'
)
declare -A expect=([mcp]='"structuredContent"' [mcp-modern]='"structuredContent"' [mcpu]='"result"')

# Total instructions of one mcpud run answering N requests of KIND.
total_for() {
  local kind=$1 n=$2 out=$work/callgrind.$1.$2
  "$driver" --tests sequential --sequential "$n" --warmup 0 --timeout 600 \
    --line "$kind=${lines[$kind]}" --expect "$kind=${expect[$kind]}" -- \
    valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$daemon" --stdio --config "$here/bench.toml" --log-level warn >/dev/null 2>"$work/valgrind.log"
  awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$out"
}

# Total instructions of one mcpud run answering N MCP/U gpio_write over TCP (KIND mcpu-tcp).
total_for_tcp() {
  local n=$2 out=$work/callgrind.tcp.$2 port pid try
  port=$("$loadgen" --free-port)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$daemon" --config "$here/bench.toml" \
    --listen "127.0.0.1:$port" --unix "" --dbus none --log-level warn >/dev/null 2>"$work/valgrind.tcp.log" &
  pid=$!
  for ((try = 0; try < 600; try++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  "$loadgen" --port "$port" --label mcpud --tests sequential --requests "$n" --warmup 0 --timeout 600 \
    --expect '"result"' >/dev/null
  kill -TERM "$pid"
  wait "$pid"
  awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$out"
}

for kind in "${wanted_lines[@]}"; do
  case $kind in
    mcp | mcp-modern | mcpu) count=total_for ;;
    mcpu-tcp) count=total_for_tcp ;;
    *)
      echo "count-instructions: unknown line '$kind' in COUNT_LINES (mcp, mcp-modern, mcpu, mcpu-tcp)" >&2
      exit 2
      ;;
  esac
  a=$($count "$kind" "$n1")
  b=$($count "$kind" "$n2")
  echo "INSTRUCTIONS line=$kind per_request=$(((b - a) / (n2 - n1)))"
done
