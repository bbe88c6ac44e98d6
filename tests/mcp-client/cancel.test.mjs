// SPDX-License-Identifier: MIT
// notifications/cancelled stops a call that waits (a serial read, a bridged
// call): no response is sent for it, and it no longer holds what it waited on.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { openSync, writeSync, closeSync } from "node:fs";
import { Daemon, waitFor, lineClient, tcpPortOf } from "./daemon.mjs";
import { startDevice, startPty, serialAndBridgeConfig } from "./device.mjs";

describe("MCP cancellation over TCP", () => {
  let device, pty, daemon, client, sessionId;
  let nextId = 1;
  const call = async (name, args) => {
    const id = nextId++;
    client.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    return (await client.next((m) => m.id === id, `the answer to ${name}`)).result;
  };
  const start = (name, args) => {
    const id = nextId++;
    client.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    return id;
  };
  const cancel = (requestId) =>
    client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the user changed their mind" } });

  before(async () => {
    device = await startDevice();
    daemon = new Daemon();
    pty = await startPty(daemon.dir);
    daemon.extra = serialAndBridgeConfig(daemon.dir, device.address().port);
    await daemon.start();
    await waitFor(() => /tcp\] listening on/.test(daemon.stderr), "the TCP listener");
    client = await lineClient({ port: tcpPortOf(daemon), host: "127.0.0.1" });
    client.send({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } });
    await waitFor(async () => (await listAll()).includes("dev__slow_echo"), "the bridged tools");
    let opened;
    await waitFor(async () => {
      opened = await call("serial_connect", { port: pty.dut });
      return !opened.isError || !/PORT_ALREADY_IN_USE/.test(opened.content[0].text);
    }, "the pty to be free");
    sessionId = opened.structuredContent.session_id;
  });
  after(async () => {
    client?.close();
    pty?.socat.kill();
    device?.close();
    await daemon?.stop();
  });

  async function listAll() {
    const id = nextId++;
    client.send({ jsonrpc: "2.0", id, method: "tools/list", params: { withUserTools: true } });
    const names = [];
    let page = (await client.next((m) => m.id === id, "tools/list")).result;
    names.push(...page.tools.map((t) => t.name));
    while (page.nextCursor) {
      const more = nextId++;
      client.send({ jsonrpc: "2.0", id: more, method: "tools/list", params: { cursor: page.nextCursor, withUserTools: true } });
      page = (await client.next((m) => m.id === more, "tools/list")).result;
      names.push(...page.tools.map((t) => t.name));
    }
    return names;
  }

  it("stops a waiting serial read: no answer, and the data goes to the next read", async () => {
    const cancelled = start("serial_read", { session_id: sessionId, timeout_ms: 10000 });
    await new Promise((r) => setTimeout(r, 100));
    cancel(cancelled);
    await new Promise((r) => setTimeout(r, 100));
    const fd = openSync(pty.peer, "w");
    writeSync(fd, "for the next read");
    closeSync(fd);
    const next = await call("serial_read", { session_id: sessionId, timeout_ms: 5000 });
    assert.equal(next.structuredContent.data, "for the next read");
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!client.received.some((m) => m.id === cancelled), "a cancelled request got a response");
  });

  it("stops a bridged call: no answer, and the device's slot is free again", async () => {
    const cancelled = start("dev__slow_echo", { text: "never mind" });
    cancel(cancelled);
    const answered = await call("dev__slow_echo", { text: "this one" });
    assert.deepEqual(answered.structuredContent, { echo: "this one" });
    await new Promise((r) => setTimeout(r, 500));  // the device's late answer to the first call is dropped
    assert.ok(!client.received.some((m) => m.id === cancelled), "a cancelled request got a response");
    assert.equal(daemon.process.exitCode, null);
  });

  it("ignores a cancellation of what already answered or never was", async () => {
    cancel(nextId - 1);
    cancel(999999);
    cancel("no-such-id");
    const listed = await call("gpio_read", { pin: 2 });
    assert.equal(listed.isError, false);
  });
});
