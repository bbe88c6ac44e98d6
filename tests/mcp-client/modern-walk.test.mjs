// SPDX-License-Identifier: MIT
// The SDK v2 client walks a board on every MCP transport (mcpud --stdio, the
// mcpud-stdio relay, the unix socket, Streamable HTTP) in every version mode
// (pinned to 2026-07-28, auto, legacy): every tool called, a pin update and a
// bridged device's unplug and replug watched (subscriptions/listen in the
// modern era, resources/subscribe and unsolicited list changes in the legacy
// one), and a waiting serial read cancelled.
import assert from "node:assert/strict";
import { describe, it, before, after } from "node:test";
import { openSync, writeSync, closeSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Daemon, MCPUD, MCPUD_STDIO, allTools, waitFor } from "./daemon.mjs";
import { startDevice, startPty, serialAndBridgeConfig } from "./device.mjs";
import { UnixSocketTransport } from "./unix-transport.mjs";

const MODERN = "2026-07-28";
const MODES = { pinned: { pin: MODERN }, auto: "auto", legacy: "legacy" };
// Unplugged, the device's tools go at once (no grace), and it is redialled soon.
const FAST_REPLUG = "replug_grace_ms = 0\nretry_max_ms = 200\n";

// A board with a bridged device and a serial pty, and how to reach it by `door`.
async function startBoard(door) {
  const device = await startDevice();
  const daemon = new Daemon(door === "http" ? { http: "127.0.0.1:0" } : {});
  const pty = await startPty(daemon.dir);
  daemon.extra = serialAndBridgeConfig(daemon.dir, device.port) + FAST_REPLUG;
  // --stdio starts a daemon of its own from the file; the others reach a running one.
  if (door === "stdio") daemon.writeConfig();
  else await daemon.start();
  const transport = {
    stdio: () => new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", daemon.configPath], stderr: "ignore" }),
    relay: () => new StdioClientTransport({ command: MCPUD_STDIO, args: ["--socket", daemon.socketPath] }),
    unix: () => new UnixSocketTransport(daemon.socketPath),
    http: () => new StreamableHTTPClientTransport(new URL(`http://${daemon.httpAddress}/mcp`)),
  }[door];
  return {
    device,
    pty,
    transport,
    async stop() {
      pty.socat.kill();
      device.close();
      await daemon.stop();
    },
  };
}

// What a client hears of changes, by whichever mechanism its era has.
function listenTo(client) {
  const seen = { pinUpdates: 0, toolsChanged: 0 };
  client.setNotificationHandler("notifications/resources/updated", (n) => {
    if (n.params.uri === "mcpu://pins/led") seen.pinUpdates++;
  });
  client.setNotificationHandler("notifications/tools/list_changed", () => seen.toolsChanged++);
  return seen;
}

async function watchChanges(client) {
  if (client.getProtocolEra() === "modern")
    return client.listen({ toolsListChanged: true, resourceSubscriptions: ["mcpu://pins/led"] });
  await client.subscribeResource({ uri: "mcpu://pins/led" });
  return { close: async () => client.unsubscribeResource({ uri: "mcpu://pins/led" }) };
}

const names = async (client) => (await allTools(client)).map((t) => t.name);

// Every tool answers with a result (arguments left out are an isError result, never a
// protocol error), but the ones that would change the walk: the e-stop latches, and the
// device's `never` answers only at the bridge's timeout.
async function callEveryTool(client) {
  const tools = await names(client);
  for (const name of ["gpio_write", "serial_read", "emergency_stop", "dev__slow_echo"]) assert.ok(tools.includes(name), name);
  for (const name of tools.filter((n) => n !== "emergency_stop" && n !== "dev__never")) {
    const result = await client.callTool({ name, arguments: {} });
    assert.ok(Array.isArray(result.content) && typeof result.isError === "boolean", `${name}: ${JSON.stringify(result)}`);
  }
  const echoed = await client.callTool({ name: "dev__slow_echo", arguments: { text: "through the bridge" } });
  assert.deepEqual(echoed.structuredContent, { echo: "through the bridge" });
}

async function watchAPinAndAReplug(client, board) {
  const seen = listenTo(client);
  const watch = await watchChanges(client);
  await client.callTool({ name: "gpio_write", arguments: { pin: 2, value: true } });
  await waitFor(() => seen.pinUpdates > 0, "the LED's update");
  await board.device.unplug();
  await waitFor(() => seen.toolsChanged > 0, "tools/list_changed when the device goes");
  await waitFor(async () => !(await names(client)).includes("dev__slow_echo"), "its tools gone");
  await board.device.replug();
  await waitFor(async () => (await names(client)).includes("dev__slow_echo"), "its tools back");
  await waitFor(() => seen.toolsChanged > 1, "tools/list_changed when it is back");
  await watch.close();
}

// A serial read that waits is cancelled by the client (the SDK sends
// notifications/cancelled); what arrives next goes to the next read.
async function cancelAWaitingRead(client, board) {
  let opened;
  await waitFor(async () => {
    opened = await client.callTool({ name: "serial_connect", arguments: { port: board.pty.dut } });
    return !opened.isError || !/PORT_ALREADY_IN_USE/.test(opened.content[0].text);
  }, "the pty to be free");
  assert.equal(opened.isError, false, opened.content[0].text);
  const session = opened.structuredContent.session_id;
  const pendingReads = async () => {
    const listed = await client.callTool({ name: "serial_list_sessions", arguments: {} });
    return listed.structuredContent.sessions.find((s) => s.session_id === session)?.pending_reads;
  };
  const abort = new AbortController();
  const waiting = client.callTool({ name: "serial_read", arguments: { session_id: session, timeout_ms: 20000 } }, { signal: abort.signal });
  await waitFor(async () => (await pendingReads()) === 1, "the read to wait in mcpud");
  abort.abort("the user changed their mind");
  await assert.rejects(waiting);
  // Over HTTP the cancel is the closed request, which mcpud notices on its own time.
  await waitFor(async () => (await pendingReads()) === 0, "the cancelled read to leave the queue");
  const fd = openSync(board.pty.peer, "w");
  writeSync(fd, "for the next read");
  closeSync(fd);
  const next = await client.callTool({ name: "serial_read", arguments: { session_id: session, timeout_ms: 5000 } });
  assert.equal(next.structuredContent.data, "for the next read", "the cancelled read took the data");
  await client.callTool({ name: "serial_disconnect", arguments: { session_id: session } });
}

for (const door of ["stdio", "relay", "unix", "http"]) {
  describe(`SDK v2 walks the board over ${door}`, () => {
    let board;
    before(async () => (board = await startBoard(door)));
    after(() => board?.stop());

    for (const [mode, negotiation] of Object.entries(MODES)) {
      it(`${mode}: every tool, a pin update and a replug watched, a read cancelled`, async () => {
        const client = new Client({ name: "mcpud-walk", version: "1.0.0" }, { versionNegotiation: { mode: negotiation } });
        await client.connect(board.transport());
        try {
          assert.equal(client.getProtocolEra(), mode === "legacy" ? "legacy" : "modern");
          if (mode !== "legacy") assert.ok((await client.discover()).supportedVersions.includes(MODERN));
          await waitFor(async () => (await names(client)).includes("dev__slow_echo"), "the bridged tools");
          await callEveryTool(client);
          await watchAPinAndAReplug(client, board);
          await cancelAWaitingRead(client, board);
        } finally {
          await client.close();
        }
      });
    }
  });
}
