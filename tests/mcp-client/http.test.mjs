// SPDX-License-Identifier: MIT
// The SDK client over Streamable HTTP: POST /mcp, the GET notification stream,
// Mcp-Session-Id, DELETE at the end; plus the HTTP-specific refusals.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Daemon } from "./daemon.mjs";
import { mcpScenario } from "./scenario.mjs";

describe("MCP over Streamable HTTP", () => {
  const daemon = new Daemon({ http: "127.0.0.1:0" });
  after(() => daemon.stop());
  let transport;
  mcpScenario(async () => {
    await daemon.start();
    transport = new StreamableHTTPClientTransport(new URL(`http://${daemon.httpAddress}/mcp`));
    return { transport, reload: (o) => daemon.reload(o), cleanup: () => transport.terminateSession?.() };
  });

  const post = (body, headers = {}) =>
    fetch(`http://${daemon.httpAddress}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  // Bytes written as they are (fetch would merge repeated headers); everything
  // the daemon sends back until it closes.
  const rawExchange = (text) => {
    const [host, port] = daemon.httpAddress.split(":");
    return new Promise((resolve) => {
      const socket = connect(Number(port), host, () => socket.write(text));
      let received = "";
      socket.on("data", (d) => (received += d)).on("end", () => resolve(received)).on("error", () => resolve(received));
    });
  };

  it("refuses foreign origins, unknown sessions and requests before initialize", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    assert.equal((await post(ping, { Origin: "http://evil.example" })).status, 403);
    assert.equal((await post(ping, { "Mcp-Session-Id": "nope" })).status, 404);
    assert.equal((await post(ping)).status, 400);
    assert.equal((await post("{not json", {})).status, 400);
    assert.equal((await post(ping, { Origin: "http://127.0.0.1:1@evil.example" })).status, 400, "userinfo hiding a foreign host");
    // Two Origin headers (fetch would merge them): every one is checked.
    const raw = await rawExchange("POST /mcp HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nOrigin: http://evil.example\r\n" +
      "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    assert.match(raw, /^HTTP\/1\.1 403/);
  });

  it("answers HEAD with headers only, so the next response on the connection is read right", async () => {
    const raw = await rawExchange("HEAD /mcp HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n" +
      "GET /nothing-here HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const responses = raw.split(/(?=HTTP\/1\.1 )/);
    assert.equal(responses.length, 3, raw);
    assert.match(responses[0], /^HTTP\/1\.1 405[^]*\r\n\r\n$/, "a body followed the HEAD's headers");
    assert.match(responses[1], /^HTTP\/1\.1 200[^]*\r\n\r\n$/);
    const length = Number(/content-length: (\d+)/i.exec(responses[1])[1]);
    assert.ok(length > 0, "HEAD / names the length a GET would get");
    assert.match(responses[2], /^HTTP\/1\.1 404/);
  });

  it("opens no session for a failed initialize, and refuses ambiguous or encoded requests", async () => {
    // More than max_sessions_per_address (16): kept, they would lock the address out.
    for (let i = 0; i < 20; i++) {
      const bad = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: "x" });
      assert.equal(bad.headers.get("mcp-session-id"), null, "a failed initialize named a session");
      assert.equal((await bad.json()).error.code, -32602);
    }
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
                            { "Content-Type": "Application/JSON ; charset=utf-8" });
    const session = init.headers.get("mcp-session-id");
    assert.ok(session, `a good initialize after 20 bad ones got ${init.status}`);
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const gzipped = await post(ping, { "Mcp-Session-Id": session, "Content-Encoding": "gzip" });
    assert.equal(gzipped.status, 415);
    const noSession = await fetch(`http://${daemon.httpAddress}/mcp`, { method: "DELETE" });
    assert.equal(noSession.status, 400);
    // Two Mcp-Session-Id headers (fetch would merge them into one).
    const body = JSON.stringify(ping);
    const raw = await rawExchange(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: ${session}\r\nMcp-Session-Id: other\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    assert.match(raw, /^HTTP\/1\.1 400/);
    assert.equal((await post(ping, { "Mcp-Session-Id": session })).status, 200);
  });

  it("answers in SSE when asked, 406 when neither is accepted, allows one stream per session, bounds bodies, ends sessions", async () => {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const session = init.headers.get("mcp-session-id");
    assert.ok(session);
    const res = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": session, Accept: "text/event-stream" });
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    assert.match(await res.text(), /^event: message\ndata: \{"jsonrpc":"2.0","id":2,"result":\{\}\}/);
    const stream = await fetch(`http://${daemon.httpAddress}/mcp`, { headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" } });
    assert.equal(stream.status, 200);
    const second = await fetch(`http://${daemon.httpAddress}/mcp`, { headers: { "Mcp-Session-Id": session, Accept: "text/event-stream" } });
    assert.equal(second.status, 409);
    const html = await post({ jsonrpc: "2.0", id: 4, method: "ping" }, { "Mcp-Session-Id": session, Accept: "text/html" });
    assert.equal(html.status, 406, "a client that takes neither JSON nor an event stream");
    assert.match(await html.text(), /Accept/);
    const anything = await post({ jsonrpc: "2.0", id: 5, method: "ping" }, { "Mcp-Session-Id": session, Accept: "*/*" });
    assert.deepEqual(await anything.json(), { jsonrpc: "2.0", id: 5, result: {} });
    const big = await post(" ".repeat(2 * 1024 * 1024), { "Mcp-Session-Id": session }).catch(() => null);
    assert.ok(big === null || big.status === 413, `expected 413, got ${big?.status}`);
    const ended = await fetch(`http://${daemon.httpAddress}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    assert.equal(ended.status, 200);
    assert.equal((await post({ jsonrpc: "2.0", id: 3, method: "ping" }, { "Mcp-Session-Id": session })).status, 404);
    await stream.body.cancel();
  });

  it("answers a body with neither requests nor notifications with 400 and the engine's error", async () => {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const headers = { "Mcp-Session-Id": init.headers.get("mcp-session-id") };
    for (const body of ["{}", "[1]", "1", JSON.stringify({ jsonrpc: "1.0", method: "x" })]) {
      const res = await post(body, headers);
      assert.equal(res.status, 400, body);
      const reply = [await res.json()].flat()[0];
      assert.equal(reply.error.code, -32600, body);
      assert.equal(reply.id, null, body);
    }
    const notifications = Array.from({ length: 1001 }, () => ({ jsonrpc: "2.0", method: "notifications/initialized" }));
    const tooMany = await post(notifications, headers);
    assert.equal(tooMany.status, 400, "a batch the engine refuses whole");
    assert.match((await tooMany.json()).error.message, /1001 exceeds 1000/);
    assert.equal((await post(notifications.slice(0, 3), headers)).status, 202);
    // An id makes a request, a method makes it no response: each is answered.
    assert.deepEqual(await (await post({ jsonrpc: "2.0", id: 7 }, headers)).json(), {
      jsonrpc: "2.0", id: 7, error: { code: -32600, message: 'Invalid request: method must be a string' },
    });
    assert.deepEqual(await (await post({ jsonrpc: "2.0", id: 8, method: "ping", result: 0 }, headers)).json(), { jsonrpc: "2.0", id: 8, result: {} });
    // Deeper than any stack would take: refused before anything recurses into it.
    for (const text of ["[".repeat(100000) + "]".repeat(100000), "[".repeat(100000), '{"a":'.repeat(100000)]) {
      const deep = await post(text, headers);
      assert.equal(deep.status, 400);
      assert.match((await deep.json()).error.message, /nested deeper than 64/, "as on the line transports, closed or not");
    }
  });

  it("answers a batch whose session is deleted while the batch is being served", async () => {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const session = init.headers.get("mcp-session-id");
    const batch = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/list" }));
    const answer = post(batch, { "Mcp-Session-Id": session });
    await new Promise((r) => setTimeout(r, 20));
    const ended = await fetch(`http://${daemon.httpAddress}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": session } });
    assert.equal(ended.status, 200);
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal((await res.json()).length, 1000);
  });

  it("bounds chunk headers and trailers, which the header and body limits do not", async () => {
    const rssKb = () => Number(readFileSync(`/proc/${daemon.process.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]);
    const chunked = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const before = rssKb();
    for (const text of [`${chunked}5;e=${"a".repeat(4 << 20)}`, `${chunked}2\r\n{}\r\n0\r\n${"X-T: aaaa\r\n".repeat(400000)}`]) {
      const raw = await rawExchange(text);
      assert.ok(raw === "" || /^HTTP\/1\.1 400/.test(raw), raw.slice(0, 200));  // or reset: the rest was never read
    }
    assert.ok(rssKb() < before + 20 * 1024, `RSS grew from ${before} to ${rssKb()} kB`);
    assert.equal((await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).status, 200);
  });

  it("chooses the reply's format by Accept in any letter case, q=0 refusing a type", async () => {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const session = init.headers.get("mcp-session-id");
    for (const accept of ["TEXT/EVENT-STREAM", "text/event-stream, application/json;q=0"]) {
      const res = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": session, Accept: accept });
      assert.equal(res.headers.get("content-type"), "text/event-stream", accept);
      await res.text();
    }
    const json = await post({ jsonrpc: "2.0", id: 3, method: "ping" }, { "Mcp-Session-Id": session, Accept: "Application/JSON, text/event-stream" });
    assert.equal(json.headers.get("content-type"), "application/json");
    const stream = await fetch(`http://${daemon.httpAddress}/mcp`, { headers: { "Mcp-Session-Id": session, Accept: "Text/Event-Stream" } });
    assert.equal(stream.status, 200);
    await stream.body.cancel();
    const refused = await fetch(`http://${daemon.httpAddress}/mcp`, { headers: { "Mcp-Session-Id": session, Accept: "text/event-stream;q=0" } });
    assert.equal(refused.status, 406);
  });
});

describe("Streamable HTTP with a bearer token", () => {
  const daemon = new Daemon({ http: "127.0.0.1:0", token: "s3cret-token" });
  after(() => daemon.stop());

  it("refuses requests without the token and serves the SDK client that sends it", async () => {
    await daemon.start();
    const url = new URL(`http://${daemon.httpAddress}/mcp`);
    const bare = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    assert.equal(bare.status, 401);
    assert.equal(bare.headers.get("www-authenticate"), "Bearer");
    const lowercase = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "bearer s3cret-token" }, body: "{}" });
    assert.notEqual(lowercase.status, 401, "the scheme is case-insensitive (RFC 7235)");
    const client = new Client({ name: "mcpud-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: "Bearer s3cret-token" } } }));
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    await client.close();
  });
});

describe("Streamable HTTP bounds what one client can hold", () => {
  const daemon = new Daemon({ http: "127.0.0.1:0" });
  before(() => daemon.start());
  after(() => daemon.stop());
  const post = (body, headers = {}) =>
    fetch(`http://${daemon.httpAddress}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
  const initialize = () => post({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} });

  it("answers a POST whose replies pass client_queue_bytes within it, with REPLY_TOO_LARGE for the rest", async () => {
    const session = (await initialize()).headers.get("mcp-session-id");
    const batch = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "list_tools" }));
    const res = await post(batch, { "Mcp-Session-Id": session });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(text.length <= 1048576 + 1000 * 400, `a reply of ${text.length} bytes`);
    const replies = JSON.parse(text);
    assert.equal(replies.length, 1000);
    const tooLarge = replies.filter((r) => r.error?.data?.code === "REPLY_TOO_LARGE");
    assert.ok(tooLarge.length > 0 && tooLarge.length < 1000);
    assert.equal(tooLarge[0].error.code, -32042);
    const ping = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": session });
    assert.equal(ping.status, 200, "the session goes on");
  });

  it("ends an address's least recently used session for its 17th, as hosts that never DELETE need", async () => {
    const ping = (session) => post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": session });
    const sessions = [];
    for (let i = 0; i < 40; i++) {
      const res = await initialize();
      assert.equal(res.status, 200, `initialize ${i} was refused`);
      sessions.push(res.headers.get("mcp-session-id"));
    }
    // max_sessions_per_address = 16: the 24 oldest made room for the newest.
    assert.equal((await ping(sessions[0])).status, 404, "the oldest session lives on");
    assert.equal((await ping(sessions[23])).status, 404);
    // (one older session with an open stream may outrank the first of them)
    for (const live of sessions.slice(25)) assert.equal((await ping(live)).status, 200);
  });
});
