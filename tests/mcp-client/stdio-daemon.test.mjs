// SPDX-License-Identifier: MIT
// The SDK client spawns `mcpud --stdio` itself, as Claude Desktop or Codex would.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it, after } from "node:test";
import { writeFileSync } from "node:fs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Daemon, MCPUD, configText } from "./daemon.mjs";
import { mcpScenario } from "./scenario.mjs";

describe("MCP over mcpud --stdio", () => {
  const files = new Daemon();  // only for its temporary config; nothing listens
  after(() => files.stop());
  mcpScenario(async () => {
    const transport = new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", files.configPath], stderr: "ignore" });
    return {
      transport,
      reload: (options) => {
        writeFileSync(files.configPath, configText(options));
        process.kill(transport.pid, "SIGHUP");
      },
    };
  });
});

describe("mcpud --stdio and D-Bus", () => {
  it("does not try a bus unless asked: it is one user's private server", async () => {
    const child = spawn(MCPUD, ["--stdio", "--log-level", "debug"], {
      env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: "unix:path=/nonexistent/bus" },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => (stdout += d));
    child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await new Promise((resolve) => child.once("exit", resolve));
    assert.match(stdout, /"id":1,"result":\{\}/);
    assert.doesNotMatch(stderr, /\[dbus\]/);
  });
});
