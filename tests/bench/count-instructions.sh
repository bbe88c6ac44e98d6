#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions mcpud executes per request, counted by callgrind (stable where wall-clock time is
# not): `mcpud --stdio` under valgrind answers N1 and then N2 sequential requests of one kind
# from mcpud-mcp-bench, and the difference of the two totals divided by N2 - N1 leaves start-up,
# the handshake and shutdown out.
#
# usage: tests/bench/count-instructions.sh BUILD_DIR [MCPUD_BINARY]
#   prints one line per request kind: INSTRUCTIONS line=mcp|mcpu per_request=...
# knobs (environment): COUNT_N1 (default 2000), COUNT_N2 (default 4000)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build_dir=${1:?usage: count-instructions.sh BUILD_DIR [MCPUD_BINARY]}
daemon=${2:-$build_dir/daemon/mcpud}
driver=$build_dir/tests/bench/mcpud-mcp-bench
n1=${COUNT_N1:-2000}
n2=${COUNT_N2:-4000}
command -v valgrind >/dev/null || {
  echo "count-instructions: needs valgrind" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpud-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A lines=(
  [mcp]='{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true}}}'
  [mcpu]='{"jsonrpc":"2.0","id":{id},"method":"gpio_write","params":{"pin":2,"value":true}}'
)
declare -A expect=([mcp]='"structuredContent"' [mcpu]='"result"')

# Total instructions of one mcpud run answering N requests of KIND.
total_for() {
  local kind=$1 n=$2 out=$work/callgrind.$1.$2
  "$driver" --tests sequential --sequential "$n" --warmup 0 --timeout 600 \
    --line "$kind=${lines[$kind]}" --expect "$kind=${expect[$kind]}" -- \
    valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$daemon" --stdio --config "$here/bench.toml" --log-level warn >/dev/null 2>"$work/valgrind.log"
  awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$out"
}

for kind in mcp mcpu; do
  a=$(total_for "$kind" "$n1")
  b=$(total_for "$kind" "$n2")
  echo "INSTRUCTIONS line=$kind per_request=$(((b - a) / (n2 - n1)))"
done
