// SPDX-License-Identifier: MIT
// Devices for the MCP client tests: a scripted MCP/U microcontroller on TCP (for
// bridge tests) and a pty pair standing for a serial device.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { waitFor } from "./daemon.mjs";

// A scripted MCP/U device on TCP: `slow_echo` answers after 300 ms, `never` never
// does; discovery (get_info) is answered after `discoveryDelayMs`.
export function startDevice({ discoveryDelayMs = 0 } = {}) {
  const tool = (name) => ({
    name,
    description: `${name} of the test device`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  });
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffered = "";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const request = JSON.parse(line);
        const answer = (result) => socket.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }) + "\n");
        if (request.method === "get_info")
          setTimeout(() => answer({ device: "async-dev", version: "1.0.0", platform: "test" }), discoveryDelayMs);
        else if (request.method === "list_tools") answer({ tools: [tool("slow_echo"), tool("never")], pins: [] });
        else if (request.method === "slow_echo") setTimeout(() => answer({ echo: request.params.text }), 300);
      }
    });
  });
  // Unplugged: the connection drops and nothing answers on the port until replugged.
  server.unplug = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  server.replug = () => new Promise((resolve) => server.listen(server.port, "127.0.0.1", resolve));
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      server.port = server.address().port;
      resolve(server);
    }),
  );
}

// A pty pair from socat: mcpud opens `ttyDut`, the test plays the device on `ttyPeer`.
export async function startPty(dir) {
  const dut = join(dir, "ttyDut");
  const peer = join(dir, "ttyPeer");
  const socat = spawn("socat", [`pty,raw,echo=0,link=${dut}`, `pty,raw,echo=0,link=${peer}`], { stdio: "ignore" });
  await waitFor(() => existsSync(dut) && existsSync(peer), "socat's ptys");
  return { socat, dut, peer };
}

// TOML for mcpud: serial ports under `dir` listed and allowed, the scripted device bridged as "dev".
export function serialAndBridgeConfig(dir, devicePort) {
  return `
[serial]
ports = ["${dir}/tty*"]
allowed_ports = ["${dir}/tty*"]

[[bridges]]
id = "dev"
tcp = "127.0.0.1:${devicePort}"
timeout_ms = 1000
`;
}
