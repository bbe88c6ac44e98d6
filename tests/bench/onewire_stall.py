#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# How long other clients wait while mcpud reads a 1-Wire thermometer. The
# thermometer's `temperature` is a FIFO in a fake sysfs tree, answered
# CONVERSION_MS after mcpud opens it (a DS18B20 at 12 bits: up to 750 ms). One
# client asks sensor_read; another pings every 10 ms meanwhile. Prints the
# pings' round trips and the sensor_read's. Reports figures; never fails on them.
#
# usage: tests/bench/onewire_stall.py MCPUD_BINARY [CONVERSION_MS] [ROUNDS]
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CONFIG = """board = "linux"
sysfs_root = "{root}"
[[pins]]
name = "tank"
pin = 130
type = "sensor_input"
onewire = {{ id = "28-00000a1b2c3d" }}
"""


def start(binary, root):
    path = os.path.join(root, "w1.toml")
    with open(path, "w") as f:
        f.write(CONFIG.format(root=root))
    daemon = subprocess.Popen([binary, "--config", path, "--listen", "127.0.0.1:0", "--dbus=none"], stderr=subprocess.PIPE, text=True)
    for line in daemon.stderr:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            threading.Thread(target=lambda: [None for _ in daemon.stderr], daemon=True).start()
            return daemon, int(found.group(1))
    raise SystemExit("mcpud did not start")


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.lines = self.sock.makefile("r")

    def send(self, id_, method, params=None):
        message = {"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}}
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def reply(self):
        return json.loads(self.lines.readline())


def feed_after_open(fifo, conversion_s, value):
    # open() for writing returns once mcpud opens the FIFO for reading: the
    # conversion starts then.
    with open(fifo, "w") as f:
        time.sleep(conversion_s)
        f.write(value + "\n")


def one_round(port, fifo, conversion_s):
    asker, pinger = Client(port), Client(port)
    feeder = threading.Thread(target=feed_after_open, args=(fifo, conversion_s, "21500"))
    feeder.start()
    started = time.perf_counter()
    asker.send(1, "sensor_read", {"name": "tank"})
    pings = []
    while feeder.is_alive():
        sent = time.perf_counter()
        pinger.send(2, "ping")
        pinger.reply()
        pings.append(time.perf_counter() - sent)
        time.sleep(0.01)
    reply = asker.reply()
    read_s = time.perf_counter() - started
    feeder.join()
    assert reply["result"]["value"] == 21.5, reply
    return pings, read_s


def main():
    binary = sys.argv[1]
    conversion_s = (int(sys.argv[2]) if len(sys.argv) > 2 else 750) / 1000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    with tempfile.TemporaryDirectory() as root:
        device = os.path.join(root, "bus/w1/devices/28-00000a1b2c3d")
        os.makedirs(device)
        fifo = os.path.join(device, "temperature")
        os.mkfifo(fifo)
        daemon, port = start(binary, root)
        try:
            all_pings, reads = [], []
            for _ in range(rounds):
                pings, read_s = one_round(port, fifo, conversion_s)
                all_pings += pings
                reads.append(read_s)
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)
    ms = sorted(p * 1000 for p in all_pings)
    print(f"conversion {conversion_s * 1000:.0f} ms, {rounds} rounds, {len(ms)} pings during conversions")
    print(f"ping round trip: median {statistics.median(ms):.3f} ms, max {ms[-1]:.3f} ms")
    print(f"sensor_read round trip: median {statistics.median(reads) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
