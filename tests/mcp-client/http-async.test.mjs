// SPDX-License-Identifier: MIT
// Tools that answer later over Streamable HTTP: a serial read that waits, serial
// send and exec, a bridged MCU tool, a bridged call that times out; with the SDK
// client (JSON replies) and with an SSE-only Accept header; and a client that
// leaves while its call is pending.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { openSync, writeSync, closeSync, readSync } from "node:fs";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Daemon, waitFor, allTools } from "./daemon.mjs";
import { startDevice, startPty, serialAndBridgeConfig } from "./device.mjs";

describe("asynchronous tools over Streamable HTTP", () => {
  let device, pty, daemon, client, url;
  let sessionId;
  before(async () => {
    device = await startDevice();
    daemon = new Daemon({ http: "127.0.0.1:0" });
    pty = await startPty(daemon.dir);
    daemon.extra = serialAndBridgeConfig(daemon.dir, device.address().port);
    await daemon.start();
    url = new URL(`http://${daemon.httpAddress}/mcp`);
    client = new Client({ name: "async-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    await waitFor(async () => (await allTools(client)).some((t) => t.name === "dev__slow_echo"), "the bridged tools");
    // socat may still hold the slave side for a moment after making the links.
    let opened;
    await waitFor(async () => {
      opened = await client.callTool({ name: "serial_connect", arguments: { port: pty.dut } });
      return !opened.isError || !/PORT_ALREADY_IN_USE/.test(opened.content[0].text);
    }, "the pty to be free");
    assert.equal(opened.isError, false, JSON.stringify(opened));
    sessionId = opened.structuredContent.session_id;
  });
  after(async () => {
    await client?.close();
    pty?.socat.kill();
    device?.close();
    await daemon?.stop();
  });

  const call = (name, args) => client.callTool({ name, arguments: args });
  const text = (result) => result.content.map((c) => c.text).join("");

  it("answers a serial_read that waits for data", async () => {
    const pending = call("serial_read", { session_id: sessionId, timeout_ms: 5000 });
    setTimeout(() => {
      const fd = openSync(pty.peer, "w");
      writeSync(fd, "late bytes");
      closeSync(fd);
    }, 300);
    const result = await pending;
    assert.equal(result.isError, false, text(result));
    assert.equal(result.structuredContent.data, "late bytes");
  });

  it("answers a serial_read_line that times out", async () => {
    const result = await call("serial_read_line", { session_id: sessionId, timeout_ms: 200 });
    assert.equal(result.isError, false, text(result));
    assert.equal(result.structuredContent.line_complete, false);
  });

  it("answers serial_send and serial_exec", async () => {
    const sent = await call("serial_send", { session_id: sessionId, data: "hello" });
    assert.equal(sent.structuredContent.bytes_written, 6);
    const fd = openSync(pty.peer, "r+");
    const buffer = Buffer.alloc(64);
    await waitFor(() => readSync(fd, buffer, 0, 64, null) > 0, "the sent bytes");
    const exec = call("serial_exec", { session_id: sessionId, command: "status", expect: "OK", timeout_ms: 5000 });
    setTimeout(() => writeSync(fd, "all OK\n"), 300);
    const result = await exec;
    closeSync(fd);
    assert.equal(result.isError, false, text(result));
    assert.match(result.structuredContent.data, /OK/);
  });

  it("answers a bridged tool, and a bridged call that times out", async () => {
    const echoed = await call("dev__slow_echo", { text: "hi" });
    assert.equal(echoed.isError, false, text(echoed));
    assert.deepEqual(echoed.structuredContent, { echo: "hi" });
    const timedOut = await call("dev__never", {});
    assert.equal(timedOut.isError, true);
    assert.match(text(timedOut), /TIMEOUT/);
  });

  it("answers as an SSE stream when the client accepts only text/event-stream", async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", "Mcp-Session-Id": client.transport.sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 41, method: "tools/call", params: { name: "dev__slow_echo", arguments: { text: "sse" } } }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const body = await res.text();
    const reply = JSON.parse(body.match(/^data: (.*)$/m)[1]);
    assert.equal(reply.id, 41);
    assert.deepEqual(reply.result.structuredContent, { echo: "sse" });
  });

  // notifications/cancelled from the same session: no response is due for the
  // cancelled requests, but each POST that carried them is still answered (202).
  for (const accept of ["application/json, text/event-stream", "text/event-stream"]) {
    it(`ends a POST whose requests were all cancelled with 202 (Accept: ${accept})`, async () => {
      const post = (message, headers = {}) =>
        fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: accept, "Mcp-Session-Id": client.transport.sessionId, ...headers },
          body: JSON.stringify(message),
        });
      const read = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "serial_read", arguments: { session_id: sessionId, timeout_ms: 60000 } } });
      const cancel = (requestId) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "test" } });
      // What earlier tests left in the session (serial_exec's newline) would answer a read at once.
      while ((await call("serial_read", { session_id: sessionId, timeout_ms: 50 })).structuredContent.bytes_read > 0);
      const lone = post(read("lone"));
      const batch = post([read("b1"), read("b2")]);
      await waitFor(async () => {
        const { structuredContent } = await call("serial_list_sessions", {});
        return structuredContent.sessions.find((x) => x.session_id === sessionId)?.pending_reads === 3;
      }, "the three reads to wait");
      assert.equal((await post(cancel("lone"))).status, 202);
      const loneAnswer = await lone;
      assert.equal(loneAnswer.status, 202);
      assert.equal(await loneAnswer.text(), "");
      assert.equal((await post([cancel("b1"), cancel("b2")])).status, 202);
      const batchAnswer = await batch;
      assert.equal(batchAnswer.status, 202);
      assert.equal(await batchAnswer.text(), "");
      const echoed = await call("dev__slow_echo", { text: "after the cancellations" });
      assert.deepEqual(echoed.structuredContent, { echo: "after the cancellations" });
    });
  }

  it("survives a client that leaves while its call is pending", async () => {
    for (let i = 0; i < 20; i++) {
      const abort = new AbortController();
      const request = fetch(url, {
        method: "POST",
        signal: abort.signal,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": client.transport.sessionId },
        body: JSON.stringify({ jsonrpc: "2.0", id: 100 + i, method: "tools/call", params: { name: "serial_read", arguments: { session_id: sessionId, timeout_ms: 60000 } } }),
      }).catch(() => null);
      setTimeout(() => abort.abort(), 50);
      await request;
    }
    // The abandoned reads are cancelled at once, not left waiting a minute for nobody.
    await waitFor(async () => {
      const { structuredContent } = await call("serial_list_sessions", {});
      return structuredContent.sessions.find((x) => x.session_id === sessionId)?.pending_reads === 0;
    }, "the abandoned reads to end");
    assert.equal(daemon.process.exitCode, null, daemon.stderr);
    const echoed = await call("dev__slow_echo", { text: "still here" });
    assert.deepEqual(echoed.structuredContent, { echo: "still here" });
    await waitFor(() => /client left while its call was pending/.test(daemon.stderr), "the departure to be noticed");
  });
});
