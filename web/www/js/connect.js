// SPDX-License-Identifier: MIT
// How to point an AI host at this board: configuration snippets for Claude
// Desktop, Claude Code, Codex and Cursor with this daemon's real socket path
// and URL, each with a copy button.

import { clear, h } from "./dom.js";

export function renderConnect(root, status) {
  const socket = status.listeners.find((l) => l.kind === "unix")?.address;
  const url = status.listeners.find((l) => l.kind === "http")?.url;
  const tokenNote = status.token_required ? " (this daemon asks for its token: keep it in the MCPUD_TOKEN environment variable)" : "";
  const stdio = socket ? { command: "mcpud-stdio", args: ["--socket", socket] } : { command: "mcpud", args: ["--stdio"] };
  const stdioJson = JSON.stringify({ mcpServers: { mcpud: stdio } }, null, 2);
  const header = status.token_required ? ' --header "Authorization: Bearer $MCPUD_TOKEN"' : "";
  const httpJson = url && JSON.stringify({ mcpServers: { mcpud: { url, ...(status.token_required ? { headers: { Authorization: "Bearer ${env:MCPUD_TOKEN}" } } : {}) } } }, null, 2);
  const snippets = [
    ["Claude Desktop", "claude_desktop_config.json", stdioJson],
    ["Claude Code", "shell", url ? `claude mcp add --transport http mcpud ${url}${header}` : `claude mcp add mcpud -- ${stdio.command} ${stdio.args.join(" ")}`],
    ["Codex", "~/.codex/config.toml", url ? `[mcp_servers.mcpud]\nurl = "${url}"${status.token_required ? '\nbearer_token_env_var = "MCPUD_TOKEN"' : ""}` : `[mcp_servers.mcpud]\ncommand = "${stdio.command}"\nargs = ${JSON.stringify(stdio.args)}`],
    ["Cursor", ".cursor/mcp.json", httpJson ?? stdioJson],
  ];
  const where = socket ? `unix socket ${socket}` : "no unix socket (the snippets start their own mcpud --stdio)";
  clear(
    root,
    h("p", { class: "muted" }, `This board: ${where}${url ? `; MCP over HTTP at ${url}` : ""}${tokenNote}.`),
    snippets.map(([host, file, text]) => snippet(host, file, text)),
  );
}

function snippet(host, file, text) {
  const code = h("pre", { tabindex: 0 }, h("code", {}, text));
  const status = h("span", { class: "muted", "aria-live": "polite" });
  const copy = async () => {
    status.textContent = (await copyText(text, code)) ? "copied" : "select and copy by hand";
  };
  return h("section", { class: "snippet" }, h("header", {}, h("h3", {}, host), h("small", { class: "muted" }, file), h("button", { onclick: copy }, "Copy"), status), code);
}

// The Clipboard API needs a secure context (loopback is one); elsewhere select the text.
async function copyText(text, element) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    getSelection().selectAllChildren(element);
    return false;
  }
}
