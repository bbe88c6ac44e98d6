#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Idle wake-ups of mcpud: context switches of every thread over --seconds,
for bench.toml as it is, for bench.toml with every safety limit configured
(leases, time limits, rate, interlocks, approval), and for the latter after a
client drove two outputs and left (their release must leave no timer behind).
Each should be 0: timers run only while an output is away from its safe value.

usage: tests/bench/idle_wakeups.py BUILD_DIR [--seconds N]
Prints one line per case: IDLE case=... wakeups=N seconds=S
"""
import argparse
import os
import socket
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

SAFETY = """
[[pins]]
name = "heater"
pin = 50
type = "digital_output"
safe_value = false
max_on_ms = 600000
min_off_ms = 60000
lease_ms = 30000
max_writes_per_s = 2
confirm = true

[[pins]]
name = "valve"
pin = 51
type = "digital_output"
safe_value = false

[[pins]]
name = "pump"
pin = 52
type = "digital_output"
safe_value = false
requires = "valve"
exclusive_with = ["heater"]

[safety]
confirm_tools = ["pwm_write"]
"""


def context_switches(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            total += sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
    return total


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def drive_and_leave(port):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        reader = sock.makefile("rb")
        for rid, pin in ((1, 51), (2, 52)):
            sock.sendall(f'{{"jsonrpc":"2.0","id":{rid},"method":"gpio_write","params":{{"pin":{pin},"value":true}}}}\n'
                         .encode())
            if b'"result"' not in reader.readline():
                raise SystemExit(f"idle_wakeups: the write of pin {pin} failed")


def measure(mcpud, config, seconds, drive):
    port = free_port()
    daemon = subprocess.Popen([mcpud, "--config", config, "--listen", f"127.0.0.1:{port}", "--unix", "",
                               "--dbus", "none", "--log-level", "warn"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("idle_wakeups: mcpud did not start")
                time.sleep(0.05)
        if drive:
            drive_and_leave(port)
        time.sleep(3)  # what the start or the client left settles (the heap trim a second after)
        before = context_switches(daemon.pid)
        time.sleep(seconds)
        return context_switches(daemon.pid) - before
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    mcpud = os.path.join(args.build, "daemon", "mcpud")
    bench = os.path.join(HERE, "bench.toml")
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as safety:
        with open(bench) as base:
            safety.write(base.read() + SAFETY)
    try:
        for case, config, drive in (("bench.toml", bench, False), ("with-safety-limits", safety.name, False),
                                    ("after-a-client-drove-outputs-and-left", safety.name, True)):
            wakeups = measure(mcpud, config, args.seconds, drive)
            print(f"IDLE case={case} wakeups={wakeups} seconds={args.seconds:g}", flush=True)
    finally:
        os.unlink(safety.name)


if __name__ == "__main__":
    main()
