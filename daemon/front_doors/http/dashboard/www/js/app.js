// SPDX-License-Identifier: MIT
// The dashboard: asks for the token when mcpud wants one, connects over MCP,
// loads every panel, routes pushed notifications to them and shows when the
// daemon goes away and comes back.

import { McpClient } from "./mcp.js";
import { $, h } from "./dom.js";
import { PinsPanel } from "./pins.js";
import { BusesPanel, BUSES_URI } from "./buses.js";
import { ToolsPanel } from "./tools.js";
import { ActivityPanel, ACTIVITY_URI } from "./activity.js";
import { SerialPanel } from "./serial.js";
import { StatusPanel, LOG_URI, STATUS_URI } from "./status.js";
import { renderConnect } from "./connect.js";
import { SafetyPanel, SAFETY_URI } from "./safety.js";

const TOKEN_KEY = "mcpud-token"; // sessionStorage: this tab only, never sent by itself
const THEME_KEY = "mcpud-theme";

const mcp = new McpClient(() => sessionStorage.getItem(TOKEN_KEY) ?? "", {
  state: showState,
  notification,
  ready: loadAll,
});
const pins = new PinsPanel(mcp, $("#pins"), $("#events"), report);
const buses = new BusesPanel(mcp, $("#buses-section"), $("#buses"));
const tools = new ToolsPanel(mcp, $("#tools"), $("#tool-filter"));
const status = new StatusPanel(mcp, $("#status"), $("#log"));
const activity = new ActivityPanel(mcp, $("#activity"));
const serial = new SerialPanel(mcp, $("#serial"), tools);
const safety = new SafetyPanel(
  mcp,
  { banner: $("#estop-banner"), approvals: $("#approvals"), keyForm: $("#safety-key"), audit: $("#audit"), stop: $("#estop") },
  report,
);

async function loadAll() {
  await tools.load();
  const [, , , , state] = await Promise.all([pins.load(), buses.load(), activity.load(), serial.load(), status.load(),
    safety.load()]);
  showConnect(state, true);
  $("#device").textContent = state.device;
  document.title = `${state.device} · mcpud`;
  document.body.dataset.state = "online";
}

function notification(method, params) {
  if (method === "notifications/tools/list_changed") {
    tools.load().then(() => serial.load());
    buses.load().catch((error) => report(`buses: ${error.message}`)); // a reload may change them
    return;
  }
  if (method === "notifications/resources/list_changed") {
    pins.load().catch((error) => report(`pins: ${error.message}`)); // a bridged device's pins came or went
    return;
  }
  if (method !== "notifications/resources/updated") return;
  const uri = params.uri ?? "";
  if (uri.startsWith("mcpu://pins/") || uri.startsWith("mcpu://samples/")) pins.notify(params);
  else if (uri === BUSES_URI) buses.notify(params);
  else if (uri === ACTIVITY_URI) activity.notify(params);
  else if (uri === LOG_URI) status.notify(params);
  else if (uri === SAFETY_URI) safety.notify(params);
  else if (uri === STATUS_URI) {
    status.notify(params);
    showConnect(params.data);
  }
  else if (uri.startsWith("mcpu://serial/")) serial.notify(params);
}

// The Connect tab changes only with the listeners or the token (a client coming does not).
let connectShown = "";
function showConnect(state, always = false) {
  const shown = JSON.stringify([state.listeners, state.token_required]);
  if (!always && shown === connectShown) return;
  connectShown = shown;
  renderConnect($("#connect"), state);
}

let countdown = 0;
function showState(state, detail) {
  document.body.dataset.state = state === "online" ? "loading" : state;
  const banner = $("#connection");
  clearInterval(countdown);
  $("#token-dialog").hidden = state !== "unauthorized";
  if (state === "unauthorized") {
    banner.textContent = sessionStorage.getItem(TOKEN_KEY)
      ? "That token was refused."
      : "This mcpud asks for an access token.";
    $("#token").focus();
  } else if (state === "offline") {
    let left = Math.ceil(detail.wait / 1000);
    const say = () =>
      (banner.textContent = `mcpud is not answering (${detail.reason}). Reconnecting${left > 0 ? ` in ${left} s` : ""}…`);
    say();
    countdown = setInterval(() => (--left, say()), 1000);
  } else {
    banner.textContent = state === "connecting" ? "Connecting…" : "Connected";
  }
}

function report(message) {
  const toast = h("p", { class: "toast error", role: "alert" }, message);
  $("#toasts").append(toast);
  setTimeout(() => toast.remove(), 6000);
}

// Tabs: arrow keys move between them, as the ARIA tabs pattern says.
function setupTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(`#${t.getAttribute("aria-controls")}`).hidden = !on;
    }
    history.replaceState(null, "", `#${tab.id.replace("tab-", "")}`);
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  });
  select(tabs.find((t) => `#${t.id.replace("tab-", "")}` === location.hash) ?? tabs[0]);
}

function setupTheme() {
  const apply = (theme) => {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  };
  apply(localStorage.getItem(THEME_KEY));
  $("#theme").addEventListener("click", () => {
    const chosen = document.documentElement.dataset.theme;
    const dark = chosen ? chosen === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    const theme = dark ? "light" : "dark";
    localStorage.setItem(THEME_KEY, theme);
    apply(theme);
  });
}

$("#token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("#token").value);
  $("#token").value = "";
  mcp.start();
});
addEventListener("pagehide", () => mcp.end());
setInterval(() => status.tick(), 1000);
setupTabs();
setupTheme();
mcp.start();
