// SPDX-License-Identifier: MIT
// The official SDK v2 client pinned to MCP 2026-07-28 (the stateless revision):
// no initialize, every request carrying its version in _meta. Over mcpud --stdio,
// over the mcpud-stdio relay, over the unix socket itself and over Streamable
// HTTP's session-free path; the same client in
// `auto` mode finds the modern era too, and in `legacy` mode still initializes.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Daemon, MCPUD, MCPUD_STDIO, allTools, lineClient, waitFor } from "./daemon.mjs";
import { UnixSocketTransport } from "./unix-transport.mjs";

const MODERN = "2026-07-28";

async function connected(transport, mode = { pin: MODERN }) {
  const client = new Client({ name: "mcpud-modern-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}

// Runs `use` on a connected client and closes it however `use` ends (a client
// left open keeps its child process, and the test run, alive).
async function withClient(transport, use, mode) {
  const client = await connected(transport, mode);
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

// What a modern client does with a board: discover, list every page, call tools.
async function exercise(client) {
  assert.equal(client.getProtocolEra(), "modern");
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  const discover = await client.discover();
  assert.ok(discover.supportedVersions.includes(MODERN));
  assert.ok(discover.capabilities.tools);
  assert.match(discover.instructions, /mcp-test/);
  const tools = await allTools(client);  // page_bytes forces several pages
  const names = tools.map((t) => t.name);
  for (const name of ["gpio_write", "gpio_read", "pwm_write"]) assert.ok(names.includes(name), name);
  assert.ok(!names.includes("get_info"), "user-only tools are listed only on request");
  const written = await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: true } });
  assert.equal(written.isError, false);
  assert.deepEqual(written.structuredContent, { pin: 2, name: "led", value: true });
  const read = await client.callTool({ name: "gpio_read", arguments: { pin: 3 } });
  assert.equal(read.structuredContent.value, true, "the loopback input follows the LED");
  // Invalid arguments are a result the model can read, not a protocol error.
  const invalid = await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: "on" } });
  assert.equal(invalid.isError, true);
  assert.match(invalid.content[0].text, /^arguments\.value: expected boolean, got string$/);
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => e.code === -32602);
  const resource = await client.readResource({ uri: "mcpu://pins/led" });
  assert.equal(JSON.parse(resource.contents[0].text).value, true);
  await assert.rejects(client.readResource({ uri: "mcpu://pins/nope" }), (e) => e.code === -32602);
}

describe("SDK v2 pinned to 2026-07-28 on mcpud --stdio", () => {
  const files = new Daemon();  // only for its temporary config; nothing listens
  after(() => files.stop());

  it("discovers, lists and calls tools without initialize", async () => {
    await withClient(
      new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", files.configPath], stderr: "ignore" }),
      exercise,
    );
  });

  it("finds the modern era in auto mode, and initializes in legacy mode", async () => {
    const transport = () =>
      new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", files.configPath], stderr: "ignore" });
    await withClient(
      transport(),
      async (auto) => {
        assert.equal(auto.getProtocolEra(), "modern");
        assert.ok((await allTools(auto)).length > 0);
      },
      "auto",
    );
    await withClient(
      transport(),
      async (legacy) => {
        assert.equal(legacy.getProtocolEra(), "legacy");
        assert.equal(legacy.getNegotiatedProtocolVersion(), "2025-11-25");
      },
      "legacy",
    );
  });
});

describe("SDK v2 pinned to 2026-07-28 on the unix socket", () => {
  const daemon = new Daemon();
  before(() => daemon.start());
  after(() => daemon.stop());

  it("works through the mcpud-stdio relay", async () => {
    await withClient(new StdioClientTransport({ command: MCPUD_STDIO, args: ["--socket", daemon.socketPath] }), exercise);
  });

  it("works on the socket itself", async () => {
    await withClient(new UnixSocketTransport(daemon.socketPath), exercise);
  });

  it("answers each request by its own _meta on a connection that also speaks legacy", async () => {
    const line = await lineClient({ path: daemon.socketPath });
    line.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {} } });
    await line.next((m) => m.id === 1, "initialize");
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    line.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "gpio_write", arguments: { pin: 2, value: "on" }, _meta: meta } });
    const modern = await line.next((m) => m.id === 2, "the modern call");
    assert.equal(modern.result.isError, true, "2026-07-28: argument errors are results");
    assert.equal(modern.result.resultType, "complete");
    line.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "gpio_write", arguments: { pin: 2, value: "on" } } });
    assert.equal((await line.next((m) => m.id === 3, "the legacy call")).error.code, -32602, "2025-03-26: a JSON-RPC error");
    line.send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } } });
    const refused = await line.next((m) => m.id === 4, "the unsupported version");
    assert.equal(refused.error.code, -32022);
    assert.deepEqual(refused.error.data.requested, "1900-01-01");
    assert.ok(refused.error.data.supported.includes(MODERN));
    line.close();
  });
});

describe("subscriptions/listen on the unix socket", () => {
  const daemon = new Daemon();
  before(() => daemon.start());
  after(() => daemon.stop());
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };

  it("acknowledges, pushes a pin update tagged with its id, and stops when cancelled", async () => {
    const line = await lineClient({ path: daemon.socketPath });
    const filter = { resourceSubscriptions: ["mcpu://pins/led"], toolsListChanged: true };
    line.send({ jsonrpc: "2.0", id: "watch", method: "subscriptions/listen", params: { notifications: filter, _meta: meta } });
    const ack = await line.next((m) => m.method === "notifications/subscriptions/acknowledged", "the acknowledgement");
    assert.equal(ack.params._meta["io.modelcontextprotocol/subscriptionId"], "watch");
    assert.deepEqual(ack.params.notifications, filter);
    const write = (id, value) => line.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "gpio_write", arguments: { pin: 2, value }, _meta: meta } });
    write(1, true);
    const update = await line.next((m) => m.method === "notifications/resources/updated", "the pin update");
    assert.equal(update.params.uri, "mcpu://pins/led");
    assert.equal(update.params._meta["io.modelcontextprotocol/subscriptionId"], "watch");
    await line.next((m) => m.id === 1, "the write");
    line.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "watch" } });
    write(2, false);
    await line.next((m) => m.id === 2, "the write after the cancel");
    const updates = line.received.filter((m) => m.method === "notifications/resources/updated");
    assert.equal(updates.length, 1, "nothing after the cancel (the update comes before the write's reply)");
    assert.ok(!line.received.some((m) => m.id === "watch"), "a cancelled listen gets no response");
    line.close();
  });
});

describe("SDK v2 pinned to 2026-07-28 on Streamable HTTP", () => {
  const daemon = new Daemon({ http: "127.0.0.1:0" });
  before(() => daemon.start());
  after(() => daemon.stop());
  const url = () => new URL(`http://${daemon.httpAddress}/mcp`);

  it("discovers, lists and calls tools without a session", async () => {
    await withClient(new StreamableHTTPClientTransport(url()), exercise);
  });

  it("finds the modern era in auto mode, and opens a session in legacy mode", async () => {
    await withClient(new StreamableHTTPClientTransport(url()), async (c) => assert.equal(c.getProtocolEra(), "modern"), "auto");
    await withClient(new StreamableHTTPClientTransport(url()), async (c) => assert.equal(c.getProtocolEra(), "legacy"), "legacy");
  });

  it("refuses with JSON-RPC error bodies that carry the request id", async () => {
    const post = (headers, message) =>
      fetch(url(), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(message),
      });
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    const headers = { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list" };
    let res = await post({ ...headers, "Mcp-Method": "tools/call" }, { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: meta } });
    assert.equal(res.status, 400);
    assert.deepEqual(((b) => [b.id, b.error.code])(await res.json()), [5, -32020]);
    res = await post({ ...headers, "Mcp-Method": "initialize" }, { jsonrpc: "2.0", id: 6, method: "initialize", params: { _meta: meta } });
    assert.equal(res.status, 404);
    assert.deepEqual(((b) => [b.id, b.error.code])(await res.json()), [6, -32601]);
    res = await post({ ...headers, "MCP-Protocol-Version": "1900-01-01" }, { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: meta } });
    assert.equal(res.status, 400);
    const unsupported = await res.json();
    assert.equal(unsupported.error.code, -32022);
    assert.ok(unsupported.error.data.supported.includes(MODERN));
    res = await post(headers, { jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: meta } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("mcp-session-id"), null, "no session");
    assert.equal((await res.json()).result.resultType, "complete");
    res = await fetch(url(), { headers: { "MCP-Protocol-Version": MODERN, Accept: "text/event-stream" } });
    assert.equal(res.status, 405, "no GET stream in 2026-07-28");
    assert.equal((await res.json()).error.code, -32600);
  });

  it("listens on a stream of its own: a pin update, then a tool-set change", async () => {
    await withClient(new StreamableHTTPClientTransport(url()), async (client) => {
      const discover = await client.discover();
      assert.equal(discover.capabilities.tools.listChanged, true, "HTTP serves subscriptions/listen");
      assert.equal(discover.capabilities.resources.subscribe, true);
      const seen = { updates: [], toolsChanged: 0 };
      client.setNotificationHandler("notifications/resources/updated", (n) => seen.updates.push(n.params));
      client.setNotificationHandler("notifications/tools/list_changed", () => seen.toolsChanged++);
      const filter = { resourceSubscriptions: ["mcpu://pins/led"], toolsListChanged: true };
      const subscription = await client.listen(filter);
      assert.deepEqual(subscription.honoredFilter, filter);
      await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: true } });
      await waitFor(() => seen.updates.some((u) => u.uri === "mcpu://pins/led"), "the pin update on the listen stream");
      assert.ok(seen.updates.every((u) => u.uri === "mcpu://pins/led"), "only the URI asked for");
      daemon.reload({ sampled: true });
      await waitFor(() => seen.toolsChanged > 0, "tools/list_changed on the listen stream");
      await subscription.close();
      assert.equal(await subscription.closed, "local");
    });
  });
});
