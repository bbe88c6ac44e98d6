// SPDX-License-Identifier: MIT
// The board: every pin with its live value, a toggle or a slider for outputs,
// a live plot for sampled pins, and the events timeline (edges, thresholds).
// Pins are MCP resources (mcpu://pins/<name>); updates are pushed, never polled.
// A bridged microcontroller's pins ("uno__led", with `device`) are driven and
// read through its own tools ("uno__gpio_write").

import { callToolValue, readResource } from "./mcp.js";
import { brief, clear, clock, h, trim } from "./dom.js";
import { Plot, PLOT_SAMPLES } from "./plot.js";
import { forPeople } from "./units.js";

const MAX_EVENTS = 60;

export class PinsPanel {
  constructor(mcp, grid, events, report) {
    this.mcp = mcp;
    this.grid = grid;
    this.events = events;
    this.report = report; // report(message): a failed control, shown to the user
    this.cards = new Map();
  }

  async load() {
    const { resources } = await this.mcp.request("resources/list");
    const uris = resources.map((r) => r.uri).filter((uri) => uri.startsWith("mcpu://pins/"));
    const pins = await Promise.all(uris.map((uri) => readResource(this.mcp, uri)));
    this.cards.clear();
    clear(
      this.grid,
      pins.map((pin) => this.card(pin)),
    );
    clear(this.events);
    const sampled = pins.filter((pin) => pin.sampling);
    const subscriptions = [...uris, ...sampled.map((pin) => `mcpu://samples/${pin.name}`)];
    await Promise.all(subscriptions.map((uri) => this.mcp.request("resources/subscribe", { uri })));
    const past = await Promise.all(sampled.map((pin) => this.history(pin)));
    past.flat().forEach((event) => this.addEvent(event));
    const unknown = pins.filter((pin) => pin.device && pin.value == null && pin.duty == null);
    await Promise.all(unknown.map((pin) => this.readDevicePin(pin)));
  }

  // A bridged pin nobody has read yet: asks its device once (the answer is pushed to every subscriber).
  async readDevicePin(pin) {
    const tool = { digital_input: "gpio_read", digital_output: "gpio_read", adc_input: "adc_read" }[pin.type];
    if (!tool) return;
    try {
      this.show(this.cards.get(pin.name), await callToolValue(this.mcp, toolOf(pin, tool), { pin: pin.pin }));
    } catch {
      // the device may not offer that tool: the value stays unknown until it reports one
    }
  }

  // What a sampled pin recorded before the page opened: its buffer into the
  // plot; its events are returned.
  async history(pin) {
    if (pin.sampling.buffer_size > 0) {
      const buffer = await callToolValue(this.mcp, "get_pin_buffer", { name: pin.name, limit: PLOT_SAMPLES });
      this.cards.get(pin.name)?.plot?.add(buffer.values);
    }
    const { events } = await callToolValue(this.mcp, "get_pin_events", { name: pin.name });
    return (events ?? []).map((event) => ({ ...event, name: pin.name }));
  }

  card(pin) {
    const value = h("output", { class: "value", "aria-live": "off" }, "—"); // until a value is known
    const card = { pin, value, plot: null };
    if (pin.limits) {
      card.countdown = h("span", { class: "countdown" });
      card.limits = h("p", { class: "muted limits" }, limitsText(pin.limits), " ", card.countdown);
      if (pin.limits.reverts_at_ms) countDown(card, pin.limits.reverts_at_ms, pin.limits.revert_reason);
    }
    const control = this.control(card);
    if (pin.sampling) card.plot = new Plot(pin.name, pin.type === "digital_input");
    this.cards.set(pin.name, card);
    this.show(card, pin);
    return h(
      "article",
      { class: `pin ${pin.type}`, "data-pin": pin.name },
      h(
        "header",
        {},
        h("h3", {}, pin.name),
        h("span", { class: "badge" }, pin.type.replace("_", " ")),
        pin.device ? h("span", { class: "badge device", title: "bridged microcontroller" }, pin.device) : null,
        h("span", { class: "number" }, `#${pin.pin}`),
      ),
      pin.description ? h("p", { class: "muted" }, pin.description) : null,
      h("div", { class: "reading" }, value, control),
      card.limits ?? null,
      card.plot?.element,
    );
  }

  control(card) {
    const { pin } = card;
    if (pin.type === "digital_output") {
      card.toggle = h("button", {
        class: "switch",
        role: "switch",
        "aria-label": `${pin.name} output`,
        onclick: () => this.toggle(card),
      });
      return card.toggle;
    }
    if (pin.type === "pwm_output") {
      card.slider = h("input", {
        type: "range",
        min: 0,
        max: 255,
        step: 1,
        value: 0, // until the duty is known
        "aria-label": `${pin.name} duty (0 to 255)`,
      });
      card.slider.addEventListener("input", () => this.show(card, { duty: Number(card.slider.value) }, true));
      card.slider.addEventListener("change", () => this.setDuty(card));
      return card.slider;
    }
    return null;
  }

  async toggle(card) {
    const value = card.toggle.getAttribute("aria-checked") !== "true";
    try {
      this.show(card, await callToolValue(this.mcp, toolOf(card.pin, "gpio_write"), { pin: card.pin.pin, value }));
    } catch (error) {
      this.report(`${card.pin.name}: ${error.message}`);
    }
  }

  async setDuty(card) {
    try {
      this.show(
        card,
        await callToolValue(this.mcp, toolOf(card.pin, "pwm_write"), {
          pin: card.pin.pin,
          duty: Number(card.slider.value),
        }),
      );
    } catch (error) {
      this.report(`${card.pin.name}: ${error.message}`);
    }
  }

  // Shows a reading: {value} for digital and ADC pins, {duty} for PWM.
  show(card, reading, fromSlider = false) {
    const { pin, value } = card;
    if (reading.reverts_after_ms != null) countDown(card, Date.now() + reading.reverts_after_ms, reading.revert_reason);
    else if (pin.limits && isSafe(pin.limits, reading)) countDown(card, null);
    if (pin.type === "pwm_output" && reading.duty != null) {
      value.textContent = `${Math.round((reading.duty / 255) * 100)} % (${reading.duty})`;
      if (!fromSlider && card.slider) card.slider.value = reading.duty;
    } else if (typeof reading.value === "boolean" || pin.type.startsWith("digital")) {
      if (reading.value == null) return;
      const on = Boolean(reading.value);
      value.textContent = on ? "HIGH" : "LOW";
      value.classList.toggle("on", on);
      card.toggle?.setAttribute("aria-checked", String(on));
    } else if (reading.value != null) {
      const unit = reading.unit ?? pin.unit; // sensors read in SI units, shown as people read them
      value.textContent = reading.volts != null ? `${reading.value} (${reading.volts} V)` : forPeople(reading.value, unit);
    }
  }

  // A notifications/resources/updated about a pin or its samples.
  notify({ event, data }) {
    const card = this.cards.get(data?.name);
    if (!card) return;
    if (event === "pin_changed") this.show(card, data);
    if (event === "pin_sampled") {
      card.plot?.add(data.values);
      this.show(card, { value: data.values.at(-1) });
    }
    if (event === "pin_event") {
      this.addEvent(data);
      if (data.type === "rising" || data.type === "falling") this.show(card, { value: data.type === "rising" });
    }
  }

  // Newest first; an event pushed while the history was loading is shown once.
  addEvent(event) {
    const key = `${event.name}:${event.seq}`;
    if (this.events.querySelector(`[data-key="${CSS.escape(key)}"]`)) return;
    const detail = event.threshold != null ? `${event.value} (threshold ${event.threshold})` : brief(event.value);
    const item = h(
      "li",
      { class: `event ${event.type}`, "data-key": key, "data-ms": event.timestamp_ms },
      h("time", {}, clock(event.timestamp_ms)),
      h("b", {}, event.name),
      ` ${event.type.replace("_", " ")} `,
      h("span", { class: "muted" }, detail),
    );
    const older = [...this.events.children].find((li) => Number(li.dataset.ms) <= event.timestamp_ms);
    this.events.insertBefore(item, older ?? null);
    trim(this.events, MAX_EVENTS);
  }
}

// "max 10 min on, 1 min off between": an output's limits (docs/safety.md), as people read them.
function limitsText(l) {
  const time = (ms) => (ms % 60000 === 0 ? `${ms / 60000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
  const parts = [];
  if (l.on_release === "safe") parts.push("safe when its client goes");
  if (l.lease_ms) parts.push(`lease ${time(l.lease_ms)}`);
  if (l.max_on_ms) parts.push(`max ${time(l.max_on_ms)} on`);
  if (l.min_off_ms) parts.push(`${time(l.min_off_ms)} off between`);
  if (l.max_writes_per_s) parts.push(`${l.max_writes_per_s} writes/s`);
  if (l.min_duty != null || l.max_duty != null) parts.push(`duty ${l.min_duty ?? 0}-${l.max_duty ?? 255}`);
  if (l.exclusive_with) parts.push(`never with ${l.exclusive_with.join(", ")}`);
  if (l.requires) parts.push(`needs ${l.requires}`);
  return parts.join(", ");
}

// Whether a reading is the output's safe value.
function isSafe(limits, reading) {
  if (limits.safe == null) return false;
  return (reading.duty ?? reading.value) === limits.safe;
}

// Shows the time left until mcpud ends the output's value itself (null: none), ticking once a second.
function countDown(card, atMs, reason) {
  clearInterval(card.ticking);
  card.ticking = null;
  if (!card.countdown) return;
  const tick = () => {
    const left = atMs - Date.now();
    card.countdown.textContent = left > 0 ? `· back to safe in ${Math.ceil(left / 1000)} s (${reason.replace("_", " ")})` : "";
    if (left <= 0) clearInterval(card.ticking);
  };
  if (atMs == null) {
    card.countdown.textContent = "";
    return;
  }
  tick();
  card.ticking = setInterval(tick, 1000);
}

// The tool that drives or reads `pin`: the board's own, or its device's ("uno__gpio_write").
function toolOf(pin, tool) {
  return pin.device ? `${pin.device}__${tool}` : tool;
}
