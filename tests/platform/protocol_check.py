#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Black-box protocol checks of an mcpud binary on the simulated board, over TCP.

Meant for a binary of another architecture run under qemu-user, e.g.
  protocol_check.py --config config/examples/sim.toml --arch aarch64 -- \
      qemu-aarch64 -L /usr/aarch64-linux-gnu build/daemon/mcpud
It starts the command with --listen 127.0.0.1:0 --dbus=none --unix "", then
checks get_info (the architecture), list_tools, gpio_write/gpio_read, a refused
write, and an MCP initialize with tools/call; then SIGTERM must end it with 0.
"""
import argparse
import json
import re
import select
import signal
import socket
import subprocess
import sys
import time

failures = []


def check(ok, what):
    print(f"protocol_check: {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


class Client:
    def __init__(self, port, timeout):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""
        self.next_id = 1

    def request(self, method, params=None):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.next_id += 1
        self.send(message)
        while True:  # skip notifications until the reply with this id
            reply = self.read()
            if reply.get("id") == message["id"]:
                return reply

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("mcpud closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def start(command, config, timeout):
    args = command + ["--config", config, "--listen", "127.0.0.1:0", "--dbus=none", "--unix", ""]
    daemon = subprocess.Popen(args, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([daemon.stderr], [], [], 0.2)
        if ready:
            chunk = daemon.stderr.read1(4096)
            if not chunk:
                break
            log += chunk
            found = re.search(rb"tcp\] listening on 127\.0\.0\.1:(\d+)", log)
            if found:
                return daemon, int(found.group(1)), log
    daemon.kill()
    sys.exit(f"protocol_check: mcpud did not start listening within {timeout} s:\n{log.decode(errors='replace')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a configuration of the simulated board")
    parser.add_argument("--arch", help="the architecture get_info must report, e.g. aarch64")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for start-up and replies")
    parser.add_argument("command", nargs="+", help="the mcpud command (after --)")
    options = parser.parse_args()

    daemon, port, _ = start(options.command, options.config, options.timeout)
    client = Client(port, options.timeout)

    info = client.request("get_info").get("result", {})
    if options.arch:
        check(info.get("arch") == options.arch, f"get_info reports arch {options.arch} (got {info.get('arch')})")
    check(info.get("board") == "sim", "get_info reports the simulated board")

    tools = [t["name"] for t in client.request("list_tools").get("result", {}).get("tools", [])]
    check({"gpio_write", "gpio_read", "get_info"} <= set(tools), f"list_tools offers gpio_write and gpio_read ({len(tools)} tools)")

    for level in (True, False):
        written = client.request("gpio_write", {"pin": 2, "value": level}).get("result", {})
        check(written.get("value") is level, f"gpio_write pin 2 {level}")
        read = client.request("gpio_read", {"pin": 3}).get("result", {})
        check(read.get("value") is level, f"gpio_read pin 3 (wired to pin 2) reads {level}")
    refused = client.request("gpio_write", {"pin": 4, "value": True}).get("error", {})
    check(refused.get("data", {}).get("code") == "WRONG_PIN_TYPE", "gpio_write on an input is refused with WRONG_PIN_TYPE")

    mcp = Client(port, options.timeout)
    init = mcp.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                      "clientInfo": {"name": "protocol_check", "version": "1"}}).get("result", {})
    check(init.get("protocolVersion") == "2025-06-18" and "serverInfo" in init, "MCP initialize negotiates 2025-06-18")
    mcp.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed = [t["name"] for t in mcp.request("tools/list").get("result", {}).get("tools", [])]
    check("gpio_write" in listed, "MCP tools/list offers gpio_write")
    called = mcp.request("tools/call", {"name": "gpio_write", "arguments": {"pin": 2, "value": True}}).get("result", {})
    check(called.get("isError") is False and called.get("structuredContent", {}).get("value") is True,
          "MCP tools/call gpio_write pin 2 true")
    called = mcp.request("tools/call", {"name": "gpio_read", "arguments": {"pin": 3}}).get("result", {})
    check(called.get("structuredContent", {}).get("value") is True, "MCP tools/call gpio_read pin 3 reads true")

    daemon.send_signal(signal.SIGTERM)
    try:
        status = daemon.wait(options.timeout)
    except subprocess.TimeoutExpired:
        daemon.kill()
        status = "none (killed)"
    check(status == 0, f"SIGTERM ends mcpud with status 0 (got {status})")

    if failures:
        sys.exit(f"protocol_check: {len(failures)} of the checks failed")
    print("protocol_check: all checks passed")


if __name__ == "__main__":
    main()
