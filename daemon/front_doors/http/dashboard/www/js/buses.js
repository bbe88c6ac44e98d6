// SPDX-License-Identifier: MIT
// The configured I2C and SPI devices (mcpu://daemon/buses): what each is, what
// clients may do with it, whether a kernel driver owns it, and the last
// transfer any client made with it, pushed as it happens.

import { readResource } from "./mcp.js";
import { clear, clock, h } from "./dom.js";

export const BUSES_URI = "mcpu://daemon/buses";

export class BusesPanel {
  constructor(mcp, section, grid) {
    this.mcp = mcp;
    this.section = section; // hidden while no bus is configured
    this.grid = grid;
    this.cards = new Map();
  }

  async load() {
    await this.mcp.request("resources/subscribe", { uri: BUSES_URI });
    const { i2c, spi } = await readResource(this.mcp, BUSES_URI);
    this.cards.clear();
    clear(
      this.grid,
      i2c.map((d) => this.card(i2cKey(d), d, i2cTitle(d))),
      spi.map((d) => this.card(spiKey(d), d, spiTitle(d))),
    );
    this.section.hidden = i2c.length + spi.length === 0;
  }

  card(key, device, title) {
    const last = h("p", { class: "last muted" }, "no transfer yet");
    this.cards.set(key, last);
    if (device.last) this.showLast(key, device.last);
    return h(
      "article",
      { class: "bus", "data-bus": key },
      h("header", {}, h("h3", {}, device.name || title), h("span", { class: "badge" }, title), ...flags(device)),
      last,
    );
  }

  showLast(key, last) {
    const shown = this.cards.get(key);
    if (!shown) return;
    const where = [last.mode, last.register != null ? `register 0x${hex2(last.register)}` : null].filter(Boolean);
    clear(
      shown,
      h("time", {}, clock(last.time_ms)),
      " ",
      h("code", {}, last.tool),
      where.length ? ` ${where.join(" ")}` : "",
      last.sent ? h("span", { class: "bytes" }, " sent ", h("code", { class: "hex" }, bytes(last.sent))) : null,
      last.read ? h("span", { class: "bytes" }, " read ", h("code", { class: "hex" }, bytes(last.read))) : null,
    );
    shown.classList.remove("muted");
  }

  // A notifications/resources/updated of mcpu://daemon/buses: one device's transfer.
  notify({ data }) {
    if (!data?.last) return;
    this.showLast(data.kind === "spi" ? spiKey(data) : i2cKey(data), data.last);
  }
}

function hex2(n) {
  return n.toString(16).padStart(2, "0");
}
const i2cKey = (d) => `i2c-${d.bus}-0x${hex2(d.address)}`;
const spiKey = (d) => `spidev${d.bus}.${d.chip_select}`;
const i2cTitle = (d) => `I2C ${d.bus} · 0x${hex2(d.address)}`;
const spiTitle = (d) => `SPI ${spiKey(d)}`;

function flags(device) {
  const out = [];
  if (device.address != null) out.push(h("span", { class: "badge" }, device.write ? "writable" : "read-only"));
  if (device.force) out.push(h("span", { class: "badge warn" }, "forced"));
  if (device.driver !== undefined) {
    const owner = device.driver ? `driver ${device.driver}` : "kernel device";
    out.push(h("span", { class: "badge user", title: "the kernel declared a device here" }, owner));
  }
  return out;
}

// "5a 3e 80 …" of {hex, bytes, cut}: bytes in pairs, and how many when cut.
function bytes({ hex, bytes: count, cut }) {
  const pairs = hex.match(/../g) ?? [];
  return `${pairs.join(" ")}${cut ? ` … (${count} bytes)` : ""}`;
}
