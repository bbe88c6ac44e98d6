// SPDX-License-Identifier: MIT
// A scripted MCP/U microcontroller on TCP, for bridge tests driven by MCP clients.
import { createServer } from "node:net";

// A scripted MCP/U device on TCP: `slow_echo` answers after 300 ms, `never` never
// does; discovery (get_info) is answered after `discoveryDelayMs`.
export function startDevice({ discoveryDelayMs = 0 } = {}) {
  const tool = (name) => ({
    name,
    description: `${name} of the test device`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  });
  const server = createServer((socket) => {
    let buffered = "";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const request = JSON.parse(line);
        const answer = (result) => socket.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }) + "\n");
        if (request.method === "get_info")
          setTimeout(() => answer({ device: "async-dev", version: "1.0.0", platform: "test" }), discoveryDelayMs);
        else if (request.method === "list_tools") answer({ tools: [tool("slow_echo"), tool("never")], pins: [] });
        else if (request.method === "slow_echo") setTimeout(() => answer({ echo: request.params.text }), 300);
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
