// SPDX-License-Identifier: MIT
import { connect } from "node:net";

// The SDK's Transport over a unix socket: one JSON-RPC message per line, as on stdio.
export class UnixSocketTransport {
  constructor(path) {
    this.path = path;
  }
  async start() {
    this.socket = connect({ path: this.path });
    await new Promise((resolve, reject) => this.socket.once("connect", resolve).once("error", reject));
    let partial = "";
    this.socket.on("data", (chunk) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop();
      for (const line of lines) if (line) this.onmessage?.(JSON.parse(line));
    });
    this.socket.on("close", () => this.onclose?.());
    this.socket.on("error", (e) => this.onerror?.(e));
  }
  async send(message) {
    this.socket.write(JSON.stringify(message) + "\n");
  }
  async close() {
    this.socket.end();
  }
}
