// SPDX-License-Identifier: MIT
// Starts a real mcpud for the MCP client tests: a temporary config, a unix
// socket and an HTTP port of its own, and a way to rewrite the config and reload.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MCPUD = process.env.MCPUD_BINARY;
export const MCPUD_STDIO = process.env.MCPUD_STDIO_BINARY;
if (!MCPUD || !MCPUD_STDIO) throw new Error("set MCPUD_BINARY and MCPUD_STDIO_BINARY (ctest does)");

const BASE_PINS = `
[[pins]]
name = "led"
pin = 2
type = "digital_output"
description = "Onboard LED"

[[pins]]
name = "led_sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "led" }
`;

// With a sampled input, the sampling tools (get_pin_summary, ...) join the tool set.
const SAMPLED_PIN = `
[[pins]]
name = "temp"
pin = 26
type = "adc_input"
sampling = { interval_ms = 1000, buffer_size = 4 }
`;

// The configuration text; `pageBytes` small enough to force tools/list paging.
// `extra`: TOML appended as is (e.g. [serial] or [[bridges]] tables of a test);
// `httpExtra`: lines of the [http] table (e.g. tls_cert and tls_key).
export function configText({ sampled = false, broken = false, http = "", token = "", pageBytes = 700, extra = "", httpExtra = "" } = {}) {
  return `device = "mcp-test"
listen = ["127.0.0.1:0"]
log_level = "debug"
[mcp]
page_bytes = ${pageBytes}
user_only_tools = ["get_info"]
[http]
listen = "${http}"
token = "${token}"
${httpExtra}
${BASE_PINS}${sampled ? SAMPLED_PIN : ""}${broken ? "\n[[pins]]\nname = 7\n" : ""}${extra}`;
}

// Resolves when `condition()` is true; rejects with `what` after `ms`.
export async function waitFor(condition, what, ms = 20000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Every page of tools/list, as `client` (an SDK Client) sees it.
export async function allTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

// A newline-delimited JSON-RPC connection that keeps every message it receives.
export async function lineClient(options) {
  const socket = connect(options);
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const received = [];
  let partial = "";
  socket.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const line of lines) received.push(JSON.parse(line));
  });
  return {
    received,
    send: (message) => socket.write(JSON.stringify(message) + "\n"),
    // The first received message matching `predicate`.
    async next(predicate, what) {
      await waitFor(() => received.some(predicate), what);
      return received.find(predicate);
    },
    close: () => socket.end(),
  };
}

// The TCP port mcpud logged it listens on (MCP/U and MCP over TCP).
export function tcpPortOf(daemon) {
  return Number(daemon.stderr.match(/tcp\] listening on 127\.0\.0\.1:(\d+)/)[1]);
}

export class Daemon {
  constructor(options = {}) {
    this.dir = mkdtempSync(join(tmpdir(), "mcpud-mcp-"));
    this.configPath = join(this.dir, "mcpud.toml");
    this.socketPath = join(this.dir, "mcpud.sock");
    this.options = options;
    this.stderr = "";
    writeFileSync(this.configPath, configText(options));
  }

  // Writes the configuration with `extra` (for a daemon started elsewhere, e.g. mcpud --stdio).
  writeConfig() {
    writeFileSync(this.configPath, configText({ ...this.options, extra: this.extra ?? "" }));
  }

  // Spawns mcpud and waits until its unix socket (and HTTP port, if asked) is up.
  async start() {
    this.writeConfig();
    this.process = spawn(MCPUD, ["--config", this.configPath, "--unix", this.socketPath], { stdio: ["ignore", "ignore", "pipe"] });
    this.process.stderr.on("data", (chunk) => (this.stderr += chunk));
    // The socket file exists from bind(); connections are taken from listen(), which the log line follows.
    await waitFor(() => /unix\] listening on/.test(this.stderr) || this.process.exitCode !== null, "the unix socket");
    if (this.process.exitCode !== null) throw new Error(`mcpud exited: ${this.stderr}`);
    if (this.options.http !== undefined) {
      await waitFor(() => /http\] listening on (\S+)/.test(this.stderr), "the HTTP listener");
      this.httpAddress = this.stderr.match(/http\] listening on (\S+)/)[1];
    }
  }

  // Rewrites the configuration and sends SIGHUP.
  reload(options) {
    writeFileSync(this.configPath, configText({ ...this.options, extra: this.extra ?? "", ...options }));
    this.process.kill("SIGHUP");
  }

  async stop() {
    if (this.process && this.process.exitCode === null) {
      const exited = new Promise((r) => this.process.once("exit", r));
      this.process.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
