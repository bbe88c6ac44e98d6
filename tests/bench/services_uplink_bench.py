#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Measures the ##START services uplink of a real mcpud: a loopback server sends calls
# (gpio_read on the sim board) one at a time and then 20,000 at once; the same gpio_read
# over MCP/U on TCP is measured in the same run for comparison. Reports; never fails.
#
# usage: tests/bench/services_uplink_bench.py BUILD_DIR/daemon/mcpud
import json, os, re, socket, statistics, subprocess, sys, tempfile, time

MCPUD = sys.argv[1]
BOARD = 'device = "bench"\nboard = "sim"\nlisten = ["127.0.0.1:0"]\n' \
        '[[pins]]\nname = "led"\npin = 2\ntype = "digital_output"\n'
SEQUENTIAL, WARM_UP, PIPELINED = 3000, 500, 20000


def start(config):
    path = os.path.join(tempfile.mkdtemp(prefix="mcpud-bench-"), "mcpud.toml")
    with open(path, "w") as f:
        f.write(config)
    return subprocess.Popen([MCPUD, "--config", path, "--dbus=none"], stderr=subprocess.PIPE, text=True)


def median_us(samples):
    return statistics.median(samples[WARM_UP:]) * 1e6


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(next(l.split()[1] for l in f if l.startswith("VmRSS")))


def tcp_round_trip():
    daemon = start(BOARD)
    port = None
    while port is None:
        match = re.search(r"127\.0\.0\.1:(\d+) \(MCP/U", daemon.stderr.readline())
        port = int(match.group(1)) if match else None
    client = socket.create_connection(("127.0.0.1", port))
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    lines = client.makefile("rb")
    samples = []
    for i in range(SEQUENTIAL):
        began = time.perf_counter()
        client.sendall(json.dumps({"jsonrpc": "2.0", "id": i, "method": "gpio_read", "params": {"pin": 2}}).encode() + b"\n")
        lines.readline()
        samples.append(time.perf_counter() - began)
    daemon.terminate()
    daemon.wait()
    return median_us(samples)


class Server:
    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.buffer = b""

    def accept(self):
        self.link, _ = self.listener.accept()
        self.link.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def frame(self):
        while True:
            start = self.buffer.find(b"##START")
            end = self.buffer.find(b"##END", start + 20) if start >= 0 else -1
            if end >= 0:
                content, self.buffer = self.buffer[start + 20:end], self.buffer[end + 5:]
                return content
            self.buffer += self.link.recv(1 << 16)


def call(i):
    message = {"type": "call", "data": {"call_id": str(i), "method": "gpio_read", "params": {"pin": 2}}}
    return b"##START\x06mcp000010000" + json.dumps(message).encode() + b"##END"


def uplink():
    server = Server()
    daemon = start(BOARD + '[uplink.services]\nserver = "127.0.0.1:%d"\ntoken = "t"\nmax_calls_in_flight = 1024\n'
                   % server.listener.getsockname()[1])
    server.accept()
    server.frame(), server.frame()  # AUTH, register
    idle_rss = rss_kb(daemon.pid)
    samples = []
    for i in range(SEQUENTIAL):
        began = time.perf_counter()
        server.link.sendall(call(i))
        server.frame()
        samples.append(time.perf_counter() - began)
    burst = b"".join(call(i) for i in range(PIPELINED))
    began = time.perf_counter()
    server.link.sendall(burst)
    for _ in range(PIPELINED):
        server.frame()
    elapsed = time.perf_counter() - began
    daemon.terminate()
    daemon.wait()
    return median_us(samples), PIPELINED / elapsed, idle_rss


tcp = tcp_round_trip()
sequential, per_second, idle = uplink()
print("gpio_read round trip, median: uplink %.1f us, MCP/U over TCP %.1f us (%.2fx)" % (sequential, tcp, sequential / tcp))
print("uplink, %d calls sent at once: %.0f calls/s" % (PIPELINED, per_second))
print("mcpud RSS with the uplink connected, idle: %d kB" % idle)
