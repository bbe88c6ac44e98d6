// SPDX-License-Identifier: MIT
// Every tool of the registry with a form generated from its JSON Schema and a
// Call button; the answer is shown exactly as an AI client gets it (the
// tools/call result, or the JSON-RPC error). User-only tools are marked.

import { callTool } from "./mcp.js";
import { clear, h } from "./dom.js";

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export class ToolsPanel {
  constructor(mcp, list, filter) {
    this.mcp = mcp;
    this.list = list;
    filter.addEventListener("input", () => this.filter(filter.value.trim().toLowerCase()));
  }

  async load() {
    const tools = [];
    let cursor;
    do {
      const page = await this.mcp.request("tools/list", { withUserTools: true, ...(cursor ? { cursor } : {}) });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.names = tools.map((tool) => tool.name);
    clear(
      this.list,
      tools.map((tool) => this.tool(tool)),
    );
  }

  has(name) {
    return this.names?.includes(name);
  }

  filter(text) {
    for (const item of this.list.children) item.hidden = text !== "" && !item.dataset.tool.includes(text);
  }

  tool(tool) {
    const annotations = tool.annotations ?? {};
    const badges = [
      annotations.audience?.includes("user") ? h("span", { class: "badge user" }, "user only") : null,
      annotations.readOnlyHint ? h("span", { class: "badge" }, "read only") : null,
      annotations.destructiveHint ? h("span", { class: "badge warn" }, "destructive") : null,
    ];
    const schema = tool.inputSchema ?? {};
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([name, property]) =>
      field(tool.name, name, property, required.has(name)),
    );
    const output = h("pre", { class: "result", "aria-live": "polite", hidden: true });
    const form = h(
      "form",
      { novalidate: true, onsubmit: (event) => this.call(event, tool.name, form, output) },
      fields,
      h("button", { type: "submit" }, "Call"),
      output,
    );
    return h(
      "details",
      { class: "tool", "data-tool": tool.name },
      h("summary", {}, h("code", {}, tool.name), ...badges),
      h("p", { class: "muted" }, tool.description),
      form,
    );
  }

  async call(event, name, form, output) {
    event.preventDefault();
    output.hidden = false;
    output.textContent = "…";
    try {
      const result = await callTool(this.mcp, name, values(form));
      output.classList.toggle("error", Boolean(result.error || result.isError));
      output.textContent = JSON.stringify(result, null, 2);
    } catch (error) {
      output.classList.add("error");
      output.textContent = error.message;
    }
  }
}

// One labelled input for a schema property; data-kind says how to read it back.
function field(tool, name, property, required) {
  const id = `arg-${tool}-${name}`;
  const type = property.type ?? (property.enum ? "enum" : "json");
  const hints = [type];
  if (property.minimum != null || property.maximum != null)
    hints.push(`${property.minimum ?? "…"} to ${property.maximum ?? "…"}`);
  if (property.default != null) hints.push(`default ${JSON.stringify(property.default)}`);
  let input;
  if (property.enum || type === "boolean") {
    const options = property.enum ?? [true, false];
    input = h(
      "select",
      { id, "data-kind": "json" },
      h("option", { value: "" }, required ? "choose…" : "(not set)"),
      options.map((o) => h("option", { value: JSON.stringify(o) }, String(o))),
    );
  } else if (type === "integer" || type === "number") {
    input = h("input", { id, type: "text", inputmode: "decimal", "data-kind": "number", autocomplete: "off" });
  } else if (type === "string") {
    input = h("input", { id, type: "text", "data-kind": "string", autocomplete: "off" });
  } else {
    input = h("textarea", { id, rows: 2, "data-kind": "json", placeholder: "JSON" });
  }
  input.name = name;
  if (required) input.setAttribute("aria-required", "true");
  return h(
    "div",
    { class: "field" },
    h(
      "label",
      { for: id },
      h("code", {}, name),
      required ? h("abbr", { title: "required" }, " *") : null,
      h("small", {}, ` ${hints.join(", ")}`),
    ),
    input,
    property.description ? h("small", { class: "muted" }, property.description) : null,
  );
}

// The arguments a form holds; what does not parse is sent as typed, so the
// daemon's own validation answers, as it would answer the model.
function values(form) {
  const args = {};
  for (const input of form.querySelectorAll("[data-kind]")) {
    const text = input.value.trim();
    if (text === "") continue;
    const kind = input.dataset.kind;
    if (kind === "number") args[input.name] = NUMBER.test(text) ? Number(text) : text;
    else if (kind === "json") args[input.name] = parseOr(text);
    else args[input.name] = input.value;
  }
  return args;
}

function parseOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
