#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sampling 8 gpio-sim lines at 1 kHz: gpio-sim needs its kernel module and configfs,
# which a benchmark machine rarely has, so this boots the kernel of the kernel-in-the-
# loop test (tests/kernel, built once and cached) in QEMU and measures there, beside the
# same 8 pins on the simulated board, the 8 sim ADC pins of goals_bench.py and an idle
# daemon, all in the same guest (tests/bench/gpio-sim-sampling-init.sh). QEMU emulates
# the CPU (no KVM), which makes every figure several times the host's; what carries over
# is the ratio of the gpio-sim lines to the sim pins measured beside them. Prints the
# figures and GOAL lines; never fails on the figures.
#
# usage: tests/bench/run-gpio-sim-bench.sh BUILD_DIR
# knobs (environment): BENCH_SAMPLING_SECONDS (default 10), the measurement of each daemon.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build_dir=$(realpath "${1:?usage: run-gpio-sim-bench.sh BUILD_DIR}")
seconds=${BENCH_SAMPLING_SECONDS:-10}
[[ $seconds =~ ^[0-9]+$ ]] && ((seconds >= 1 && seconds <= 600)) ||
  { echo "run-gpio-sim-bench: BENCH_SAMPLING_SECONDS must be 1..600" >&2; exit 1; }
for binary in daemon/mcpud tests/kernel/kernel-client; do
  [[ -x $build_dir/$binary ]] || { echo "run-gpio-sim-bench: $build_dir/$binary not built" >&2; exit 1; }
done

work=$build_dir/kernel-test
mkdir -p "$work"
echo "== sampling 8 gpio-sim lines at 1 kHz, in a QEMU guest (emulated CPU), ${seconds} s per daemon"
KERNEL_TEST_APPEND="bench.seconds=$seconds" "$here/../kernel/run-kernel-test.sh" "$work" \
  "$here/../kernel/mcpud-test.config" "$build_dir/daemon/mcpud" "$build_dir/tests/kernel/kernel-client" \
  "$here/gpio-sim-sampling-init.sh" any gpio-sim-sampling >&2 || {
  echo "run-gpio-sim-bench: the guest did not finish its measurements; log: $work/gpio-sim-sampling.log" >&2
  exit 1
}
results=$(tr -d '\r' <"$work/gpio-sim-sampling.log" | grep '^BENCH ')
echo "$results"

# field LABEL KEY: KEY's value on LABEL's BENCH line.
field() { awk -v label="$1" -v key="$2" '$2 == "label=" label {
  for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] } }' <<<"$results"; }
floor=$(awk -v a="$(field floor cpu_pct)" -v b="$(field floor_after cpu_pct)" 'BEGIN { printf "%.2f", (a + b) / 2 }')
added() { awk -v c="$(field "$1" cpu_pct)" -v f="$floor" 'BEGIN { printf "%.2f", c - f }'; }
gpio=$(added gpio_sim) sim=$(added sim_digital) adc=$(added sim_adc)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo "added over the idle daemon (${floor} %): gpio-sim lines ${gpio} %, the same pins simulated ${sim} %," \
  "the host benchmark's sim ADC pins ${adc} %"
echo "GOAL|sampling 8 gpio-sim lines at 1 kHz: CPU, emulated guest|+${gpio}% ($(ratio "$gpio" "$adc")x the sim ADC pins)|sim ADC +${adc}%, sim inputs +${sim}%|< 3% (host: the sim ADC figure x the ratio)|reported"
echo "GOAL|sampling 8 gpio-sim lines at 1 kHz: samples lost, emulated guest|$(field gpio_sim lost)|$(field gpio_sim taken) taken|0|reported"
