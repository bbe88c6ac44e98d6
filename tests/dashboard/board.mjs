// SPDX-License-Identifier: MIT
// The simulated board for the dashboard tests: the real mcpud with the built-in
// board's pins, MCP/U on TCP, a unix socket and HTTP (the dashboard) on ports of
// its own, which stay the same across a kill and restart. Optionally with a
// bridged microcontroller: mcpud's own firmware as mcu-sim on a pty, as "uno".
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MCPUD = process.env.MCPUD_BINARY;
const SIM_CONFIG = process.env.MCPUD_SIM_CONFIG;
export const MCU_SIM = process.env.MCU_SIM; // unset when the firmware is not built
if (!MCPUD || !SIM_CONFIG) throw new Error("set MCPUD_BINARY and MCPUD_SIM_CONFIG (ctest does)");

// Resolves when `condition()` is true; rejects with `what` after `ms`.
export async function waitFor(condition, what, ms = 15000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A newline-delimited JSON-RPC client (MCP/U over TCP); call() resolves with the result.
export async function lineClient(port) {
  const socket = connect({ host: "127.0.0.1", port });
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const waiting = new Map();
  let partial = "";
  let nextId = 1;
  socket.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) {
      const message = JSON.parse(line);
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      settle?.(message);
    }
  });
  return {
    localPort: socket.localPort,
    call(method, params) {
      const id = nextId++;
      socket.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      return new Promise((resolve, reject) =>
        waiting.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result))));
    },
    close: () => socket.end(),
  };
}

export class Board {
  // `extra`: more TOML appended to the configuration (after [http]'s token);
  // `edit`: a change to the sim board's own text (e.g. a commented-out line enabled).
  constructor({ token = "", bridge = false, extra = "", edit = (text) => text } = {}) {
    this.bridge = bridge;
    this.extra = extra;
    this.edit = edit;
    this.dir = mkdtempSync(join(tmpdir(), "mcpud-dashboard-"));
    this.socketPath = join(this.dir, "mcpud.sock");
    this.configPath = join(this.dir, "mcpud.toml");
    this.token = token;
    this.http = "127.0.0.1:0";
    this.tcp = "127.0.0.1:0";
  }

  // The sim board's own configuration, with the listeners pinned once known.
  config() {
    const sim = this.edit(readFileSync(SIM_CONFIG, "utf8")).replace(/^listen = .*$/m, `listen = ["${this.tcp}"]`).replace(/^dbus = .*$/m, 'dbus = "none"');
    // get_info as a user-only tool: the page must mark it (and may still call it).
    const bridge = this.bridge ? `[[bridges]]\nid = "uno"\nport = "${this.link}"\nreset_wait_ms = 100\n` : "";
    return `${sim}\n[mcp]\nuser_only_tools = ["get_info"]\n[http]\nlisten = "${this.http}"\ntoken = "${this.token}"\n${bridge}${this.extra}`;
  }

  // mcu-sim on a pty linked at this.link; its stdout says what the device does ("pin 13 1").
  async startDevice() {
    this.link = join(this.dir, "ttyACM0");
    this.deviceOutput = "";
    this.device = spawn(MCU_SIM, ["--link", this.link, "--adc", "0=1650"], { stdio: ["pipe", "pipe", "inherit"] });
    this.device.stdout.on("data", (chunk) => (this.deviceOutput += chunk));
    await waitFor(() => /^pty /m.test(this.deviceOutput), "mcu-sim to open its pty");
  }

  async start() {
    if (this.bridge && !this.device) await this.startDevice();
    writeFileSync(this.configPath, this.config());
    let stderr = "";
    this.process = spawn(MCPUD, ["--config", this.configPath, "--unix", this.socketPath], { stdio: ["ignore", "ignore", "pipe"] });
    this.process.stderr.on("data", (chunk) => (stderr += chunk));
    const listening = (door) => stderr.match(new RegExp(`${door}\\] listening on (127\\.0\\.0\\.1:\\d+)`))?.[1];
    await waitFor(() => (listening("http") && listening("tcp")) || this.process.exitCode !== null, "mcpud to listen");
    if (this.process.exitCode !== null) throw new Error(`mcpud exited: ${stderr}`);
    this.http = listening("http");
    this.tcp = listening("tcp");
    this.url = `http://${this.http}/`;
    this.tcpPort = Number(this.tcp.split(":")[1]);
  }

  // SIGKILL: the daemon vanishes as in a crash, without saying goodbye.
  async kill() {
    const exited = new Promise((resolve) => this.process.once("exit", resolve));
    this.process.kill("SIGKILL");
    await exited;
  }

  async stop() {
    this.device?.kill("SIGTERM");
    if (this.process?.exitCode === null) {
      const exited = new Promise((resolve) => this.process.once("exit", resolve));
      this.process.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
