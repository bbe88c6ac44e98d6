// SPDX-License-Identifier: MIT
// A second real client: the MCP Inspector CLI lists and calls tools through
// mcpud-stdio, `mcpud --stdio` and Streamable HTTP.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, before, after } from "node:test";
import { Daemon, MCPUD, MCPUD_STDIO } from "./daemon.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const inspector = join(here, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "cli.js");

// Runs the Inspector CLI on `target` (a command and its arguments) and parses its JSON output.
function inspect(target, args) {
  return new Promise((resolve, reject) => {
    // The CLI finds its own package.json through the working directory's parent.
    execFile("node", [inspector, "--cli", ...target, ...args], { cwd: join(here, "node_modules"), timeout: 60000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`inspector failed: ${error.message}\n${stderr}`));
        const start = stdout.indexOf("{");
        if (start < 0) return reject(new Error(`inspector printed no JSON: ${stdout}\n${stderr}`));
        resolve(JSON.parse(stdout.slice(start)));
      });
  });
}

async function listAndCall(target) {
  const listed = await inspect(target, ["--method", "tools/list"]);
  const names = listed.tools.map((t) => t.name);
  assert.ok(names.includes("gpio_write"), names.join(","));
  const called = await inspect(target, ["--method", "tools/call", "--tool-name", "gpio_write", "--tool-arg", "pin=2", "--tool-arg", "value=true"]);
  assert.equal(called.isError, false);
  assert.deepEqual(called.structuredContent, { pin: 2, name: "led", value: true });
  const failed = await inspect(target, ["--method", "tools/call", "--tool-name", "gpio_read", "--tool-arg", "pin=99"]);
  assert.equal(failed.isError, true);
}

describe("MCP Inspector CLI", () => {
  const daemon = new Daemon({ http: "127.0.0.1:0" });
  before(() => daemon.start());
  after(() => daemon.stop());

  it("lists and calls tools through mcpud-stdio", () => listAndCall([MCPUD_STDIO, "--socket", daemon.socketPath]));
  it("lists and calls tools over Streamable HTTP", () => listAndCall([`http://${daemon.httpAddress}/mcp`, "--transport", "http"]));
  it("lists and calls tools through mcpud --stdio", () => listAndCall([MCPUD, "--stdio", "-c", daemon.configPath]));  // the Inspector owns --config
});
