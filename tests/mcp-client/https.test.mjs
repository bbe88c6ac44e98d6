// SPDX-License-Identifier: MIT
// A remote MCP host reaches mcpud over HTTPS ([http] tls_cert and tls_key):
// the SDK v1 client (2025-11-25, sessions and the GET stream) and the SDK v2
// client (2026-07-28) connect, list and call, trusting a throwaway CA through
// NODE_EXTRA_CA_CERTS as a host trusts a public one. The token is still asked
// for, and plain HTTP on the TLS port is refused with a reason.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Daemon, waitFor } from "./daemon.mjs";

const CERTS = process.env.MCPUD_TEST_CERTS;
if (!CERTS || !process.env.NODE_EXTRA_CA_CERTS) throw new Error("set MCPUD_TEST_CERTS and NODE_EXTRA_CA_CERTS (ctest does)");
const TOKEN = "remote-host-token";
const headers = { Authorization: `Bearer ${TOKEN}` };

describe("MCP over HTTPS", () => {
  const daemon = new Daemon({
    http: "127.0.0.1:0",
    token: TOKEN,
    httpExtra: `tls_cert = "${join(CERTS, "server.pem")}"\ntls_key = "${join(CERTS, "server.key")}"`,
  });
  let url;
  before(async () => {
    await daemon.start();
    assert.match(daemon.stderr, /HTTPS with /, "the listener says it speaks TLS");
    url = new URL(`https://localhost:${daemon.httpAddress.split(":").pop()}/mcp`);
  });
  after(() => daemon.stop());

  it("serves the SDK v1 client: a session, its stream, a call", async () => {
    const client = new ClientV1({ name: "https-v1", version: "1.0.0" });
    let toolsChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => toolsChanged++);
    const transport = new TransportV1(url, { requestInit: { headers } });
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion().name, "mcp-test");
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "gpio_write"));
      const written = await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: true } });
      assert.deepEqual(written.structuredContent, { pin: 2, name: "led", value: true });
      const read = await client.callTool({ name: "gpio_read", arguments: { pin: 3 } });
      assert.equal(read.structuredContent.value, true);
      // The session's GET stream, a long-lived TLS connection, carries what a reload changed.
      daemon.reload({ sampled: true });
      await waitFor(() => toolsChanged > 0, "tools/list_changed on the GET stream");
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("serves the SDK v2 client in the 2026-07-28 revision", async () => {
    const client = new Client({ name: "https-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      assert.equal(client.getProtocolEra(), "modern");
      const written = await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: false } });
      assert.deepEqual(written.structuredContent, { pin: 2, name: "led", value: false });
    } finally {
      await client.close();
    }
  });

  it("still asks for the token, and answers plain HTTP on the TLS port with a reason", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const post = (target, extra = {}) =>
      fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra },
        body: ping,
      });
    assert.equal((await post(url)).status, 401);
    const plain = await post(new URL(url.href.replace("https:", "http:")), headers);
    assert.equal(plain.status, 400);
    assert.match(await plain.text(), /TLS|HTTPS/);
  });
});
