// SPDX-License-Identifier: MIT
// What every client does to the board, live: the mcpu://daemon/activity
// resource (door, client, tool, arguments, outcome, duration of each call).

import { readResource } from "./mcp.js";
import { brief, clear, clock, h, trim } from "./dom.js";

export const ACTIVITY_URI = "mcpu://daemon/activity";
const MAX_ROWS = 200;

export class ActivityPanel {
  constructor(mcp, rows) {
    this.mcp = mcp;
    this.rows = rows;
  }

  async load() {
    await this.mcp.request("resources/subscribe", { uri: ACTIVITY_URI });
    const { entries } = await readResource(this.mcp, ACTIVITY_URI);
    clear(this.rows, entries.reverse().map(row));
  }

  notify({ data }) {
    this.rows.prepend(row(data));
    trim(this.rows, MAX_ROWS);
  }
}

function row(call) {
  const outcome = call.ok
    ? h("td", { class: "ok" }, "ok")
    : h(
        "td",
        { class: "error", title: call.error.message },
        call.error.name || call.error.code,
        h("small", {}, ` ${call.error.message}`),
      );
  return h(
    "tr",
    {},
    h("td", {}, h("time", {}, clock(call.time_ms))),
    h("td", {}, call.door || "internal"),
    h("td", { class: "client" }, call.client),
    h("td", {}, h("code", {}, call.tool)),
    h("td", { class: "args" }, h("code", {}, brief(call.arguments, 60))),
    outcome,
    h("td", { class: "num" }, `${call.duration_ms.toFixed(call.duration_ms < 10 ? 2 : 0)} ms`),
  );
}
