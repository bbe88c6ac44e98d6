// SPDX-License-Identifier: MIT
// The line transports beside stdio: an MCP/U client on TCP subscribes to a pin
// and gets the same notifications MCP clients get; an MCP client works on plain
// TCP; the voice-assistant envelope works on the unix socket, which is mode 0660.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { describe, it, before, after } from "node:test";
import { Daemon, waitFor, lineClient } from "./daemon.mjs";

describe("MCP and subscriptions on line transports", () => {
  const daemon = new Daemon();
  let tcpPort;
  before(async () => {
    await daemon.start();
    await waitFor(() => /tcp\] listening on 127\.0\.0\.1:(\d+)/.test(daemon.stderr), "the TCP listener");
    tcpPort = Number(daemon.stderr.match(/tcp\] listening on 127\.0\.0\.1:(\d+)/)[1]);
  });
  after(() => daemon.stop());

  it("pushes pin changes to an MCP/U client subscribed over TCP", async () => {
    const watcher = await lineClient({ port: tcpPort, host: "127.0.0.1" });
    watcher.send({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { uris: ["mcpu://pins/led", "mcpu://serial/1"] } });
    const unknown = await watcher.next((m) => m.id === 1, "the subscribe reply");
    assert.equal(unknown.error.code, -32050, "no serial session 1 exists: nothing is subscribed");
    assert.match(unknown.error.message, /params\.uris\[1\]: resource not found: mcpu:\/\/serial\/1/);
    watcher.send({ jsonrpc: "2.0", id: 3, method: "subscribe", params: { uris: ["mcpu://pins/led"] } });
    const reply = await watcher.next((m) => m.id === 3, "the subscribe reply");
    assert.deepEqual(reply.result.subscribed, ["mcpu://pins/led"]);
    const driver = await lineClient({ port: tcpPort, host: "127.0.0.1" });
    driver.send({ jsonrpc: "2.0", id: 7, method: "gpio_write", params: { pin: 2, value: true } });
    const update = await watcher.next((m) => m.method === "notifications/resources/updated", "the pin update");
    assert.deepEqual(update.params, { uri: "mcpu://pins/led", event: "pin_changed", data: { pin: 2, name: "led", value: true } });
    assert.ok(!driver.received.some((m) => m.method), "the driver did not subscribe");
    const bad = (watcher.send({ jsonrpc: "2.0", id: 2, method: "subscribe", params: { uris: ["file:///etc/passwd"] } }),
      await watcher.next((m) => m.id === 2, "the refusal"));
    assert.equal(bad.error.code, -32602);
    watcher.close();
    driver.close();
  });

  it("serves an MCP client on plain TCP", async () => {
    const client = await lineClient({ port: tcpPort, host: "127.0.0.1" });
    client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {} } });
    assert.equal((await client.next((m) => m.id === 1, "initialize")).result.protocolVersion, "2025-03-26");
    client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // tools/list pages by bytes (mcp.page_bytes); a client follows nextCursor.
    const names = [];
    let cursor;
    for (let id = 2; ; ++id) {
      client.send({ jsonrpc: "2.0", id, method: "tools/list", params: { withUserTools: true, ...(cursor && { cursor }) } });
      const page = (await client.next((m) => m.id === id, "tools/list")).result;
      names.push(...page.tools.map((t) => t.name));
      if (!(cursor = page.nextCursor)) break;
    }
    assert.ok(names.includes("get_info") && names.includes("gpio_write"));
    client.close();
  });

  it("answers the envelope in the envelope on the unix socket, which is mode 0660", async () => {
    assert.equal(statSync(daemon.socketPath).mode & 0o777, 0o660);
    const client = await lineClient({ path: daemon.socketPath });
    client.send({ session_id: "s-1", type: "mcp", payload: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "gpio_read", arguments: { pin: 3 } } } });
    const reply = await client.next((m) => m.session_id === "s-1", "the enveloped reply");
    assert.equal(reply.type, "mcp");
    assert.equal(reply.payload.id, 3);
    assert.equal(reply.payload.result.isError, false);
    client.close();
  });
});
