// SPDX-License-Identifier: MIT
// The SDK client spawns `mcpud --stdio` itself, as Claude Desktop or Codex would.
import { describe, after } from "node:test";
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
