#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures mcpud against a bare line-echo server in the same run and prints the comparison with
# the budgets in docs/PERFORMANCE.md. Reports figures; never fails on them.
#
# usage: tests/bench/run-bench.sh BUILD_DIR
# knobs (environment):
#   BENCH_ARGS    extra mcpud-loadgen sizing options for every run, e.g. "--requests 50000"
#   BENCH_ROUNDS  rounds of echo and mcpud runs, interleaved (ABBA order) so drift hits both;
#                 the table shows the median over rounds (default 5)
#   BENCH_HOLD    connections for the memory-under-load test (default 1000, 0 skips it)
#
# mcpud runs twice: "mcpud" is the daemon as shipped (no --config: the built-in simulated board,
# whose sampled pins wake it on purpose, and at most 256 clients), measured for latency,
# throughput and idle RSS; "mcpud-bench" runs tests/bench/bench.toml (no sampled pins, up to 1100
# clients) for the idle wake-ups and the 1000-client memory figures.
#   BENCH_IDLE    seconds each idle server is watched for wake-ups (default 2)
#   BENCH_PIN     CPU placement, the same for both servers (needs taskset and 2+ CPUs):
#                   split (default) server on CPU 0; the sequential client on CPU 0 too, the
#                           pipelined and hold clients on CPU 1
#                   apart   server on CPU 0, every client on CPU 1
#                   off     no pinning
#                 Why split: in a VM, waking another vCPU can cost more than the whole request,
#                 which would hide the server's own per-request cost inside the floor.
#   BENCH_SELF_CHECK=1  measures a second echo server (label echo2) where mcpud would be: the
#                 ratios should then sit near 1.00x, which shows the noise of the tool itself
#   BENCH_GOALS   1 (default): once the servers above are stopped, runs goals_bench.py (sampling,
#                 bridged call, start-up), run-gpio-sim-bench.sh (sampling gpio-sim lines in a QEMU
#                 guest) and run-mcp-bench.sh (MCP against the TypeScript SDK) when
#                 it is there, and ends with one table of every goal of docs/PERFORMANCE.md from the
#                 GOAL|what|figure|peer or floor|goal|met lines they and this script print; 0 skips them
set -euo pipefail

build_dir=${1:?usage: run-bench.sh BUILD_DIR}
loadgen=$build_dir/tests/bench/mcpud-loadgen
daemon=$build_dir/daemon/mcpud
bench_args=${BENCH_ARGS:-}
rounds=${BENCH_ROUNDS:-5}
hold_connections=${BENCH_HOLD:-1000}
idle_seconds=${BENCH_IDLE:-2}
placement=${BENCH_PIN:-split}

if [[ ! -x $loadgen ]]; then
  echo "run-bench: $loadgen not built (configure with -DMCPUD_BUILD_BENCH=ON)" >&2
  exit 1
fi
if ! [[ $rounds =~ ^[0-9]+$ ]] || ((rounds < 1 || rounds > 20)); then
  echo "run-bench: BENCH_ROUNDS must be 1..20" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpud-bench.XXXXXX")
server_pids=()

cleanup_servers() {
  local pid
  for pid in "${server_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${server_pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  server_pids=()
}

cleanup() {
  cleanup_servers
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server_cpu=() seq_cpu=() pipe_cpu=()
if [[ $placement != off ]] && command -v taskset >/dev/null && (($(nproc) >= 2)); then
  server_cpu=(taskset -c 0)
  pipe_cpu=(taskset -c 1)
  seq_cpu=(taskset -c 1)
  [[ $placement == split ]] && seq_cpu=(taskset -c 0)
else
  placement=off
fi

# Waits (at most 5 s) until PORT accepts connections, failing early if PID has died.
wait_for_port() {
  local port=$1 pid=$2 try
  for ((try = 0; try < 50; try++)); do
    kill -0 "$pid" 2>/dev/null || return 1
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# Context switches summed over every thread of PID: each one is a wake-up.
context_switches() {
  { cat /proc/"$1"/task/*/status 2>/dev/null || true; } |
    awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}

# Sets cpu_machine (user + system ticks of the whole machine since boot), cpu_steal (ticks the
# hypervisor gave to others) and cpu_own (ticks of this script's reaped children plus the running
# servers). Call it directly, not in $(...): a subshell would not see our children's times.
sample_cpu() {
  times >"$work/times"
  local pid servers=0
  for pid in "${server_pids[@]}"; do
    servers=$((servers + $(awk '{ print $14 + $15 }' /proc/"$pid"/stat 2>/dev/null || echo 0)))
  done
  cpu_machine=$(awk '$1 == "cpu" { print $2 + $3 + $4 }' /proc/stat)
  cpu_steal=$(awk '$1 == "cpu" { print $9 }' /proc/stat)
  cpu_own=$(awk -v hz="$(getconf CLK_TCK)" -v servers="$servers" 'NR == 2 {
      for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] }
      print int(n * hz + 0.5) + servers }' "$work/times")
}

# Prints how much of the machine other processes (and the hypervisor) took since sample_cpu set
# the start_* values: every figure is skewed by that much competition.
report_foreign_cpu() {
  sample_cpu
  awk -v hz="$(getconf CLK_TCK)" -v cpus="$(nproc)" -v seconds=$((SECONDS - start_seconds)) \
    -v foreign=$((cpu_machine - start_machine - (cpu_own - start_own))) \
    -v steal=$((cpu_steal - start_steal)) 'BEGIN {
      capacity = (seconds > 0 ? seconds : 1) * hz * cpus / 100
      printf "other processes used %.0f%% of the CPUs during the run, the hypervisor stole %.0f%%",
        (foreign > 0 ? foreign : 0) / capacity, steal / capacity
      if ((foreign + steal) / capacity > 5) printf " (figures disturbed)"
      print ""
    }'
}

# A /proc/PID/status field in kB (VmRSS, VmHWM).
memory_kb() {
  awk -v key="$2:" '$1 == key { print $2 }' /proc/"$1"/status
}

# "rss_kb=.. pss_kb=.. private_dirty_kb=..": resident, proportional (shared pages divided among
# their users) and private dirty memory (what the process itself wrote: heap, stacks, data).
memory_fields() {
  local pid=$1
  echo "rss_kb=$(memory_kb "$pid" VmRSS)" "$(awk '$1 == "Pss:" { p = $2 } $1 == "Private_Dirty:" { d = $2 }
      END { printf "pss_kb=%s private_dirty_kb=%s", p == "" ? "n/a" : p, d == "" ? "n/a" : d }' \
    /proc/"$pid"/smaps_rollup 2>/dev/null)"
}

# Median of KEY over the lines of the results file that start with KIND and LABEL (and TEST
# for RESULT lines); "n/a" when there are none.
median_of() {
  local kind=$1 label=$2 test=$3 key=$4
  awk -v kind="$kind" -v label="label=$label" -v test="test=$test" -v key="$key" '
    $1 == kind && $2 == label && (test == "test=" || $3 == test) {
      for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) values[n++] = kv[2] + 0 }
    }
    END {
      if (n == 0) { print "n/a"; exit }
      for (i = 1; i < n; i++)  # insertion sort: n is the number of rounds
        for (j = i; j > 0 && values[j - 1] > values[j]; j--) {
          t = values[j]; values[j] = values[j - 1]; values[j - 1] = t
        }
      m = n % 2 ? values[(n - 1) / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
      print (m == int(m) ? m : sprintf("%.1f", m))
    }' "$work/results"
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'
}

# Starts a server command in the background on a free port; sets started_pid and started_port.
# @PORT@ in the command is replaced by the port.
start_server() {
  local name=$1
  shift
  started_port=$("$loadgen" --free-port)
  local args=("${@//@PORT@/$started_port}")
  "${server_cpu[@]}" "${args[@]}" >"$work/$name.log" 2>&1 &
  started_pid=$!
  server_pids+=("$started_pid")
  if ! wait_for_port "$started_port" "$started_pid"; then
    echo "run-bench: $name did not come up on 127.0.0.1:$started_port; its log:" >&2
    tail -n 20 "$work/$name.log" >&2
    exit 1
  fi
}

# Watches an idle server: its RSS and how often it woke up in idle_seconds.
measure_idle() {
  local name=$1 pid=$2 before after
  sleep 0.5 # let the readiness probe's connection settle
  before=$(context_switches "$pid")
  sleep "$idle_seconds"
  after=$(context_switches "$pid")
  echo "IDLE label=$name wakeups=$((after - before)) seconds=$idle_seconds" \
    "$(memory_fields "$pid")" | tee -a "$work/results"
}

# Says so, with the server's last log lines, when a server has gone away mid-run.
report_if_gone() {
  local name=$1 pid=$2 status=0
  kill -0 "$pid" 2>/dev/null && return 0
  wait "$pid" || status=$?
  echo "run-bench: $name (pid $pid) has exited with status $status; its log:" >&2
  tail -n 20 "$work/$name.log" >&2
}

# One loadgen run (one test) against one server; extra arguments go to the loadgen.
run_test() {
  local name=$1 port=$2 pid=$3 test=$4
  shift 4
  local cpu=("${seq_cpu[@]}")
  [[ $test == pipelined ]] && cpu=("${pipe_cpu[@]}")
  # shellcheck disable=SC2086  # BENCH_ARGS is a list of options on purpose
  if ! "${cpu[@]}" "$loadgen" --port "$port" --label "$name" --tests "$test" "$@" $bench_args |
    tee -a "$work/results"; then
    echo "run-bench: $test test against $name failed" >&2
    report_if_gone "$name" "$pid"
  fi
}

# Holds hold_connections idle connections (each after one round trip) and samples the RSS;
# extra arguments go to the loadgen.
measure_hold() {
  local name=$1 port=$2 pid=$3
  shift 3
  ((hold_connections > 0)) || return 0
  echo "== $name: $hold_connections connections held"
  local out=$work/$name.hold
  : >"$out" # exists before the first look below
  "${pipe_cpu[@]}" "$loadgen" --port "$port" --label "$name" --tests hold \
    --hold-connections "$hold_connections" --hold-seconds 3 "$@" >"$out" 2>&1 &
  local client=$! try memory="rss_kb=n/a"
  for ((try = 0; try < 300; try++)); do
    if grep -q "^RESULT label=$name test=hold" "$out"; then
      memory=$(memory_fields "$pid")
      break
    fi
    kill -0 "$client" 2>/dev/null || break
    sleep 0.1
  done
  wait "$client" || true
  cat "$out"
  echo "HOLD label=$name connections=$hold_connections $memory" | tee -a "$work/results"
}

print_row() {
  printf '%-30s %12s %12s %11s   %s\n' "$@"
}

# One table row: the medians of KEY for echo and for LABEL (default the target), and their ratio.
compare_row() {
  local title=$1 kind=$2 test=$3 key=$4 budget=$5 with_ratio=${6:-1} label=${7:-$target} e t r=""
  e=$(median_of "$kind" echo "$test" "$key")
  t=$(median_of "$kind" "$label" "$test" "$key")
  ((with_ratio)) && r=$(ratio "$t" "$e")
  print_row "$title" "$e" "$t" "$r" "$budget"
}

# One goal of docs/PERFORMANCE.md: GOAL|what|figure|peer or floor|goal|met, not met or reported
# (MET is 1, 0 or -), kept for the goals table at the end.
goal_line() {
  local what=$1 figure=$2 floor=$3 budget=$4 met=$5 outcome="not met"
  [[ $met == 1 ]] && outcome=met
  [[ $met == - ]] && outcome=reported
  echo "GOAL|$what|$figure|$floor|$budget|$outcome" | tee -a "$work/goals"
}

# Whether awk's CONDITION holds for a and b (numbers); 0 when either is n/a.
holds() {
  awk -v a="$1" -v b="$2" "BEGIN { print (a + 0 == a && b + 0 == b && ($3)) ? 1 : 0 }"
}

# This script's own goals, from the medians of the results.
own_goals() {
  ((have_target)) || return 0
  local e t
  e=$(median_of RESULT echo sequential p50_us) t=$(median_of RESULT "$target" sequential p50_us)
  goal_line "MCP/U sequential p50 over TCP" "$t us ($(ratio "$t" "$e"))" "echo $e us" "<= 1.15x echo" \
    "$(holds "$t" "$e" "a <= 1.15 * b")"
  e=$(median_of RESULT echo sequential p99_us) t=$(median_of RESULT "$target" sequential p99_us)
  goal_line "MCP/U sequential p99 over TCP" "$t us ($(ratio "$t" "$e"))" "echo $e us" "<= 1.3x echo" \
    "$(holds "$t" "$e" "a <= 1.3 * b")"
  e=$(median_of RESULT echo pipelined rps) t=$(median_of RESULT "$target" pipelined rps)
  goal_line "MCP/U pipelined over TCP (16 x 64)" "$t req/s" "echo $e req/s" ">= 600000/s" \
    "$(holds "$t" 600000 "a >= b")"
  # PSS and private dirty memory idle are goals_bench.py's (a daemon alone: here two share pages).
  local rss
  rss=$(median_of IDLE "$quiet" "" rss_kb) e=$(median_of IDLE echo "" rss_kb)
  goal_line "idle RSS, bench.toml" "$rss kB" "echo $e kB" "" -
  if ((hold_connections > 0)); then
    rss=$(median_of HOLD "$quiet" "" rss_kb) e=$(median_of HOLD echo "" rss_kb)
    goal_line "RSS with $hold_connections clients, bench.toml" "$rss kB" "echo $e kB" "< 24576 kB" \
      "$(holds "$rss" 24576 "a < b")"
    goal_line "  private dirty with $hold_connections clients" \
      "$(median_of HOLD "$quiet" "" private_dirty_kb) kB" "echo $(median_of HOLD echo "" private_dirty_kb) kB" \
      "" -
  fi
}

# The GOAL lines of another benchmark script, when it exists (run-mcp-bench.sh: MCP over stdio
# against the TypeScript SDK; goals_bench.py: sampling, bridge, start-up; run-gpio-sim-bench.sh:
# sampling gpio-sim lines).
collect_goals() {
  local script=$1 name
  shift
  name=$(basename "$script")
  if [[ ! -x $script ]]; then
    echo "run-bench: $name not present; its goals are left out of the table" >&2
    return 0
  fi
  echo "== $name"
  if ! "$script" "$@" | tee "$work/$name.out"; then
    echo "run-bench: $name failed; its goals so far are kept" >&2
  fi
  grep '^GOAL|' "$work/$name.out" >>"$work/goals" || true
}

# Every goal collected, one row each.
print_goals() {
  [[ -s $work/goals ]] || return 0
  echo
  echo "== goals of docs/PERFORMANCE.md, $(date -u '+%Y-%m-%d %H:%M UTC')"
  awk -F'|' '{ printf "%-50s %-24s %-28s %-20s %s\n", $2, $3, $4, $5, $6 }
    BEGIN { printf "%-50s %-24s %-28s %-20s %s\n", "goal", "mcpud", "peer or floor", "budget", "" }' \
    "$work/goals"
}

print_table() {
  echo
  echo "== comparison: medians of $rounds round(s); $(nproc) CPUs, placement $placement," \
    "$(date -u '+%Y-%m-%d %H:%M UTC')"
  report_foreign_cpu
  print_row "" echo "$target" "$target/echo" "budget (for mcpud)"
  compare_row "sequential p50 (us)" RESULT sequential p50_us "ratio <= 1.5x"
  compare_row "sequential p99 (us)" RESULT sequential p99_us ""
  compare_row "sequential req/s" RESULT sequential rps ""
  compare_row "pipelined req/s" RESULT pipelined rps ">= 300000"
  compare_row "idle wake-ups in ${idle_seconds} s" IDLE "" wakeups "0 (no periodic wake-ups)" 0 \
    "$quiet"
  if [[ $quiet != "$target" ]]; then
    compare_row "  same, built-in board" IDLE "" wakeups "(its sampling timers)" 0
  fi
  compare_row "idle RSS (kB)" IDLE "" rss_kb "< 8192" 0
  compare_row "RSS, $hold_connections clients (kB)" HOLD "" rss_kb "< 32768" 0 "$quiet"
  compare_row "peak RSS after load (kB)" PEAK "" hwm_kb "" 0
  if [[ $quiet != "$target" ]]; then
    echo "(idle wake-ups and RSS with $hold_connections clients: $quiet, tests/bench/bench.toml;" \
      "the rest: $target, the built-in board)"
  fi
}

: >"$work/results"
# Other work on the machine skews every figure: count what it takes from here on.
sample_cpu
start_machine=$cpu_machine start_steal=$cpu_steal start_own=$cpu_own start_seconds=$SECONDS
start_server echo "$loadgen" --echo-server @PORT@ --server-seconds 3600
echo_pid=$started_pid echo_port=$started_port

# Each held connection and each server needs a descriptor; ask for room if the limit is tight.
if (($(ulimit -n) < hold_connections + 100)); then
  ulimit -n $((hold_connections + 100)) 2>/dev/null ||
    echo "run-bench: open-file limit $(ulimit -n) is below $hold_connections connections" >&2
fi

# The target is what gets compared with the echo floor: mcpud, or a second echo server. The quiet
# server is the one watched idle and loaded with many clients (see the top of this file).
target=mcpud have_target=1 target_args=()
if [[ ${BENCH_SELF_CHECK:-0} == 1 ]]; then
  target=echo2
  start_server echo2 "$loadgen" --echo-server @PORT@ --server-seconds 3600
  quiet=echo2 quiet_pid=$started_pid quiet_port=$started_port
elif [[ -x $daemon ]]; then
  start_server mcpud-bench "$daemon" --config "$(dirname "$0")/bench.toml" \
    --listen 127.0.0.1:@PORT@ --dbus none --unix ""
  quiet=mcpud-bench quiet_pid=$started_pid quiet_port=$started_port
  start_server mcpud "$daemon" --listen 127.0.0.1:@PORT@
  # The daemon must answer gpio_write with a result; fast error replies would flatter it, and
  # a client refused over the limit must not count as held.
  target_args=(--expect '"result"')
else
  echo "run-bench: $daemon not built; measuring the echo server only" >&2
  have_target=0
fi
target_pid=$started_pid target_port=$started_port

measure_idle echo "$echo_pid"
if ((have_target)); then
  [[ $quiet != "$target" ]] && measure_idle "$quiet" "$quiet_pid"
  measure_idle "$target" "$target_pid"
fi

run_target() {
  ((have_target)) || return 0
  run_test "$target" "$target_port" "$target_pid" "$1" "${target_args[@]}"
}

for ((round = 1; round <= rounds; round++)); do
  echo "== round $round of $rounds"
  for test in sequential pipelined; do
    if ((round % 2)); then
      run_test echo "$echo_port" "$echo_pid" "$test"
      run_target "$test"
    else
      run_target "$test"
      run_test echo "$echo_port" "$echo_pid" "$test"
    fi
  done
done
echo "PEAK label=echo hwm_kb=$(memory_kb "$echo_pid" VmHWM)" | tee -a "$work/results"
((have_target)) && echo "PEAK label=$target hwm_kb=$(memory_kb "$target_pid" VmHWM)" |
  tee -a "$work/results"

measure_hold echo "$echo_port" "$echo_pid"
((have_target)) && measure_hold "$quiet" "$quiet_port" "$quiet_pid" "${target_args[@]}"

print_table
: >"$work/goals"
own_goals
# BENCH_GOALS=0 leaves out the other scripts (they take a few minutes).
if [[ ${BENCH_GOALS:-1} == 1 && ${BENCH_SELF_CHECK:-0} != 1 ]]; then
  # Stop the servers first: the other benchmarks want the CPUs to themselves.
  cleanup_servers
  bench_dir=$(dirname "$0")
  collect_goals "$bench_dir/goals_bench.py" "$build_dir"
  collect_goals "$bench_dir/run-gpio-sim-bench.sh" "$build_dir"
  collect_goals "$bench_dir/run-mcp-bench.sh" "$build_dir"
fi
print_goals
