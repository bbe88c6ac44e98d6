// SPDX-License-Identifier: MIT
// The 2026-07-28 peer of run-mcp-bench.sh: the same tool (gpio-write.mjs) on
// the official TypeScript SDK v2 (@modelcontextprotocol/server), served over
// stdio by its serveStdio, which speaks the stateless revision to a client
// whose requests name it in _meta (and 2025-11-25 to one that initializes).
// Needs Node 20 or later.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { registerGpioWrite } from "./gpio-write.mjs";

serveStdio(() => {
  const server = new McpServer({ name: "ts-peer-v2", version: "1.0.0" }, { capabilities: { tools: {} } });
  registerGpioWrite(server);
  return server;
});
