// SPDX-License-Identifier: MIT
// The peer of run-mcp-bench.sh: a minimal MCP server on the official TypeScript
// SDK (1.x, MCP 2025-11-25), over stdio, serving gpio-write.mjs's tool.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { registerGpioWrite } from "./gpio-write.mjs";

const server = new McpServer({ name: "ts-peer", version: "1.0.0" });
registerGpioWrite(server);
await server.connect(new StdioServerTransport());
