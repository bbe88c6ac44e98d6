#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures one tool call (gpio_write) through a mosquitto broker (MQTT fleet mode)
# next to the same call over direct TCP, against the same mcpud in the same run,
# and prints the comparison. Reports figures; never fails on them.
#
# usage: tests/bench/run-mqtt-bench.sh BUILD_DIR
# knobs (environment):
#   BENCH_ROUNDS  rounds, alternating which path goes first (default 3); the table shows medians
#   BENCH_WINDOW  requests kept in flight in the pipelined runs, on both paths (default 64)
#   BENCH_MQTT_VERSION  the device's own connection: 5 (default) or 3.1.1; the requester is MQTT 5
#
# The mcpud runs tests/bench/bench.toml (no sampled pins) plus [uplink.fleet]; the broker is
# /usr/sbin/mosquitto (persistence off, set_tcp_nodelay true) on a free loopback port. Both paths carry
# the same JSON-RPC line; through the broker it is one QoS 1 request and one QoS 1 reply
# (PUBLISH + PUBACK each way on both legs) matched by MQTT 5 correlation data.
set -euo pipefail

build_dir=${1:?usage: run-mqtt-bench.sh BUILD_DIR}
loadgen=$build_dir/tests/bench/mcpud-loadgen
mqtt_bench=$build_dir/tests/bench/mcpud-mqtt-bench
daemon=$build_dir/daemon/mcpud
rounds=${BENCH_ROUNDS:-3}
window=${BENCH_WINDOW:-64}
version=${BENCH_MQTT_VERSION:-5}
broker=/usr/sbin/mosquitto

for tool in "$loadgen" "$mqtt_bench" "$daemon" "$broker"; do
  [[ -x $tool ]] || { echo "run-mqtt-bench: $tool is missing (build the bench targets; install mosquitto)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpud-mqtt-bench.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_port() {
  local port=$1 pid=$2 try
  for ((try = 0; try < 50; try++)); do
    kill -0 "$pid" 2>/dev/null || return 1
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

broker_port=$("$loadgen" --free-port)
{
  [[ $(id -u) == 0 ]] && echo "user root"
  echo "persistence false"
  echo "listener $broker_port 127.0.0.1"
  echo "allow_anonymous true"
  echo "set_tcp_nodelay true" # without it the broker's PUBACK and PUBLISH wait on delayed ACKs (40 ms)
} >"$work/mosquitto.conf"
"$broker" -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
wait_for_port "$broker_port" "${pids[-1]}" || { cat "$work/mosquitto.log" >&2; exit 1; }

tcp_port=$("$loadgen" --free-port)
{
  cat "$(dirname "$0")/bench.toml"
  printf '\n[uplink.fleet]\nbroker = "127.0.0.1:%s"\nmqtt_version = "%s"\nmax_in_flight = 4096\n' \
    "$broker_port" "$version"
} >"$work/mcpud.toml"
"$daemon" --config "$work/mcpud.toml" --listen "127.0.0.1:$tcp_port" --dbus=none >"$work/mcpud.log" 2>&1 &
pids+=($!)
wait_for_port "$tcp_port" "${pids[-1]}" || { cat "$work/mcpud.log" >&2; exit 1; }
for ((try = 0; try < 50; try++)); do
  grep -q "\[fleet\] connected" "$work/mcpud.log" && break
  sleep 0.1
done

: >"$work/results"
run_tcp() {
  "$loadgen" --port "$tcp_port" --label tcp --tests sequential,pipelined --requests 5000 --warmup 500 \
    --connections 1 --window "$window" --seconds 3 --expect '"result"' | tee -a "$work/results"
}
run_mqtt() {
  "$mqtt_bench" --port "$broker_port" --device mcpud-bench --label mqtt --requests 5000 --warmup 500 \
    --window "$window" --seconds 3 | tee -a "$work/results"
}
for ((round = 1; round <= rounds; round++)); do
  echo "== round $round of $rounds"
  if ((round % 2)); then run_tcp; run_mqtt; else run_mqtt; run_tcp; fi
done

median() { # LABEL TEST KEY
  awk -v label="label=$1" -v test="test=$2" -v key="$3" '
    $1 == "RESULT" && $2 == label && $3 == test {
      for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) v[n++] = kv[2] + 0 } }
    END { if (n == 0) { print "n/a"; exit }
      for (i = 1; i < n; i++) for (j = i; j > 0 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; print (m == int(m) ? m : sprintf("%.1f", m)) }' \
    "$work/results"
}
row() {
  local t m
  t=$(median tcp "$2" "$3") m=$(median mqtt "$2" "$3")
  printf '%-28s %12s %12s %10s\n' "$1" "$t" "$m" "$(awk -v a="$m" -v b="$t" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "n/a" }')"
}
echo
echo "== medians of $rounds round(s); $(nproc) CPUs; mosquitto $("$broker" -h 2>/dev/null | awk 'NR == 1 { print $3 }')," \
  "device on MQTT $version; $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-28s %12s %12s %10s\n' "" "direct TCP" "mosquitto" "mqtt/tcp"
row "sequential p50 (us)" sequential p50_us
row "sequential p99 (us)" sequential p99_us
row "sequential req/s" sequential rps
row "pipelined req/s (window $window)" pipelined rps
