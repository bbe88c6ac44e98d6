// SPDX-License-Identifier: MIT
// Every built-in tool (pins, info, serial) declares an outputSchema, and what it
// returns matches it: the SDK client checks structuredContent against the
// listed outputSchema itself, so a mismatch fails the call here.
import assert from "node:assert/strict";
import { describe, it, after } from "node:test";
import { writeFileSync } from "node:fs";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Daemon, MCPUD, configText } from "./daemon.mjs";
import { startPty } from "./device.mjs";

const FAN = `
[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
`;

describe("output schemas of the built-in tools", () => {
  const files = new Daemon();  // only for its temporary config; nothing listens
  let pty;
  after(async () => {
    pty?.socat.kill();
    await files.stop();
  });

  it("are declared by every built-in tool and match every result", async () => {
    pty = await startPty(files.dir);
    // One page: the SDK keeps the output schemas of the last tools/list page only.
    const extra = `${FAN}\n[serial]\nports = ["${files.dir}/tty*"]\n`;
    writeFileSync(files.configPath, configText({ sampled: true, pageBytes: 1000000, extra }));
    const client = new Client({ name: "output-schema-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: MCPUD, args: ["--stdio", "--config", files.configPath], stderr: "ignore",
      env: { ...process.env, STATE_DIRECTORY: files.dir } }));  // the e-stop's latch stays in the test's files
    // User-only tools too; listTools also makes the SDK cache the output schemas.
    const { tools, nextCursor } = await client.listTools({ withUserTools: true });
    assert.equal(nextCursor, undefined);
    for (const tool of tools) {
      assert.equal(tool.outputSchema?.type, "object", `${tool.name} declares no outputSchema`);
    }
    const called = new Set();
    const call = async (name, args, { failing = false } = {}) => {
      const result = await client.callTool({ name, arguments: args });  // throws on a schema mismatch
      called.add(name);
      assert.equal(result.isError ?? false, failing, `${name}: ${JSON.stringify(result)}`);
      if (!failing) assert.equal(typeof result.structuredContent, "object", name);
      return result.structuredContent;
    };
    await call("get_info", {});
    await call("gpio_write", { pin: 2, value: true });
    await call("gpio_read", { pin: 3 });
    await call("pwm_write", { pin: 18, duty: 128, frequency_hz: 1000 });
    await call("adc_read", { pin: 26 });
    await call("board_health", {});
    await call("get_pin_summary", { name: "temp" });
    await call("get_pin_buffer", { name: "temp", timestamps: true });
    await call("get_pin_buffer", { name: "led" });  // nothing kept: the other shape
    await call("get_pin_events", { name: "temp" });
    await call("serial_list_ports", {});
    let session;
    for (let tries = 0; !session && tries < 100; tries++) {
      const opened = await client.callTool({ name: "serial_connect", arguments: { port: pty.dut } });
      if (!opened.isError) session = opened.structuredContent.session_id;
      else await new Promise((r) => setTimeout(r, 20));  // socat may still hold the fresh pty
    }
    assert.ok(session, "serial_connect");
    called.add("serial_connect");
    await call("serial_list_sessions", {});
    await call("serial_send", { session_id: session, data: "hi" });
    await call("serial_read", { session_id: session, timeout_ms: 50 });
    await call("serial_read_line", { session_id: session, timeout_ms: 50 });
    await call("serial_read_until", { session_id: session, pattern: "x", timeout_ms: 50 });
    await call("serial_exec", { session_id: session, command: "status", timeout_ms: 100 });
    await call("serial_flush", { session_id: session });
    await call("serial_set_lines", { session_id: session, dtr: true }, { failing: true });  // a pty has no modem lines
    await call("serial_disconnect", { session_id: session });
    await call("emergency_stop", { reason: "output schema test" });  // last: it refuses every later write
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.filter((n) => !called.has(n)), [], "every built-in tool was called");
    await client.close();
  });
});
