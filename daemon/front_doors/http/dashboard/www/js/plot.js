// SPDX-License-Identifier: MIT
// A sampled pin's live plot: the last samples as an SVG line, with the
// window's min, max and average. Digital pins are drawn as steps.

import { h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 64;
export const PLOT_SAMPLES = 120;

export class Plot {
  constructor(label, digital) {
    this.digital = digital;
    this.values = [];
    this.line = document.createElementNS(NS, "polyline");
    this.svg = document.createElementNS(NS, "svg");
    this.svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    this.svg.setAttribute("preserveAspectRatio", "none");
    this.svg.setAttribute("role", "img");
    this.svg.setAttribute("aria-label", `${label}: last samples`);
    this.svg.classList.add("plot");
    this.svg.append(this.line);
    this.stats = h("p", { class: "stats" });
    this.element = h("figure", { class: "plot-box" }, this.svg, this.stats);
    this.draw();
  }

  add(values) {
    this.values.push(...values);
    if (this.values.length > PLOT_SAMPLES) this.values.splice(0, this.values.length - PLOT_SAMPLES);
    this.draw();
  }

  draw() {
    const v = this.values;
    this.svg.dataset.samples = String(v.length);
    if (!v.length) {
      this.stats.textContent = "waiting for samples…";
      return;
    }
    const min = Math.min(...v);
    const max = Math.max(...v);
    const avg = v.reduce((a, b) => a + b, 0) / v.length;
    const low = this.digital ? 0 : min;
    const span = (this.digital ? 1 : max - min) || 1;
    // The newest sample at the right edge, as on a scope.
    const x = (i) => (((PLOT_SAMPLES - v.length + i) / (PLOT_SAMPLES - 1)) * WIDTH).toFixed(1);
    const y = (value) => (HEIGHT - 4 - ((value - low) / span) * (HEIGHT - 8)).toFixed(1);
    const points = [];
    v.forEach((value, i) => {
      if (this.digital && i) points.push(`${x(i)},${y(v[i - 1])}`);
      points.push(`${x(i)},${y(value)}`);
    });
    this.line.setAttribute("points", points.join(" "));
    const fmt = (n) => (Number.isInteger(n) ? n : n.toFixed(1));
    this.stats.textContent = `${v.length} samples · min ${fmt(min)} · max ${fmt(max)} · avg ${fmt(avg)}`;
  }
}
