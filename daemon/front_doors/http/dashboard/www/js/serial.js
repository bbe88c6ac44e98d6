// SPDX-License-Identifier: MIT
// Serial ports and sessions through the serial tools: open a port, watch a
// session's data live (mcpu://serial/<id> notifications) and send a line.

import { callToolValue } from "./mcp.js";
import { clear, h } from "./dom.js";

const CONSOLE_CHARS = 64 * 1024;

export class SerialPanel {
  constructor(mcp, root, tools) {
    this.mcp = mcp;
    this.root = root;
    this.tools = tools; // ToolsPanel: which tools exist
    this.consoles = new Map();
  }

  async load() {
    this.consoles.clear();
    if (!this.tools.has("serial_list_ports")) {
      clear(this.root, h("p", { class: "muted" }, "The serial tools are off ([serial] enabled = false)."));
      return;
    }
    let ports, sessions;
    try {
      [{ ports }, { sessions }] = await Promise.all([
        callToolValue(this.mcp, "serial_list_ports", {}),
        callToolValue(this.mcp, "serial_list_sessions", {}),
      ]);
    } catch (error) {
      // A port that cannot be listed must not keep the rest of the page from loading.
      clear(this.root, h("p", { class: "error" }, error.message));
      return;
    }
    await Promise.all(
      sessions.map((s) => this.mcp.request("resources/subscribe", { uri: `mcpu://serial/${s.session_id}` })),
    );
    clear(
      this.root,
      h("h3", {}, "Sessions"),
      sessions.length ? sessions.map((s) => this.session(s)) : h("p", { class: "muted" }, "No open session."),
      h("h3", {}, "Ports"),
      ports.length
        ? h(
            "ul",
            { class: "ports" },
            ports.map((p) => this.port(p)),
          )
        : h("p", { class: "muted" }, "No serial port found."),
    );
  }

  port(port) {
    const path = port.name;
    const baud = h("input", {
      type: "text",
      inputmode: "numeric",
      value: "115200",
      "aria-label": `baud rate for ${path}`,
      size: 7,
    });
    const open = async () => {
      try {
        await callToolValue(this.mcp, "serial_connect", { port: path, baud: Number(baud.value) });
        await this.load();
      } catch (error) {
        alertIn(this.root, error.message);
      }
    };
    return h(
      "li",
      {},
      h("code", {}, path),
      port.description ? h("span", { class: "muted" }, ` ${port.description} `) : " ",
      baud,
      h("button", { onclick: open }, "Open"),
    );
  }

  session(session) {
    const id = session.session_id;
    const output = h("pre", { class: "console", "aria-live": "off", "aria-label": `data from ${session.port}` });
    this.consoles.set(String(id), output);
    const line = h("input", { type: "text", "aria-label": `line to send to ${session.port}`, autocomplete: "off" });
    const send = async (event) => {
      event.preventDefault();
      try {
        await callToolValue(this.mcp, "serial_send", { session_id: id, data: line.value });
        line.value = "";
      } catch (error) {
        alertIn(this.root, error.message);
      }
    };
    const close = async () => {
      await callToolValue(this.mcp, "serial_disconnect", { session_id: id }).catch((error) =>
        alertIn(this.root, error.message),
      );
      await this.load();
    };
    return h(
      "section",
      { class: "session" },
      h(
        "header",
        {},
        h("b", {}, session.port),
        h("span", { class: "muted" }, ` session ${id}`),
        h("button", { class: "quiet", onclick: close }, "Close"),
      ),
      output,
      h("form", { class: "send", onsubmit: send }, line, h("button", { type: "submit" }, "Send")),
    );
  }

  notify({ data }) {
    const output = this.consoles.get(String(data.session_id));
    if (!output) return;
    output.textContent += data.encoding === "base64" ? `[${data.bytes} bytes]` : data.data;
    if (output.textContent.length > CONSOLE_CHARS) output.textContent = output.textContent.slice(-CONSOLE_CHARS);
    output.scrollTop = output.scrollHeight;
  }
}

function alertIn(root, message) {
  root.prepend(h("p", { class: "error", role: "alert" }, message));
}
