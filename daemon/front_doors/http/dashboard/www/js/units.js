// SPDX-License-Identifier: MIT
// Values in the units people read: the wire names SI units as mcpud's tools
// give them ("degC", "Pa"); the page shows °C and hPa.

const DECIMALS = 6; // significant digits the sensors report

export function forPeople(value, unit) {
  if (typeof value !== "number") return String(value);
  if (unit === "degC") return `${value} °C`;
  if (unit === "Pa") return `${Number((value / 100).toPrecision(DECIMALS))} hPa`;
  return unit ? `${value} ${unit}` : String(value);
}
