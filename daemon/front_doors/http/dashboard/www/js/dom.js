// SPDX-License-Identifier: MIT
// Small DOM helpers shared by the panels: element building, time formatting.

// h("button", {class: "x", onclick: f}, "text", child...): an element with
// attributes (functions become listeners, true/false toggle boolean attributes).
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false && value != null) element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child != null) element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export function clear(element, ...children) {
  element.replaceChildren(...children.flat().filter((c) => c != null));
  return element;
}

export const $ = (selector) => document.querySelector(selector);

export function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

export function duration(seconds) {
  const d = Math.floor(seconds / 86400);
  const hms = new Date(seconds * 1000).toISOString().slice(11, 19);
  return d ? `${d}d ${hms}` : hms;
}

// JSON on one line, cut to `max` characters.
export function brief(value, max = 80) {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// Keeps at most `max` children, dropping the oldest (first or last, as they are added).
export function trim(list, max, fromEnd = true) {
  while (list.childElementCount > max) (fromEnd ? list.lastElementChild : list.firstElementChild).remove();
}
