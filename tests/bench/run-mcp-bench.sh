#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MCP tools/call over stdio: mcpud against a minimal server on the official TypeScript SDK
# (tests/bench/ts-peer) doing the same work, driven by the same client (mcpud-mcp-bench) in
# the same run, for MCP 2025-11-25 (an initialized session, SDK 1.32.2) and for 2026-07-28
# (no handshake, each call's _meta naming the version, SDK v2 @modelcontextprotocol/server
# 2.4.0 on the Node 22 of tests/mcp-client/node22), and mcpud's MCP call against its MCP/U
# call; callgrind's instructions of a modern call against a legacy one (count-instructions.sh,
# skipped without valgrind or with BENCH_INSTRUCTIONS=0); beside them the floor
# (mcpud-stdio-floor: a fixed reply with the request's id, no work), the most any server
# can make of the same pipes and driver. Prints the figures and one
# GOAL|what|mcpud|peer or floor|goal|met or not met line per goal. Never fails on the figures.
#
# usage: tests/bench/run-mcp-bench.sh BUILD_DIR
# knobs (environment):
#   BENCH_ROUNDS  rounds, interleaved ABBA so drift hits both servers alike; medians (default 5)
#   BENCH_ARGS    extra mcpud-mcp-bench options for every run, e.g. "--requests 50000 --window 16"
#   BENCH_PIN     split (default): servers on CPU 0, the pipelined client on CPU 1 and the
#                 sequential client on CPU 0 (as run-bench.sh); shared: the clients on CPU 0
#                 too (no wake-up across CPUs, which costs a VM more than a whole call);
#                 off: no pinning
# Needs node >= 18 and npm: the peer's packages are installed (npm ci, pinned by
# tests/bench/ts-peer/package-lock.json) into BUILD_DIR/tests/bench/ts-peer once.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build_dir=${1:?usage: run-mcp-bench.sh BUILD_DIR}
driver=$build_dir/tests/bench/mcpud-mcp-bench
daemon=$build_dir/daemon/mcpud
floor=$build_dir/tests/bench/mcpud-stdio-floor
rounds=${BENCH_ROUNDS:-5}
placement=${BENCH_PIN:-split}
read -r -a extra <<<"${BENCH_ARGS:-}"

for binary in "$driver" "$daemon" "$floor"; do
  if [[ ! -x $binary ]]; then
    echo "run-mcp-bench: $binary not built (configure with -DMCPUD_BUILD_BENCH=ON)" >&2
    exit 1
  fi
done
if ! [[ $rounds =~ ^[0-9]+$ ]] || ((rounds < 1 || rounds > 20)); then
  echo "run-mcp-bench: BENCH_ROUNDS must be 1..20" >&2
  exit 1
fi

peer_dir=$(realpath -m "$build_dir/tests/bench/ts-peer")
NODE_TESTS_SOURCE="$here/ts-peer" "$here/../mcp-client/run-node-tests.sh" setup "$peer_dir" >&2
node22_dir=$(realpath -m "$build_dir/tests/mcp-client/node22")
"$here/../mcp-client/run-node22.sh" setup "$node22_dir" >&2
node22=$node22_dir/node_modules/.bin/node

server_cpu=() seq_cpu=() pipe_cpu=()
if [[ $placement != off ]] && command -v taskset >/dev/null && (($(nproc) >= 2)); then
  server_cpu=(taskset -c 0)
  seq_cpu=(taskset -c 0)
  pipe_cpu=(taskset -c 1)
  [[ $placement == shared ]] && pipe_cpu=(taskset -c 0)
else
  placement=off
fi

results=$(mktemp "${TMPDIR:-/tmp}/mcpud-mcp-bench.XXXXXX")
trap 'rm -f "$results"' EXIT

call='{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true}}}'
modern_call='{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
mcpu_call='{"jsonrpc":"2.0","id":{id},"method":"gpio_write","params":{"pin":2,"value":true}}'
mcpud_command=("${server_cpu[@]}" "$daemon" --stdio --config "$here/bench.toml" --log-level warn)
peer_command=("${server_cpu[@]}" node "$peer_dir/server.mjs")
peer2_command=("${server_cpu[@]}" "$node22" "$peer_dir/server-v2.mjs")
floor_command=("${server_cpu[@]}" "$floor")

# One server, both tests: pipelined with the client on its own CPU, then sequential.
# Labels ending in -modern (mcpud's and the SDK v2's) speak 2026-07-28: no initialize.
measure() {
  local label=$1
  shift
  local lines=(--line "mcp=$call" --expect 'mcp="structuredContent"')
  [[ $label == *-modern ]] && lines=(--no-initialize --line "mcp=$modern_call" --expect 'mcp="structuredContent"')
  [[ $label == mcpud ]] && lines+=(--line "mcpu=$mcpu_call" --expect 'mcpu="result"')
  "${pipe_cpu[@]}" "$driver" --label "$label" --tests pipelined "${lines[@]}" "${extra[@]}" -- "$@" | tee -a "$results"
  "${seq_cpu[@]}" "$driver" --label "$label" --tests sequential "${lines[@]}" "${extra[@]}" -- "$@" | tee -a "$results"
}

echo "== MCP over stdio: mcpud against the TypeScript SDK ($(node --version)), $rounds round(s)," \
  "placement $placement, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2 == 1)); then
    measure mcpud "${mcpud_command[@]}"
    measure ts-sdk "${peer_command[@]}"
    measure mcpud-modern "${mcpud_command[@]}"
    measure ts-sdk2-modern "${peer2_command[@]}"
  else
    measure ts-sdk2-modern "${peer2_command[@]}"
    measure mcpud-modern "${mcpud_command[@]}"
    measure ts-sdk "${peer_command[@]}"
    measure mcpud "${mcpud_command[@]}"
  fi
  measure floor "${floor_command[@]}"
done

# The median over rounds of KEY in the RESULT lines of LABEL, LINE and TEST.
median_of() {
  local label=$1 line=$2 test=$3 key=$4
  grep "^RESULT label=$label line=$line test=$test " "$results" |
    tr ' ' '\n' | awk -F= -v key="$key" '$1 == key { print $2 }' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v r="$1" -v op="$2" -v goal="$3" 'BEGIN {
  met = (op == ">=") ? (r >= goal) : (r <= goal); print (met ? "met" : "not met") }'; }

mcpud_rps=$(median_of mcpud mcp pipelined rps)
peer_rps=$(median_of ts-sdk mcp pipelined rps)
mcp_p50=$(median_of mcpud mcp sequential p50_us)
mcpu_p50=$(median_of mcpud mcpu sequential p50_us)
peer_p50=$(median_of ts-sdk mcp sequential p50_us)
mcp_p99=$(median_of mcpud mcp sequential p99_us)
mcpu_p99=$(median_of mcpud mcpu sequential p99_us)
peer_p99=$(median_of ts-sdk mcp sequential p99_us)
modern_rps=$(median_of mcpud-modern mcp pipelined rps)
peer2_rps=$(median_of ts-sdk2-modern mcp pipelined rps)
modern_p50=$(median_of mcpud-modern mcp sequential p50_us)
peer2_p50=$(median_of ts-sdk2-modern mcp sequential p50_us)
floor_rps=$(median_of floor mcp pipelined rps)
floor_p50=$(median_of floor mcp sequential p50_us)
floor_p99=$(median_of floor mcp sequential p99_us)
pipe_ratio=$(ratio "$mcpud_rps" "$peer_rps")
modern_ratio=$(ratio "$modern_rps" "$peer2_rps")
p50_ratio=$(ratio "$mcp_p50" "$mcpu_p50")

echo "== medians of $rounds round(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %12s %12s %12s %12s\n' "" "mcpud MCP" "mcpud MCP/U" "TS SDK" "floor"
printf '%-44s %12.0f %12s %12.0f %12.0f\n' "tools/call pipelined (calls/s)" "$mcpud_rps" "" "$peer_rps" "$floor_rps"
printf '%-44s %12.1f %12.1f %12.1f %12.1f\n' "tools/call sequential p50 (us)" "$mcp_p50" "$mcpu_p50" "$peer_p50" "$floor_p50"
printf '%-44s %12.1f %12.1f %12.1f %12.1f\n' "tools/call sequential p99 (us)" "$mcp_p99" "$mcpu_p99" "$peer_p99" "$floor_p99"
printf '%-44s %12s %12s %12s\n' "MCP 2026-07-28" "mcpud" "" "TS SDK v2"
printf '%-44s %12.0f %12s %12.0f\n' "tools/call pipelined (calls/s)" "$modern_rps" "" "$peer2_rps"
printf '%-44s %12.1f %12s %12.1f\n' "tools/call sequential p50 (us)" "$modern_p50" "" "$peer2_p50"
echo "GOAL|MCP tools/call over stdio, pipelined (calls/s; peer: TypeScript SDK)|$mcpud_rps|$peer_rps|>= 10x the SDK (${pipe_ratio}x)|$(verdict "$pipe_ratio" ">=" 10)"
echo "GOAL|MCP tools/call over stdio, pipelined, against the floor (calls/s)|$mcpud_rps|floor $floor_rps, SDK $peer_rps|reported ($(ratio "$mcpud_rps" "$floor_rps") of the floor; 10x the SDK is $(ratio "$(awk -v p="$peer_rps" 'BEGIN { print 10 * p }')" "$floor_rps") of it)|reported"
echo "GOAL|MCP tools/call sequential p50 over stdio (us; floor: MCP/U gpio_write)|$mcp_p50|$mcpu_p50|<= 1.5x MCP/U (${p50_ratio}x)|$(verdict "$p50_ratio" "<=" 1.5)"
echo "GOAL|MCP 2026-07-28 tools/call over stdio, pipelined (calls/s; peer: TypeScript SDK v2)|$modern_rps|$peer2_rps|>= 10x the SDK v2 (${modern_ratio}x)|$(verdict "$modern_ratio" ">=" 10)"

# A modern call against a legacy one, in instructions (wall-clock time varies more than the difference).
if [[ ${BENCH_INSTRUCTIONS:-1} != 0 ]] && command -v valgrind >/dev/null; then
  counts=$(COUNT_LINES="mcp mcp-modern" COUNT_N1=${COUNT_N1:-1000} COUNT_N2=${COUNT_N2:-2000} \
    "$here/count-instructions.sh" "$build_dir")
  echo "$counts"
  legacy=$(sed -n 's/^INSTRUCTIONS line=mcp per_request=\([0-9]*\).*/\1/p' <<<"$counts")
  modern=$(sed -n 's/^INSTRUCTIONS line=mcp-modern per_request=\([0-9]*\).*/\1/p' <<<"$counts")
  instructions_ratio=$(ratio "$modern" "$legacy")
  echo "GOAL|instructions of an MCP 2026-07-28 tools/call against a 2025-11-25 one (callgrind)|$modern|$legacy|<= 1.2x (${instructions_ratio}x)|$(verdict "$instructions_ratio" "<=" 1.2)"
fi
