// SPDX-License-Identifier: MIT
// The page's only way to the board: standard MCP over Streamable HTTP at /mcp
// (POST for requests, one GET event stream for notifications), with the bearer
// token in a header, never in a cookie. Reconnects by itself when mcpud goes away.

const PROTOCOL_VERSION = "2025-11-25";
const RETRY_MS = [500, 1000, 2000, 4000, 5000];

export class AuthError extends Error {}

export class McpClient {
  // `token()` gives the bearer token ("" for none); `on` has callbacks:
  // state(name, detail) with "connecting" | "online" | "offline" | "unauthorized",
  // notification(method, params), ready() after every (re)connection.
  constructor(token, on) {
    this.token = token;
    this.on = on;
    this.session = "";
    this.nextId = 1;
    this.retries = 0;
    this.stream = null;
    this.retryTimer = 0;
  }

  async start() {
    clearTimeout(this.retryTimer);
    this.down = false;
    this.on.state("connecting");
    try {
      await this.initialize();
      this.retries = 0;
      this.listen();
      this.on.state("online");
      await this.on.ready();
    } catch (error) {
      this.fail(error);
    }
  }

  async initialize() {
    this.session = "";
    const result = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "mcpud-dashboard", version: "1" },
    });
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    return result;
  }

  // One JSON-RPC request; resolves with its result, rejects with its error.
  async request(method, params = {}) {
    const message = { jsonrpc: "2.0", id: this.nextId++, method, params };
    const reply = await this.post(message);
    if (reply.error) throw Object.assign(new Error(reply.error.message), { rpc: reply.error });
    return reply.result;
  }

  async post(message) {
    let response;
    try {
      response = await fetch("/mcp", { method: "POST", headers: this.headers(true), body: JSON.stringify(message) });
    } catch (error) {
      this.fail(error);
      throw error;
    }
    const id = response.headers.get("Mcp-Session-Id");
    if (id) this.session = id;
    if (response.status === 401) throw this.fail(new AuthError("mcpud wants the access token"));
    if (response.status === 404 && this.session) throw this.fail(new Error("mcpud forgot this session"));
    if (response.status === 202) return {};
    if (!response.ok) throw new Error(`${response.status} ${(await response.text()).trim()}`);
    return response.json();
  }

  headers(json) {
    const headers = { Accept: "application/json, text/event-stream" };
    if (json) headers["Content-Type"] = "application/json";
    if (this.session) {
      headers["Mcp-Session-Id"] = this.session;
      headers["MCP-Protocol-Version"] = PROTOCOL_VERSION;
    }
    const token = this.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  // The session's notification stream, read with fetch so it can carry the token.
  async listen() {
    const controller = new AbortController();
    this.stream = controller;
    try {
      const headers = this.headers(false);
      headers.Accept = "text/event-stream";
      const response = await fetch("/mcp", { headers, signal: controller.signal });
      if (!response.ok) throw new Error(`event stream: ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      throw new Error("event stream ended");
    } catch (error) {
      if (this.stream === controller) this.fail(error);
    }
  }

  dispatch(block) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) return;
    const message = JSON.parse(data);
    if (message.method) this.on.notification(message.method, message.params || {});
  }

  // Ends the session when the page goes away, so it does not wait out its idle time.
  end() {
    if (!this.session) return;
    fetch("/mcp", { method: "DELETE", headers: this.headers(false), keepalive: true }).catch(() => {});
  }

  // Marks the connection lost and schedules the next attempt (none without the token).
  fail(error) {
    if (this.down) return error; // already handling this loss
    this.down = true;
    if (this.stream) this.stream.abort();
    this.stream = null;
    this.session = "";
    clearTimeout(this.retryTimer);
    if (error instanceof AuthError) {
      this.on.state("unauthorized", error.message);
      return error;
    }
    const wait = RETRY_MS[Math.min(this.retries++, RETRY_MS.length - 1)];
    this.on.state("offline", { wait, reason: error.message });
    this.retryTimer = setTimeout(() => this.start(), wait);
    return error;
  }
}

// A tool's tools/call result as the model would see it: {content, structuredContent?, isError?}.
// Protocol errors (unknown tool, ...) come back as {error} instead of throwing.
export async function callTool(mcp, name, args) {
  try {
    return await mcp.request("tools/call", { name, arguments: args });
  } catch (error) {
    if (error.rpc) return { error: error.rpc };
    throw error;
  }
}

// The structured result of a call that succeeded, or throws with its message.
export async function callToolValue(mcp, name, args) {
  const result = await callTool(mcp, name, args);
  if (result.error) throw new Error(result.error.message);
  if (result.isError) throw new Error(result.content?.[0]?.text || "tool failed");
  return result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? "null");
}

// A resource's JSON value (resources/read).
export async function readResource(mcp, uri) {
  const result = await mcp.request("resources/read", { uri });
  return JSON.parse(result.contents[0].text);
}
