// SPDX-License-Identifier: MIT
// The human's side of the board's safety: an emergency stop button (anyone may
// stop: it calls the emergency_stop tool), the latched stop with Reset, a
// banner for each call that waits for approval with the exact call and Approve
// and Deny, and the audit. What changes is pushed (mcpu://daemon/safety);
// resetting, deciding, the waiting calls' arguments and the audit go through
// /api/safety behind [http] dashboard_token, a key no MCP client holds.

import { callTool, readResource } from "./mcp.js";
import { brief, clear, clock, h } from "./dom.js";

export const SAFETY_URI = "mcpu://daemon/safety";
const KEY = "mcpud-dashboard-key"; // sessionStorage: this tab only, sent as a header, never a cookie

export class SafetyPanel {
  constructor(mcp, { banner, approvals, keyForm, audit, stop }, report) {
    Object.assign(this, { mcp, banner, approvals, keyForm, audit, report });
    this.state = { estop: { active: false }, pending: [] };
    stop.addEventListener("click", () => this.emergencyStop());
    keyForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = keyForm.querySelector("input");
      sessionStorage.setItem(KEY, input.value);
      input.value = "";
      keyForm.hidden = true;
      this.refresh();
    });
  }

  async load() {
    await this.mcp.request("resources/subscribe", { uri: SAFETY_URI });
    this.show(await readResource(this.mcp, SAFETY_URI));
    await this.refresh();
  }

  notify({ data }) {
    this.show(data);
    this.refresh();
  }

  // The details only the key may see: the waiting calls' arguments, the audit.
  async refresh() {
    if (!sessionStorage.getItem(KEY)) return;
    const state = await this.api("GET", "");
    if (state) this.show(state);
    const audit = await this.api("GET", `/audit?after=${Math.max(0, (this.lastSeq ?? 0) - 200)}`);
    if (audit) this.showAudit(audit);
  }

  // One request to /api/safety; its JSON, or null once the failure is shown.
  async api(method, path, body) {
    const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ""}` };
    if (body) headers["Content-Type"] = "application/json";
    const response = await fetch(`/api/safety${path}`, { method, headers, body: body && JSON.stringify(body) });
    const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (response.ok) return answer;
    if (response.status === 401) {
      sessionStorage.removeItem(KEY);
      this.askForKey("That key was refused. ");
    } else if (response.status === 403) {
      this.askForKey("", answer.error);
    } else {
      this.report(answer.error);
    }
    return null;
  }

  askForKey(prefix, off) {
    this.keyForm.hidden = false;
    this.keyForm.querySelector("p").textContent = off ?? `${prefix}Deciding here takes the dashboard key ([http] dashboard_token).`;
    this.keyForm.querySelector("input").disabled = Boolean(off);
    this.keyForm.querySelector("button").disabled = Boolean(off);
  }

  async emergencyStop() {
    const result = await callTool(this.mcp, "emergency_stop", { reason: "the dashboard's Emergency stop button" });
    if (result.error || result.isError) this.report(result.error?.message ?? result.content?.[0]?.text);
  }

  async decide(action, body) {
    if (!sessionStorage.getItem(KEY)) return this.askForKey("");
    if (await this.api("POST", `/${action}`, body)) this.refresh();
  }

  show(state) {
    // A pushed state has no arguments: keep those the key fetched for the same calls.
    const known = new Map(this.state.pending.map((call) => [call.id, call.arguments]));
    for (const call of state.pending) call.arguments ??= known.get(call.id);
    this.state = state;
    document.body.dataset.estop = state.estop.active ? "active" : "clear";
    clear(
      this.banner,
      state.estop.active ?
        h(
          "div",
          { class: "estop-latched", role: "alert" },
          h("strong", {}, "Emergency stop"),
          ` since ${clock(state.estop.since_ms)} by ${state.estop.by}: ${state.estop.reason}. Nothing actuates until reset.`,
          h("button", { type: "button", id: "estop-reset", onclick: () => this.decide("reset", {}) }, "Reset"),
        ) : null,
    );
    clear(this.approvals, state.pending.map((call) => this.approval(call)));
  }

  approval(call) {
    const exact = call.arguments === undefined ? h("em", {}, "(arguments: unlock with the dashboard key)") : h("code", {}, JSON.stringify(call.arguments));
    return h(
      "div",
      { class: "approval", role: "alert", "data-approval": call.id },
      h("p", {}, h("strong", {}, `Approval ${call.id}: `), h("code", {}, call.tool), " ", exact),
      h("p", { class: "muted" }, `from ${call.door} ${call.peer}${call.client ? ` (${call.client})` : ""}; expires at ${clock(call.expires_ms)}`),
      h("button", { type: "button", class: "approve", onclick: () => this.decide("approve", { id: call.id }) }, "Approve"),
      h("button", { type: "button", class: "deny quiet", onclick: () => this.decide("deny", { id: call.id }) }, "Deny"),
    );
  }

  showAudit({ records, lost, next_seq }) {
    this.lastSeq = next_seq;
    const rows = records.reverse().map((r) =>
      h(
        "tr",
        {},
        h("td", { class: "num" }, r.seq),
        h("td", {}, h("time", {}, clock(r.time_ms))),
        h("td", {}, r.kind, r.action ? ` ${r.action}` : ""),
        h("td", {}, r.door ? `${r.door} ${r.peer ?? ""}` : r.by ?? ""),
        h("td", {}, h("code", {}, r.tool ?? r.output ?? "")),
        h("td", { class: "args" }, h("code", {}, r.arguments === undefined ? "" : brief(r.arguments, 60))),
        h("td", { class: r.outcome && r.outcome !== "ok" ? "error" : "" }, r.outcome ?? r.reason ?? ""),
      ),
    );
    if (lost > 0) rows.push(h("tr", {}, h("td", { colspan: 7, class: "muted" }, `-- ${lost} records lost`)));
    clear(this.audit, rows);
  }
}
