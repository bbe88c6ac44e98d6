#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Soak: mcpud under everything at once for a bounded time.

Well-behaved clients pipeline requests over TCP, the unix socket and HTTP;
hostile clients hold silent connections, send huge batches and never read;
a bridged device (mcu-sim) is unplugged and replugged every few seconds;
serial sessions stream from a pty; mcpud gets a SIGHUP every second.
Asserts: mcpud never exits, every well-behaved request gets its reply, every
well-behaved client's p99 is bounded (--max-p99-ms), RSS after the load is
within 10% of before it, the baseline taken after the same load has run
--warmup-seconds (20) and ended. Prints p50/p99 per client kind
and writes the figures as JSON when asked (--json FILE).
"""
import argparse
import http.client
import json
import os
import pty
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

PIPELINE = 8  # requests a line client writes before reading their replies
REPLY_WAIT_S = 30  # a reply later than this counts as lost
BRIDGE_TIMEOUT_MS = 2000  # the bridged device's timeout_ms: its calls' bound


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mcpud_pid(process):
    """mcpud's pid: the process's own, or under --wrap its child's."""
    if os.path.realpath(f"/proc/{process.pid}/exe").endswith("mcpud"):
        return process.pid
    with open(f"/proc/{process.pid}/task/{process.pid}/children") as children:
        return int(children.read().split()[0])


def memory_kib(pid):
    """VmRSS and its parts: RssAnon (the heap and stacks), RssFile (code and
    other mapped files), in KiB."""
    parts = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                parts[key] = int(line.split()[1])
    if "VmRSS" not in parts:
        raise RuntimeError("no VmRSS")
    return parts


def rss_kib(pid):
    return memory_kib(pid)["VmRSS"]


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Stats:
    """Latencies and failures of one well-behaved client."""

    def __init__(self, kind):
        self.kind = kind
        self.latencies = []
        self.lost = 0
        self.errors = []

    def fail(self, why):
        self.lost += 1
        if len(self.errors) < 5:
            self.errors.append(why)


def request(rid, method, params=None):
    message = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message)


# What a well-behaved client asks, in turn: reads, writes, listings, errors.
CALLS = [
    ("get_info", None),
    ("gpio_write", {"pin": 2, "value": True}),
    ("gpio_read", {"pin": 3}),
    ("list_tools", None),
    ("gpio_write", {"pin": 2, "value": False}),
    ("adc_read", {"pin": 34}),
    ("nope", None),  # an error reply is a reply
]
# The bridged device, replugged all the time: a reply or a clean error, on
# clients of their own (a line client's replies come in order, so one call that
# waits for the device's timeout would hold back the others').
BRIDGE_CALLS = [("uno__gpio_read", {"pin": 13}), ("uno__gpio_write", {"pin": 13, "value": True})]


def line_client(stats, connect, stop, calls=CALLS):
    """Pipelines PIPELINE requests, reads PIPELINE replies, checks every id."""
    rid = 0
    while not stop.is_set():
        try:
            sock = connect()
        except OSError as error:
            stats.fail(f"connect: {error}")
            time.sleep(0.5)
            continue
        sock.settimeout(REPLY_WAIT_S)
        reader = sock.makefile("rb")
        try:
            while not stop.is_set():
                sent = {}
                lines = []
                for _ in range(PIPELINE):
                    rid += 1
                    method, params = calls[rid % len(calls)]
                    lines.append(request(rid, method, params))
                    sent[rid] = time.monotonic()
                sock.sendall(("\n".join(lines) + "\n").encode())
                while sent:
                    line = reader.readline()
                    if not line:
                        raise ConnectionError("closed by mcpud")
                    reply = json.loads(line)
                    if "id" not in reply:
                        continue  # a notification
                    began = sent.pop(reply["id"], None)
                    if began is None:
                        stats.fail(f"reply to an id never sent: {line[:120]!r}")
                        continue
                    stats.latencies.append(time.monotonic() - began)
        except (OSError, ConnectionError, ValueError) as error:
            stats.fail(f"{type(error).__name__}: {error}")
        finally:
            sock.close()


def http_client(stats, port, stop):
    """MCP over HTTP: initialize, then tools/call in a loop on one session."""
    rid = 0
    while not stop.is_set():
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REPLY_WAIT_S)
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
            init = request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                             "clientInfo": {"name": "soak", "version": "1"}})
            conn.request("POST", "/mcp", init, headers)
            response = conn.getresponse()
            response.read()
            headers["Mcp-Session-Id"] = response.getheader("Mcp-Session-Id", "")
            headers["MCP-Protocol-Version"] = "2025-06-18"
            while not stop.is_set():
                rid += 1
                method, params = CALLS[rid % len(CALLS)]
                body = request(rid, "tools/call", {"name": method, "arguments": params or {}})
                began = time.monotonic()
                conn.request("POST", "/mcp", body, headers)
                response = conn.getresponse()
                text = response.read()
                if response.status != 200:
                    stats.fail(f"HTTP {response.status}: {text[:120]!r}")
                    break
                reply = json.loads(text)
                if reply.get("id") != rid:
                    stats.fail(f"HTTP reply with the wrong id: {text[:120]!r}")
                stats.latencies.append(time.monotonic() - began)
            conn.close()
        except (OSError, http.client.HTTPException, ValueError) as error:
            stats.fail(f"HTTP {type(error).__name__}: {error}")
            time.sleep(0.2)


def hostile_silent(port, stop, count=20):
    """Connections that never send: they must not lock others out."""
    held = []
    while not stop.is_set():
        while len(held) < count:
            try:
                held.append(socket.create_connection(("127.0.0.1", port)))
            except OSError:
                break
        stop.wait(1)
        for sock in list(held):
            try:
                sock.setblocking(False)
                if sock.recv(1) == b"":  # mcpud closed it (idle timeout): open another
                    sock.close()
                    held.remove(sock)
            except BlockingIOError:
                pass
            except OSError:
                held.remove(sock)
    for sock in held:
        sock.close()


def hostile_batches(port, http_port, stop):
    """Huge batches over TCP and HTTP, their replies read slowly or not at all."""
    batch = "[" + ",".join(request(i, "list_tools") for i in range(1000)) + "]\n"
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(batch.encode())
                stop.wait(0.5)
            conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
            conn.request("POST", "/mcp", batch, {"Content-Type": "application/json",
                                                 "Accept": "application/json, text/event-stream"})
            conn.close()  # never reads the reply
        except (OSError, http.client.HTTPException):
            pass
        stop.wait(0.5)


def hostile_non_reader(port, stop):
    """Writes requests as fast as it can and never reads a reply."""
    line = (request(1, "list_tools") + "\n").encode() * 100
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.settimeout(2)
                while not stop.is_set():
                    sock.sendall(line)
        except OSError:
            stop.wait(0.2)  # dropped by mcpud, as it should be: come back


def device_replugger(mcu_sim, link, stop, period):
    """mcu-sim on a pty behind `link`, killed and restarted every `period` s."""
    plugs = 0
    while not stop.is_set():
        sim = subprocess.Popen([mcu_sim, "--link", link], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        plugs += 1
        stop.wait(period)
        sim.kill()
        sim.wait()
        stop.wait(period / 4)
    return plugs


def serial_streamer(master, stop):
    """A device that talks all the time on the serial session's pty."""
    chunk = b"".join(b"$GPGGA,%06d,4807.038,N,01131.000,E*47\r\n" % i for i in range(20))
    while not stop.is_set():
        try:
            os.write(master, chunk)
        except BlockingIOError:
            pass
        except OSError:
            break
        stop.wait(0.02)


def serial_client(stats, connect, pts, stop):
    """Opens a serial session on the streaming pty and reads it in a loop."""
    try:
        sock = connect()
        sock.settimeout(REPLY_WAIT_S)
        reader = sock.makefile("rb")

        def call(rid, method, params):
            began = time.monotonic()
            sock.sendall((request(rid, method, params) + "\n").encode())
            while True:
                reply = json.loads(reader.readline())
                if reply.get("id") == rid:
                    stats.latencies.append(time.monotonic() - began)
                    return reply

        opened = call(1, "serial_connect", {"port": pts, "baud": 115200})
        if "error" in opened:
            stats.fail(f"serial_connect: {opened['error']}")
            return
        session = opened["result"]["session_id"]
        rid = 1
        while not stop.is_set():
            rid += 1
            call(rid, "serial_read", {"session_id": session, "max_bytes": 4096, "timeout_ms": 200})
        call(rid + 1, "serial_disconnect", {"session_id": session})
    except (OSError, ValueError, KeyError) as error:
        stats.fail(f"serial {type(error).__name__}: {error}")


AUDIT_RECORDS = 1000  # [safety] audit_records, the default the soak's configuration keeps


def fill_audit_ring(connect):
    """Writes the output AUDIT_RECORDS times before the baseline: the audit
    ring is full on any board in use, and stays full by design, so the RSS
    check measures what a load leaves beyond it."""
    sock = connect()
    reader = sock.makefile("rb")
    for start in range(0, AUDIT_RECORDS, PIPELINE):
        batch = range(start, min(start + PIPELINE, AUDIT_RECORDS))
        sock.sendall(b"".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "gpio_write",
                                          "params": {"pin": 2, "value": i % 2 == 0}}).encode() + b"\n"
                              for i in batch))
        for _ in batch:
            reader.readline()
    sock.close()


def write_config(directory, ports, link, pts):
    path = os.path.join(directory, "soak.toml")
    with open(path, "w") as config:
        config.write(f'''device = "soak"
board = "sim"
listen = ["127.0.0.1:{ports['tcp']}"]
log_level = "warn"
dbus = "none"
[limits]
max_clients = 256
[unix_socket]
path = "{directory}/mcpud.sock"
mode = "0600"
[http]
listen = "127.0.0.1:{ports['http']}"
[serial]
allowed_ports = ["{os.path.dirname(pts)}/*"]
[[pins]]
name = "led"
pin = 2
type = "digital_output"
safe_value = false
[[pins]]
name = "led_sense"
pin = 3
type = "digital_input"
sim = {{ mode = "loopback", from = "led" }}
sampling = {{ interval_ms = 50, edges = "both" }}
[[pins]]
name = "light"
pin = 34
type = "adc_input"
sim = {{ waveform = "sine", min = 100, max = 1000, period_ms = 2000 }}
sampling = {{ interval_ms = 100, buffer_size = 20 }}
[[bridges]]
id = "uno"
port = "{link}"
reset_wait_ms = 0
timeout_ms = {BRIDGE_TIMEOUT_MS}
retry_max_ms = 500
''')
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mcpud", required=True)
    parser.add_argument("--mcu-sim", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--warmup-seconds", type=float, default=20,
                        help="the same load before the RSS baseline (0: none; the baseline is then cold)")
    parser.add_argument("--tcp-clients", type=int, default=24)
    parser.add_argument("--unix-clients", type=int, default=8)
    parser.add_argument("--http-clients", type=int, default=8)
    parser.add_argument("--serial-clients", type=int, default=2)
    parser.add_argument("--bridge-clients", type=int, default=2)
    parser.add_argument("--replug-s", type=float, default=3)
    parser.add_argument("--no-sighup", action="store_true", help="leave out the SIGHUP a second")
    parser.add_argument("--no-hostile", action="store_true", help="leave out the hostile clients")
    parser.add_argument("--max-p99-ms", type=float, default=1000,
                        help="bound on every well-behaved client's p99 (bridged calls: their timeout_ms)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--wrap", default="", help="command mcpud runs under, e.g. 'gdb -batch -ex run -ex bt --args'")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="mcpud-soak-")
    ports = {"tcp": free_port(), "http": free_port()}
    link = os.path.join(directory, "uno")
    masters, pts_paths = [], []
    for _ in range(args.serial_clients):
        master, slave = pty.openpty()
        os.set_blocking(master, False)
        masters.append(master)
        pts_paths.append(os.ttyname(slave))
    config = write_config(directory, ports, link, pts_paths[0] if pts_paths else "/dev/pts/0")
    log = open(os.path.join(directory, "mcpud.log"), "w")
    daemon = subprocess.Popen(args.wrap.split() + [args.mcpud, "--config", config], stdout=log, stderr=subprocess.STDOUT)

    def tcp():
        return socket.create_connection(("127.0.0.1", ports["tcp"]))

    def unix():
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(os.path.join(directory, "mcpud.sock"))
        return sock

    deadline = time.monotonic() + 120  # slow under --wrap (gdb reads the symbols)
    while True:
        try:
            tcp().close()
            break
        except OSError:
            if daemon.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"soak: mcpud did not start (log: {log.name})")
            time.sleep(0.1)
    fill_audit_ring(tcp)
    pid = mcpud_pid(daemon)
    cold = memory_kib(pid)

    def run_load(seconds, stats, plugs):
        """Every client and the replugger for `seconds`, a SIGHUP a second;
        (SIGHUPs sent, the highest RSS seen). Waits for the clients to end."""
        stop = threading.Event()
        threads = []

        def start(target, *target_args):
            thread = threading.Thread(target=target, args=target_args, daemon=True)
            thread.start()
            threads.append(thread)

        for kind, count, connect in (("tcp", args.tcp_clients, tcp), ("unix", args.unix_clients, unix)):
            for _ in range(count):
                stats.append(Stats(kind))
                start(line_client, stats[-1], connect, stop)
        for _ in range(args.bridge_clients):
            stats.append(Stats("bridge"))
            start(line_client, stats[-1], tcp, stop, BRIDGE_CALLS)
        for _ in range(args.http_clients):
            stats.append(Stats("http"))
            start(http_client, stats[-1], ports["http"], stop)
        for master, pts in zip(masters, pts_paths):
            stats.append(Stats("serial"))
            start(serial_streamer, master, stop)
            start(serial_client, stats[-1], tcp, pts, stop)
        if not args.no_hostile:
            start(hostile_silent, ports["tcp"], stop)
            start(hostile_batches, ports["tcp"], ports["http"], stop)
            start(hostile_non_reader, ports["tcp"], stop)
        start(lambda: plugs.append(device_replugger(args.mcu_sim, link, stop, args.replug_s)))
        began = time.monotonic()
        hups, peak = 0, rss_kib(pid)
        while time.monotonic() - began < seconds and daemon.poll() is None:
            if not args.no_sighup:
                os.kill(pid, signal.SIGHUP)
                hups += 1
            peak = max(peak, rss_kib(pid))
            time.sleep(1)
        stop.set()
        for thread in threads:
            thread.join(timeout=REPLY_WAIT_S + 5)
        time.sleep(5)  # closed connections release what they held
        return hups, peak

    # The same load once, briefly, before the baseline: its code paths are
    # paged in and what stays bounded by design (histories, rings, caches)
    # reaches the size it keeps on a board in use; what the load leaves beyond
    # that is what the check measures. A leak goes on growing after it.
    warmup_stats, warmup_plugs = [], []
    if args.warmup_seconds > 0:
        run_load(args.warmup_seconds, warmup_stats, warmup_plugs)
    memory_before = memory_kib(pid) if daemon.poll() is None else {"VmRSS": 0}
    rss_before = memory_before["VmRSS"]

    stats, plugs = [], []
    began = time.monotonic()
    hups, rss_peak = run_load(args.seconds, stats, plugs)
    seconds = time.monotonic() - began
    crashed = daemon.poll() is not None
    memory_after = memory_kib(pid) if not crashed else {"VmRSS": 0}
    rss_after = memory_after["VmRSS"]
    crashed = crashed or daemon.poll() is not None
    daemon.terminate()
    daemon.wait(timeout=20)

    figures = {"seconds": round(seconds), "warmup_seconds": args.warmup_seconds, "sighups": hups,
               "replugs": sum(plugs),
               "rss_kib": {"cold": cold["VmRSS"], "before": rss_before, "peak": rss_peak, "after": rss_after},
               "memory_kib": {"cold": cold, "before": memory_before, "after": memory_after}, "clients": {}}
    lost = sum(s.lost for s in stats + warmup_stats)  # a reply lost while warming up is lost too
    for kind in ("tcp", "unix", "http", "serial", "bridge"):
        mine = [s for s in stats if s.kind == kind]
        if not mine:
            continue
        latencies = [x for s in mine for x in s.latencies]
        figures["clients"][kind] = {
            "clients": len(mine), "replies": len(latencies), "lost": sum(s.lost for s in mine),
            "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
            "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
            "worst_client_p99_ms": round(max(percentile(s.latencies, 0.99) for s in mine) * 1000, 2),
            "max_ms": round(max(latencies, default=0) * 1000, 2)}
    print(json.dumps(figures, indent=2))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)

    problems = []
    if crashed:
        problems.append(f"mcpud exited ({daemon.returncode}); log: {log.name}")
    if lost:
        problems.append(f"{lost} replies lost: " + "; ".join(e for s in stats + warmup_stats for e in s.errors)[:2000])
    for kind, figure in figures["clients"].items():
        bound = BRIDGE_TIMEOUT_MS + 500 if kind == "bridge" else args.max_p99_ms
        if figure["worst_client_p99_ms"] > bound:
            problems.append(f"{kind}: a client's p99 is {figure['worst_client_p99_ms']} ms (bound {bound} ms)")
    if rss_after > rss_before * 1.10:
        problems.append(f"RSS {rss_after} KiB after the load, {rss_before} KiB before (more than 10%)")
    for problem in problems:
        print("soak: FAIL:", problem, file=sys.stderr)
    print("soak:", "FAIL" if problems else "PASS", f"(mcpud log: {log.name})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
