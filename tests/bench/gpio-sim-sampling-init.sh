#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the sampling benchmark guest (run-gpio-sim-bench.sh boots it in QEMU):
# the CPU mcpud takes to sample 8 pins at 1 kHz, on gpio-sim lines read through
# libgpiod, and beside it, in the same guest, on the simulated board (the same
# 8 digital inputs, and the 8 sine ADC pins of goals_bench.py's host
# measurement) and with no pins at all (the floor). Each daemon runs alone for
# bench.seconds=N (kernel command line, default 10) after a 2 s start; prints one
# "BENCH label=.. cpu_pct=.. taken=.. lost=.." line per daemon, KCHECK lines for
# run-kernel-test.sh and KTEST DONE.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/sbin
mkdir -p /proc /sys /dev /cfg /tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t configfs none /cfg
mount -t tmpfs tmp /tmp
ip link set lo up || ifconfig lo 127.0.0.1 up

result() { echo "KCHECK $1 $2${3:+: $3}"; }
finish() {
  echo "KTEST DONE"
  poweroff -f
}
SECONDS_MEASURED=$(sed -n 's/.*bench\.seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
SECONDS_MEASURED=${SECONDS_MEASURED:-10}
LINES="4 5 6 12 13 16 20 21"

# gpio-sim: one bank labelled like a Raspberry Pi 4's header chip, with the 8 lines named.
G=/cfg/gpio-sim/bench
mkdir $G $G/bank0
echo 32 > $G/bank0/num_lines
echo pinctrl-bcm2711 > $G/bank0/label
for n in $LINES; do mkdir $G/bank0/line$n; echo GPIO$n > $G/bank0/line$n/name; done
echo 1 > $G/live && result PASS gpio_sim_created || { result FAIL gpio_sim_created; finish; }

# config BOARD TYPE [SIM]: the 8 pins of LINES, sampled every 1 ms into 1000-sample buffers.
config() {
  printf 'device = "sampling-bench"\nboard = "%s"\nlisten = ["127.0.0.1:0"]\nlog_level = "info"\n' "$1"
  printf 'dbus = "none"\n'
  [ "$2" = none ] && return
  for n in $LINES; do
    printf '\n[[pins]]\nname = "p%s"\npin = %s\ntype = "%s"\n' "$n" "$n" "$2"
    printf 'sampling = { interval_ms = 1, buffer_size = 1000 }\n'
  done
}
# The host benchmark's pins (goals_bench.py): 8 sim ADC sines with thresholds.
adc_config() {
  printf 'device = "sampling-bench"\nboard = "sim"\nlisten = ["127.0.0.1:0"]\nlog_level = "info"\ndbus = "none"\n'
  for pin in 32 33 34 35 36 37 38 39; do
    printf '\n[[pins]]\nname = "adc%s"\npin = %s\ntype = "adc_input"\n' "$pin" "$pin"
    printf 'sim = { waveform = "sine", min = 100, max = 1000, period_ms = %s }\n' $((1000 + pin))
    printf 'sampling = { interval_ms = 1, buffer_size = 1000, thresholds = [200.0, 900.0], hysteresis = 20.0 }\n'
  done
}

ticks() { awk '{ print $14 + $15 }' /proc/"$1"/stat; }   # utime + stime, in 1/100 s
uptime_cs() { awk '{ printf "%d", $1 * 100 }' /proc/uptime; }
# summaries PORT PINS...: "pin samples latest_timestamp_ms", one line per pin, asked on
# one connection.
summaries() {
  port=$1; shift
  for pin in "$@"; do
    printf '{"jsonrpc":"2.0","id":%s,"method":"get_pin_summary","params":{"pin":%s}}\n' "$pin" "$pin"
  done | nc -w 1 127.0.0.1 "$port" |
    sed -n 's/.*"latest_timestamp_ms":\([0-9]*\).*"pin":\([0-9]*\),"samples":\([0-9]*\).*/\2 \3 \1/p'
}

# measure LABEL CONFIG-FILE PINS...: one daemon's CPU over SECONDS_MEASURED, and the
# samples it took and lost (ticks it skipped: the span of the timestamps against the count).
measure() {
  label=$1 file=$2; shift 2
  /usr/sbin/mcpud --config "$file" --unix "" > /tmp/$label.log 2>&1 &
  pid=$!
  n=600
  while ! grep -q "listening on 127.0.0.1:" /tmp/$label.log && kill -0 $pid 2>/dev/null && [ $n -gt 0 ]; do
    usleep 50000; n=$((n - 1))
  done
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' /tmp/$label.log | head -n1)
  [ -n "$port" ] || { result FAIL "${label}_started" "$(cat /tmp/$label.log)"; kill $pid; return; }
  sleep 2
  before=$(summaries "$port" "$@")
  t0=$(ticks $pid) u0=$(uptime_cs)
  sleep "$SECONDS_MEASURED"
  t1=$(ticks $pid) u1=$(uptime_cs)
  after=$(summaries "$port" "$@")
  kill $pid; wait $pid
  counts=$(printf '%s\n' "$before" | AFTER="$after" awk '
    { s[$1] = $2; t[$1] = $3 }
    END {
      n = split(ENVIRON["AFTER"], lines, "\n")
      for (i = 1; i <= n; i++) {
        split(lines[i], f, " ")
        if (!(f[1] in s)) continue
        taken += f[2] - s[f[1]]; skipped = (f[3] - t[f[1]]) - (f[2] - s[f[1]]) - 1
        if (skipped > 0) lost += skipped
        pins++
      }
      printf "taken=%d lost=%d pins=%d", taken, lost, pins
    }')
  cpu=$(awk -v t=$((t1 - t0)) -v u=$((u1 - u0)) 'BEGIN { printf "%.2f", (u > 0 ? 100 * t / u : 0) }')
  echo "BENCH label=$label cpu_pct=$cpu $counts seconds=$(((u1 - u0) / 100))"
  result PASS "${label}_measured" "$cpu % of the CPU, $counts"
}

config sim none > /tmp/floor.toml
config sim digital_input > /tmp/sim.toml
adc_config > /tmp/sim-adc.toml
config raspberrypi digital_input > /tmp/gpio-sim.toml
# The floor first and last: the guest's own noise, before and after.
measure floor /tmp/floor.toml
measure sim_digital /tmp/sim.toml $LINES
measure gpio_sim /tmp/gpio-sim.toml $LINES
measure sim_adc /tmp/sim-adc.toml 32 33 34 35 36 37 38 39
measure floor_after /tmp/floor.toml
finish
