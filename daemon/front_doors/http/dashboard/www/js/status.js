// SPDX-License-Identifier: MIT
// The daemon at a glance: device info (get_info), uptime, listeners, clients,
// uplinks and bridges (mcpu://daemon/status, pushed on every change), and the
// log tail, live (mcpu://daemon/log).

import { callToolValue, readResource } from "./mcp.js";
import { clear, clock, duration, h, trim } from "./dom.js";

export const STATUS_URI = "mcpu://daemon/status";
export const LOG_URI = "mcpu://daemon/log";
const MAX_LOG_LINES = 200;

export class StatusPanel {
  constructor(mcp, root, log) {
    this.mcp = mcp;
    this.root = root;
    this.log = log;
    this.status = null;
    this.info = null;
    this.loadedAt = 0;
  }

  // Subscribes first, so no change falls between the read and the subscription.
  async load() {
    await Promise.all([LOG_URI, STATUS_URI].map((uri) => this.mcp.request("resources/subscribe", { uri })));
    const { entries } = await readResource(this.mcp, LOG_URI);
    clear(this.log, entries.map(logLine));
    this.log.scrollTop = this.log.scrollHeight;
    const [status, info] = await Promise.all([
      readResource(this.mcp, STATUS_URI),
      callToolValue(this.mcp, "get_info", {}),
    ]);
    this.info = info;
    this.update(status);
    return status;
  }

  // A status read or pushed by mcpud.
  update(status) {
    this.status = status;
    this.loadedAt = performance.now();
    this.render(status, this.info);
  }

  uptime() {
    if (!this.status) return "";
    return duration(this.status.uptime_s + Math.floor((performance.now() - this.loadedAt) / 1000));
  }

  render(status, info) {
    const facts = {
      device: status.device,
      board: `${status.board}${info.model ? ` (${info.model})` : ""}`,
      version: status.version,
      host: `${info.hostname} · ${info.kernel} · ${info.arch}`,
      uptime: h("span", { "data-uptime": "" }, this.uptime()),
      pins: info.pin_count,
    };
    clear(
      this.root,
      h(
        "dl",
        { class: "facts" },
        Object.entries(facts).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
      ),
      table(
        "Listeners",
        ["kind", "address"],
        status.listeners.map((l) => [l.kind, l.url ?? l.address]),
      ),
      table(
        "Clients",
        ["door", "client"],
        status.clients.map((c) => [c.door, c.client]),
      ),
      table(
        "Uplinks",
        ["kind", "server", "state"],
        status.uplinks.map((u) => [u.kind, u.server, u.connected ? "connected" : retrying(u.next_attempt_ms)]),
      ),
      table(
        "Bridges",
        ["id", "link", "state", "tools", "refused", "last error"],
        status.bridges.map((b) => [
          b.id,
          b.link,
          b.online ? "online" : retrying(b.next_attempt_ms, b.tools_kept_until_ms ? "away" : "offline"),
          b.tools,
          refusals(b),
          b.last_error,
        ]),
      ),
    );
  }

  tick() {
    const uptime = this.root.querySelector("[data-uptime]");
    if (uptime) uptime.textContent = this.uptime();
    for (const next of this.root.querySelectorAll("[data-next-attempt]")) next.textContent = countdown(next);
  }

  // A notifications/resources/updated: a new log line or a new status.
  notify({ uri, data }) {
    if (uri === STATUS_URI) return this.update(data);
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    this.log.append(logLine(data));
    trim(this.log, MAX_LOG_LINES, false);
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }
}

function table(title, columns, rows) {
  return h(
    "section",
    { class: "table" },
    h("h3", {}, title),
    rows.length
      ? h(
          "table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              columns.map((c) => h("th", { scope: "col" }, c)),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((r) =>
              h(
                "tr",
                {},
                r.map((cell) => h("td", {}, cell)),
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, "none"),
  );
}

// How many of a device's tools and pins mcpud did not export; each, and why, on hover.
function refusals(bridge) {
  if (!bridge.refused_count) return "0";
  return h("span", { title: (bridge.refused ?? []).join("\n") }, String(bridge.refused_count));
}

// "retrying at 14:02:07 (in 3 s)": when the next attempt is due, counting down.
function retrying(nextMs, state = "retrying") {
  if (nextMs == null) return state;
  const next = h("span", { "data-next-attempt": nextMs });
  next.textContent = countdown(next);
  return h("span", {}, `${state}, next attempt at ${clock(nextMs)} `, next);
}

function countdown(element) {
  const left = Math.ceil((Number(element.dataset.nextAttempt) - Date.now()) / 1000);
  return left > 0 ? `(in ${left} s)` : "(now)";
}

function logLine(line) {
  return h(
    "div",
    { class: `log ${line.level}` },
    h("time", {}, clock(line.time_ms)),
    ` ${line.level} [${line.category}] ${line.message}`,
  );
}
