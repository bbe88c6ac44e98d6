// SPDX-License-Identifier: MIT
// The SDK client spawns mcpud-stdio, which relays to a running mcpud's unix socket.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it, after } from "node:test";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Daemon, MCPUD_STDIO } from "./daemon.mjs";
import { mcpScenario } from "./scenario.mjs";

describe("MCP over mcpud-stdio (unix socket relay)", () => {
  const daemon = new Daemon();
  after(() => daemon.stop());
  mcpScenario(async () => {
    await daemon.start();
    const transport = new StdioClientTransport({ command: MCPUD_STDIO, args: ["--socket", daemon.socketPath] });
    return { transport, reload: (o) => daemon.reload(o) };
  });
});

describe("mcpud-stdio on its own", () => {
  // Runs the relay with `input` on stdin; resolves with its exit code and output.
  const relay = (args, input = "") =>
    new Promise((resolve) => {
      const child = spawn(MCPUD_STDIO, args, { stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
      child.stdin.on("error", () => {});  // a relay that found no daemon has exited already
      child.stdin.end(input);
    });

  it("says clearly that no daemon runs, and fails", async () => {
    const { code, stderr } = await relay(["--socket", "/nonexistent/mcpud.sock"]);
    assert.equal(code, 1);
    assert.match(stderr, /cannot connect to mcpud at \/nonexistent\/mcpud\.sock: No such file or directory/);
    assert.match(stderr, /Is mcpud running\?/);
  });

  it("passes on every reply when stdin ends, then exits 0", async () => {
    const daemon = new Daemon();
    await daemon.start();
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" })).join("\n") + "\n";
    const { code, stdout } = await relay(["--socket", daemon.socketPath], lines);
    await daemon.stop();
    assert.equal(code, 0);
    assert.equal(stdout.trim().split("\n").length, 200);
  });

  it("exits 0 when the daemon goes away", async () => {
    const daemon = new Daemon();
    await daemon.start();
    const child = spawn(MCPUD_STDIO, ["--socket", daemon.socketPath], { stdio: ["pipe", "pipe", "ignore"] });
    const exited = new Promise((r) => child.on("exit", r));
    // Connected once a reply comes back; only then take the daemon away.
    const answered = new Promise((r) => child.stdout.once("data", r));
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) + "\n");
    await answered;
    await daemon.stop();
    assert.equal(await exited, 0);
  });
});
