#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures one tool call (gpio_read) served through the ##START services uplink next to the
# same call over MCP/U on direct TCP, against the same mcpud in the same run, plus the
# daemon's RSS with the uplink connected. Reports figures; never fails on them.
#
# usage: tests/bench/run-services-bench.sh BUILD_DIR
# knobs (environment):
#   BENCH_ROUNDS  rounds, alternating which path goes first (default 3); the table shows medians
#   BENCH_ARGS    extra mcpud-services-bench options, e.g. "--requests 5000 --burst 50000"
#
# mcpud runs tests/bench/bench.toml (no sampled pins) plus [uplink.services] pointed at
# mcpud-services-bench, which listens on a loopback port it picks, plays the server (reads
# AUTH and register, sends calls) and also connects to mcpud's TCP port for the floor.
set -euo pipefail

build_dir=${1:?usage: run-services-bench.sh BUILD_DIR}
loadgen=$build_dir/tests/bench/mcpud-loadgen
bench=$build_dir/tests/bench/mcpud-services-bench
daemon=$build_dir/daemon/mcpud
rounds=${BENCH_ROUNDS:-3}

for tool in "$loadgen" "$bench" "$daemon"; do
  [[ -x $tool ]] || { echo "run-services-bench: $tool is missing (configure with -DMCPUD_BUILD_BENCH=ON and build it)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpud-services-bench.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs), $(date -u '+%Y-%m-%d %H:%M UTC')"
tcp_port=$("$loadgen" --free-port)
: >"$work/bench.out" # exists before the first look below
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options on purpose
"$bench" --tcp-port "$tcp_port" --pid-file "$work/mcpud.pid" --rounds "$rounds" ${BENCH_ARGS:-} >"$work/bench.out" 2>&1 &
pids+=($!)
uplink_port=
for ((try = 0; try < 50; try++)); do
  uplink_port=$(awk '/^LISTENING port=/ { sub(/.*=/, ""); print }' "$work/bench.out")
  [[ -n $uplink_port ]] && break
  kill -0 "${pids[0]}" 2>/dev/null || break
  sleep 0.1
done
[[ -n $uplink_port ]] || { cat "$work/bench.out" >&2; exit 1; }

{
  cat "$(dirname "$0")/bench.toml"
  printf '\n[uplink.services]\nserver = "127.0.0.1:%s"\ntoken = "bench"\nmax_calls_in_flight = 1024\n' "$uplink_port"
} >"$work/mcpud.toml"
"$daemon" --config "$work/mcpud.toml" --listen "127.0.0.1:$tcp_port" --dbus=none >"$work/mcpud.log" 2>&1 &
pids+=($!)
echo "${pids[1]}" >"$work/mcpud.pid.new" && mv "$work/mcpud.pid.new" "$work/mcpud.pid"

tail -n +2 -f --pid="${pids[0]}" "$work/bench.out" &
status=0
wait "${pids[0]}" || status=$?
wait $! 2>/dev/null || true
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((status != 0)); then
  echo "run-services-bench: mcpud-services-bench exited with status $status; mcpud's log:" >&2
  tail -n 20 "$work/mcpud.log" >&2
  exit 1
fi
