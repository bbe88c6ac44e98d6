// SPDX-License-Identifier: MIT
// How to point an AI host at this board: configuration snippets for Claude
// Desktop, Claude Code, Codex and Cursor with this daemon's real socket path
// and URL, each with a copy button.

import { clear, h } from "./dom.js";

export function renderConnect(root, status) {
  const socket = status.listeners.find((l) => l.kind === "unix")?.address;
  const url = status.listeners.find((l) => l.kind === "http")?.url;
  const token = status.token_required;
  // Hosts that spawn a command relay to the socket; without one they run their own daemon.
  const stdio = socket
    ? { command: "mcpud-stdio", args: ["--socket", socket] }
    : { command: "mcpud", args: ["--stdio"] };
  const snippets = [
    ["Claude Desktop", "claude_desktop_config.json", mcpServers(stdio)],
    ["Claude Code", "shell", url ? claudeCodeHttp(url, token) : `claude mcp add mcpud -- ${commandLine(stdio)}`],
    ["Codex", "~/.codex/config.toml", url ? codexHttp(url, token) : codexStdio(stdio)],
    ["Cursor", ".cursor/mcp.json", mcpServers(url ? cursorHttp(url, token) : stdio)],
  ];
  const where = socket ? `unix socket ${socket}` : "no unix socket (the snippets start their own mcpud --stdio)";
  const http = url ? `; MCP over HTTP at ${url}` : "";
  const note = token ? " (it asks for its token: keep it in the MCPUD_TOKEN environment variable)" : "";
  clear(
    root,
    h("p", { class: "muted" }, `This board: ${where}${http}${note}.`),
    snippets.map(([host, file, text]) => snippet(host, file, text)),
  );
}

const mcpServers = (server) => JSON.stringify({ mcpServers: { mcpud: server } }, null, 2);
const commandLine = (stdio) => [stdio.command, ...stdio.args].join(" ");
const claudeCodeHttp = (url, token) =>
  `claude mcp add --transport http mcpud ${url}${token ? ' --header "Authorization: Bearer $MCPUD_TOKEN"' : ""}`;
const codexHttp = (url, token) =>
  `[mcp_servers.mcpud]\nurl = "${url}"${token ? '\nbearer_token_env_var = "MCPUD_TOKEN"' : ""}`;
const codexStdio = (stdio) => `[mcp_servers.mcpud]\ncommand = "${stdio.command}"\nargs = ${JSON.stringify(stdio.args)}`;
const cursorHttp = (url, token) => ({
  url,
  ...(token ? { headers: { Authorization: "Bearer ${env:MCPUD_TOKEN}" } } : {}),
});

function snippet(host, file, text) {
  const code = h("pre", { tabindex: 0 }, h("code", {}, text));
  const status = h("span", { class: "muted", "aria-live": "polite" });
  const copy = async () => {
    status.textContent = (await copyText(text, code)) ? "copied" : "select and copy by hand";
  };
  return h(
    "section",
    { class: "snippet" },
    h(
      "header",
      {},
      h("h3", {}, host),
      h("small", { class: "muted" }, file),
      h("button", { onclick: copy }, "Copy"),
      status,
    ),
    code,
  );
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
