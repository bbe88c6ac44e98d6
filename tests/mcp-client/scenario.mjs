// SPDX-License-Identifier: MIT
// What every MCP client test checks, whatever the transport: the official SDK
// client initializes, pages through tools/list, calls tools, sees errors, gets
// tools/list_changed after a reload and resources/updated after a subscription.
import assert from "node:assert/strict";
import { it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { waitFor } from "./daemon.mjs";

// Every page of tools/list, following nextCursor.
async function listAllPages(client, params = {}) {
  const pages = [];
  let cursor;
  do {
    const page = await client.request({ method: "tools/list", params: { ...params, cursor } }, ListToolsResultSchema);
    pages.push(page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

// `setup()` returns {transport, reload(options)}; called once per test file.
export function mcpScenario(setup) {
  let client;
  let env;
  const seen = { toolsChanged: 0, updates: [], logs: [] };

  it("initializes with the SDK's protocol version and the board's name", async () => {
    env = await setup();
    client = new Client({ name: "mcpud-test", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => seen.toolsChanged++);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => seen.updates.push(n.params));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.logs.push(n.params));
    await client.connect(env.transport);
    assert.equal(client.getServerVersion().name, "mcp-test");
    const caps = client.getServerCapabilities();
    assert.equal(caps.tools.listChanged, true);
    assert.equal(caps.resources.subscribe, true);
    await client.ping();
  });

  it("pages tools/list under a small budget and hides user-only tools", async () => {
    const pages = await listAllPages(client);
    assert.ok(pages.length > 1, `expected several pages, got ${JSON.stringify(pages)}`);
    const names = pages.flat();
    assert.ok(names.includes("gpio_write") && names.includes("adc_read"), names.join(","));
    assert.ok(!names.includes("get_info"), "get_info is user-only in this config");
    const withUser = (await listAllPages(client, { withUserTools: true })).flat();
    assert.ok(withUser.includes("get_info"));
    const { tools } = await client.listTools();
    assert.ok(tools.every((t) => t.inputSchema.type === "object"));
  });

  it("calls a tool and gets text plus structured content", async () => {
    const result = await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: true } });
    assert.equal(result.isError, false);
    assert.deepEqual(result.structuredContent, { pin: 2, name: "led", value: true });
    assert.deepEqual(JSON.parse(result.content[0].text), { pin: 2, name: "led", value: true });
    const read = await client.callTool({ name: "gpio_read", arguments: { pin: 3 } });
    assert.equal(read.structuredContent.value, true);
  });

  it("reports a failing tool and invalid arguments as isError, an unknown tool as a JSON-RPC error", async () => {
    const failed = await client.callTool({ name: "gpio_read", arguments: { pin: 99 } });
    assert.equal(failed.isError, true);
    assert.match(failed.content[0].text, /PIN_NOT_FOUND/);
    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => e instanceof McpError && e.code === -32602 && /Unknown tool/.test(e.message));
    // 2025-11-25 (the SDK's version): input validation errors are tool results the model can correct.
    for (const [name, args, message] of [
      ["gpio_write", { pin: 2, value: "on" }, /^arguments\.value: expected boolean, got string$/],
      ["gpio_write", { pin: 2 }, /^arguments\.value: required/],
      ["gpio_write", { pin: 2, value: true, colour: "red" }, /arguments\.colour/],
      ["pwm_write", { pin: 2, duty: 300 }, /^arguments\.duty: /],
    ]) {
      const invalid = await client.callTool({ name, arguments: args });
      assert.equal(invalid.isError, true, JSON.stringify(invalid));
      assert.match(invalid.content[0].text, message);
    }
  });

  it("answers an unknown resource with -32002 and its uri, and refuses to subscribe to it", async () => {
    const isNotFound = (uri) => (e) => e instanceof McpError && e.code === -32002 && e.data?.uri === uri;
    await assert.rejects(client.readResource({ uri: "mcpu://pins/nope" }), isNotFound("mcpu://pins/nope"));
    for (const uri of ["mcpu://pins/nope", "mcpu://serial/424242", "mcpu://tools/no_such_tool"])
      await assert.rejects(client.subscribeResource({ uri }), isNotFound(uri));
    await client.subscribeResource({ uri: "mcpu://tools/gpio_read" });
  });

  it("pushes resources/updated for a subscribed pin", async () => {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "mcpu://pins/led"));
    await client.subscribeResource({ uri: "mcpu://pins/led" });
    await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: false } });
    await waitFor(() => seen.updates.some((u) => u.uri === "mcpu://pins/led"), "notifications/resources/updated");
    const read = await client.readResource({ uri: "mcpu://pins/led" });
    assert.equal(JSON.parse(read.contents[0].text).value, false);
  });

  it("tells the client when a reload fails, as a log message", async () => {
    await client.setLoggingLevel("warning");
    env.reload({ broken: true });
    await waitFor(() => seen.logs.length > 0, "notifications/message");
    assert.equal(seen.logs[0].level, "error");
    assert.match(seen.logs[0].data, /reload failed: .*pins\[2\]/);
  });

  it("pushes tools/list_changed when a reload changes the tool set", async () => {
    const before = seen.toolsChanged;
    env.reload({ sampled: true });
    await waitFor(() => seen.toolsChanged > before, "notifications/tools/list_changed");
    const names = (await listAllPages(client)).flat();
    assert.ok(names.includes("get_pin_summary"), names.join(","));
  });

  it("closes cleanly", async () => {
    await env.cleanup?.();  // e.g. DELETE of the HTTP session
    await client.close();
  });
}
