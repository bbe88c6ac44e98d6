// SPDX-License-Identifier: MIT
// The SDK client spawns mcpud-stdio, which relays to a running mcpud's unix socket.
import { describe, after } from "node:test";
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
