// SPDX-License-Identifier: MIT
// A host that spawns `mcpud --stdio` lists tools once, right away: the first
// tools/list waits (bounded) for configured bridges to be discovered, so a
// bridged device that takes a moment to answer is not missed.
import assert from "node:assert/strict";
import { describe, it, after } from "node:test";
import { writeFileSync } from "node:fs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Daemon, MCPUD, configText, allTools } from "./daemon.mjs";
import { startDevice } from "./device.mjs";

describe("the first tools/list of mcpud --stdio", () => {
  const files = new Daemon();  // only for its temporary config; nothing listens
  let device;
  after(async () => {
    device?.close();
    await files.stop();
  });

  it("includes a bridged device that answers discovery after 500 ms", async () => {
    device = await startDevice({ discoveryDelayMs: 500 });
    const bridge = `\n[[bridges]]\nid = "dev"\ntcp = "127.0.0.1:${device.address().port}"\n`;
    writeFileSync(files.configPath, configText({ extra: bridge }));
    const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", files.configPath], stderr: "ignore" }));
    const names = (await allTools(client)).map((t) => t.name);
    assert.ok(names.includes("dev__slow_echo"), names.join(","));
    assert.ok(names.includes("gpio_write"));
    await client.close();
  });
});
