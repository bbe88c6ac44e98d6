// SPDX-License-Identifier: MIT
// The dashboard in a real browser: Debian's chromium, driven by playwright-core,
// against the real mcpud on the simulated board. One browser for the whole file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { Board, lineClient, waitFor, MCU_SIM } from "./board.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS ?? "screenshots";
const TOKEN = "greenhouse-7f3a";
const DASHBOARD_KEY = "potting-shed-91c4";

let browser;
let board;
let page;
const consoleErrors = [];

before(async () => {
  board = new Board();
  await board.start();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // A fresh profile per launch (playwright makes one); no network beyond the daemon.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
    headless: true,
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 640 } });
  page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  await page.goto(board.url);
  await page.locator("body[data-state=online]").waitFor();
});

after(async () => {
  await browser?.close();
  await board?.stop();
});

// The value the daemon reports for a pin, asked over MCP/U on TCP.
async function readOverTcp(pin) {
  const client = await lineClient(board.tcpPort);
  try {
    return (await client.call("gpio_read", { pin })).value;
  } finally {
    client.close();
  }
}

const pinCard = (name) => page.locator(`article[data-pin="${name}"]`);

test("the page loads with every pin and no console errors", async () => {
  const pins = ["led", "led_sense", "button", "fan", "light", "room_temp", "room_humidity", "room_pressure", "cpu_temp",
    "tank", "outdoor", "heater", "valve", "pump", "forward", "reverse"];
  for (const name of pins) await pinCard(name).waitFor();
  assert.equal(await page.locator("article.pin").count(), pins.length);
  assert.deepEqual(consoleErrors, []);
});

test("sensors show their values in the units people read, the 1-Wire thermometers too", async () => {
  const shows = (name, pattern) => page.waitForFunction(
    ([name, source]) => new RegExp(source).test(document.querySelector(`article[data-pin="${name}"] output.value`)?.textContent ?? ""),
    [name, pattern.source],
    { timeout: 5000 },
  );
  await shows("room_temp", /^-?[\d.]+ °C$/);
  await shows("room_humidity", /^[\d.]+ %RH$/);
  await shows("room_pressure", /^1\d{3}(\.\d+)? hPa$/);
  await shows("tank", /^1\d(\.\d+)? °C$/); // a DS18B20 of the simulated 1-Wire bus, read once its conversion is done
  await shows("outdoor", /^-?[\d.]+ °C$/);
});

test("the bus devices show with what clients may do, and each transfer is pushed", async () => {
  const bus = (key) => page.locator(`article[data-bus="${key}"]`);
  for (const key of ["i2c-1-0x76", "i2c-1-0x50", "i2c-1-0x48", "i2c-1-0x68", "spidev0.0"]) await bus(key).waitFor();
  assert.equal(await bus("i2c-1-0x76").locator("h3").textContent(), "BME280");
  await bus("i2c-1-0x48").locator(".badge", { hasText: "read-only" }).waitFor();
  await bus("i2c-1-0x68").locator(".badge", { hasText: "driver rtc-ds1307" }).waitFor();
  const client = await lineClient(board.tcpPort);
  await client.call("i2c_read", { bus: 1, address: 0x76, register: 0xd0 });
  await client.call("spi_transfer", { bus: 0, chip_select: 0, data: [1, 0xb0, 0] });
  client.close();
  await bus("i2c-1-0x76").locator(".last", { hasText: "i2c_read" }).filter({ hasText: "read 60" }).waitFor({ timeout: 1000 });
  await bus("spidev0.0").locator(".last", { hasText: "sent 01 b0 00" }).filter({ hasText: "read 00 02 00" }).waitFor({ timeout: 1000 });
});

test("toggling led in the page drives the pin", async () => {
  const before = await readOverTcp(2);
  await pinCard("led").getByRole("switch").click();
  await waitFor(async () => (await readOverTcp(2)) === !before, "led to change over TCP");
});

test("a gpio_write over TCP shows in the page within a second", async () => {
  for (const value of [true, false]) {
    // Connected until the page shows it: the led returns to its safe value when its client goes (docs/safety.md).
    const client = await lineClient(board.tcpPort);
    await client.call("gpio_write", { pin: 2, value });
    await page.waitForFunction(
      (on) => document.querySelector('article[data-pin="led"] [role=switch]').getAttribute("aria-checked") === String(on),
      value,
      { timeout: 1000 },
    );
    client.close();
  }
});

test("a sampled pin's plot grows and a button edge appears in the events", async () => {
  const samples = () => page.locator('article[data-pin="led_sense"] svg.plot').getAttribute("data-samples").then(Number);
  const first = await samples();
  await waitFor(async () => (await samples()) > first, "the led_sense plot to grow");
  await page.locator("#events li.event", { hasText: "button" }).filter({ hasText: /rising|falling/ }).first().waitFor();
});

test("moving the fan slider drives the PWM duty", async () => {
  await pinCard("fan").locator("input[type=range]").fill("200");
  await waitFor(async () => {
    const client = await lineClient(board.tcpPort);
    const read = await client.call("resources/read", { uri: "mcpu://pins/fan" });
    client.close();
    return JSON.parse(read.contents[0].text).duty === 200;
  }, "the fan duty over TCP");
  await page.waitForFunction(() => document.querySelector('article[data-pin="fan"] output').textContent.includes("(200)"));
});

test("an output's card shows its limits, and while it is on the time until mcpud ends it", async () => {
  await pinCard("heater").locator("p.limits", { hasText: "max 10 min on, 1 min off between" }).waitFor();
  await pinCard("heater").getByRole("switch").click();
  await pinCard("heater").locator(".countdown", { hasText: /back to safe in \d+ s \(max on\)/ }).waitFor({ timeout: 2000 });
  await pinCard("heater").getByRole("switch").click();
  await page.waitForFunction(() => document.querySelector('article[data-pin="heater"] .countdown').textContent === "");
});

test("a tool form shows the result, and the validation error of invalid input", async () => {
  await page.getByRole("tab", { name: "Tools" }).click();
  const tool = page.locator('details[data-tool="pwm_write"]');
  await tool.locator("summary").click();
  await tool.getByLabel(/^pin/).fill("18");
  await tool.getByLabel(/^duty/).fill("300");
  await tool.getByRole("button", { name: "Call" }).click();
  await tool.locator("pre.result.error", { hasText: "above the maximum 255" }).waitFor();
  await tool.getByLabel(/^duty/).fill("64");
  await tool.getByRole("button", { name: "Call" }).click();
  await tool.locator("pre.result:not(.error)", { hasText: '"duty": 64' }).waitFor();
  assert.equal(await page.locator('details[data-tool="get_info"] .badge.user').count(), 1, "user-only tools are marked");
});

test("the activity shows calls from every client, and the status its clients", async () => {
  await page.getByRole("tab", { name: "Activity" }).click();
  const client = await lineClient(board.tcpPort);
  await client.call("gpio_read", { pin: 3 });
  await page.locator("#activity tr", { hasText: "gpio_read" }).filter({ hasText: "tcp" }).first().waitFor();
  client.close();
  await page.getByRole("tab", { name: "Status" }).click();
  await page.locator("#status td", { hasText: "mcpud-dashboard" }).first().waitFor();
  await page.locator("#log .log").first().waitFor();
  await page.getByRole("tab", { name: "Connect" }).click();
  await page.locator("#connect pre", { hasText: board.socketPath }).first().waitFor();
  await page.locator("#connect pre", { hasText: `${board.url}mcp` }).first().waitFor();
});

test("the status is pushed: a TCP client that calls nothing shows within a second, and goes", async () => {
  await page.getByRole("tab", { name: "Status" }).click();
  await page.locator("#status td", { hasText: "mcpud-dashboard" }).first().waitFor();
  const client = await lineClient(board.tcpPort);
  const row = page.locator("#status td", { hasText: `127.0.0.1:${client.localPort}` });
  await row.waitFor({ timeout: 1000 });
  client.close();
  await row.waitFor({ state: "detached", timeout: 1000 });
});

test("a retrying uplink shows when it dials next, and each retry is pushed", async () => {
  // Port 1 on loopback refuses at once: the uplink retries every second at most.
  const refused = new Board({ extra: '[uplink.services]\nserver = "127.0.0.1:1"\ntoken = "t"\nretry_max_ms = 1000\n' });
  await refused.start();
  const tab = await browser.newPage();
  try {
    await tab.goto(`${refused.url}#status`);
    const state = tab.locator("#status section", { hasText: "Uplinks" }).locator("td", { hasText: "retrying" });
    await state.filter({ hasText: /next attempt at \d\d:\d\d:\d\d \((in \d+ s|now)\)/ }).waitFor();
    const due = () => state.locator("[data-next-attempt]").getAttribute("data-next-attempt");
    const first = await due();
    await waitFor(async () => (await due()) !== first, "a later attempt to be shown");
  } finally {
    await tab.close();
    await refused.stop();
  }
});

test("a bridged microcontroller's pins are on the Board tab, live", { skip: !MCU_SIM && "mcu-sim is not built" }, async () => {
  const bridged = new Board({ bridge: true });
  await bridged.start();
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  tab.on("pageerror", (error) => errors.push(String(error)));
  try {
    await tab.goto(bridged.url);
    const card = (name) => tab.locator(`article[data-pin="${name}"]`);
    // The device comes online after the page loaded, or before: either way its pins appear.
    await card("uno__sensor").waitFor({ timeout: 20000 });
    await card("uno__led").waitFor();
    assert.equal(await card("uno__sensor").locator(".badge.device").textContent(), "uno");
    // The sensor reads the injected 1650 mV: 338 of 1023 ADC counts; its plot grows with drained samples.
    await tab.waitForFunction(() => {
      const shown = Number.parseInt(document.querySelector('article[data-pin="uno__sensor"] output').textContent);
      return Math.abs(shown - 338) <= 2;
    }, null, { timeout: 10000 });
    const samples = () => card("uno__sensor").locator("svg.plot").getAttribute("data-samples").then(Number);
    const first = await samples();
    await waitFor(async () => (await samples()) > first, "the uno__sensor plot to grow");
    // The page's switch drives the device's LED; a write from elsewhere shows within a second.
    await card("uno__led").getByRole("switch").click();
    await waitFor(() => /^pin 13 1$/m.test(bridged.deviceOutput), "the device's pin 13 to go high");
    await card("uno__led").locator('[role=switch][aria-checked="true"]').waitFor();
    const client = await lineClient(bridged.tcpPort);
    await client.call("uno__gpio_write", { pin: 13, value: false });
    client.close();
    await tab.waitForFunction(
      () => document.querySelector('article[data-pin="uno__led"] [role=switch]').getAttribute("aria-checked") === "false",
      null,
      { timeout: 1000 },
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
    await tab.screenshot({ path: join(SCREENSHOTS, "dashboard-bridged.png") });
    // The device goes: its pins leave the page.
    bridged.device.kill("SIGTERM");
    await card("uno__led").waitFor({ state: "detached", timeout: 10000 });
    assert.deepEqual(errors, []);
  } finally {
    await tab.close();
    await bridged.stop();
  }
});

test("screenshots at desktop and phone widths", async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.getByRole("tab", { name: "Board" }).click();
  await page.screenshot({ path: join(SCREENSHOTS, "dashboard-desktop.png") });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  await phone.goto(board.url);
  await phone.locator('article[data-pin="light"] svg.plot[data-samples]').waitFor();
  await phone.locator("body[data-state=online]").waitFor();
  await phone.screenshot({ path: join(SCREENSHOTS, "dashboard-phone.png") });
  await phone.close();
});

test("killing and restarting mcpud: the page says so and recovers", async () => {
  await board.kill();
  await page.locator("body[data-state=offline]").waitFor();
  assert.match(await page.locator("#connection").textContent(), /not answering/);
  await board.start();
  await page.locator("body[data-state=online]").waitFor({ timeout: 20000 });
  await pinCard("led").waitFor();
  const client = await lineClient(board.tcpPort); // connected until the page shows the led on (released after)
  await client.call("gpio_write", { pin: 2, value: true });
  await page.waitForFunction(() => document.querySelector('article[data-pin="led"] [role=switch]')?.getAttribute("aria-checked") === "true");
  client.close();
  assert.deepEqual(consoleErrors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|net::/.test(e)), []);
});

test("with a token, the page shows nothing of the board until it is given; API calls without it get 401, a foreign Origin 403", async () => {
  const guarded = new Board({ token: TOKEN });
  await guarded.start();
  const tab = await browser.newPage();
  try {
    await tab.goto(guarded.url);
    await tab.locator("body[data-state=unauthorized]").waitFor();
    assert.equal(await tab.locator("article.pin").count(), 0);
    assert.equal(await tab.locator("main").isVisible(), false);
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const post = (headers) => fetch(`${guarded.url}mcp`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(ping) });
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ Authorization: `Bearer ${TOKEN}`, Origin: "http://evil.example" })).status, 403);
    assert.equal((await fetch(guarded.url, { headers: { Origin: "http://evil.example" } })).status, 403);
    await tab.locator("#token").fill(TOKEN);
    await tab.getByRole("button", { name: "Connect" }).click();
    await tab.locator('article[data-pin="led"]').waitFor();
    assert.equal(await tab.evaluate(() => document.cookie), "", "no cookie holds the token");
  } finally {
    await tab.close();
    await guarded.stop();
  }
});

test("a waiting call is decided with the dashboard's own key, the stop button stops and Reset lifts it; the MCP token opens none of it", async () => {
  const guarded = new Board({
    token: TOKEN,
    extra: `dashboard_token = "${DASHBOARD_KEY}"\n`,
    edit: (sim) => sim.replace(/^# confirm = true .*$/m, "confirm = true"), // the heater waits for a human
  });
  await guarded.start();
  const tab = await browser.newPage();
  const agent = await lineClient(guarded.tcpPort);
  try {
    await tab.goto(guarded.url);
    await tab.locator("#token").fill(TOKEN);
    await tab.locator("#token-form button").click();
    await tab.locator("body[data-state=online]").waitFor();

    // An agent switches the heater on: the call waits, and the page shows it without its arguments until unlocked.
    const denied = agent.call("gpio_write", { pin: 50, value: true }).then(() => "ran", (e) => e.message);
    const approval = tab.locator(".approval");
    await approval.locator("code", { hasText: "gpio_write" }).waitFor();
    assert.equal(await tab.locator("#safety-key").isVisible(), false, "the key is asked for when it is needed");
    await approval.locator(".deny").click();
    await tab.locator("#safety-key-input").waitFor();
    await tab.locator("#safety-key-input").fill(DASHBOARD_KEY);
    await tab.locator("#safety-key button").click();
    await approval.locator("code", { hasText: '{"pin":50,"value":true}' }).waitFor();
    await tab.screenshot({ path: join(SCREENSHOTS, "dashboard-approval.png") });
    await approval.locator(".deny").click();
    assert.match(await denied, /a human denied the call \(approval \d+, dashboard 127\.0\.0\.1\)/);
    await approval.waitFor({ state: "detached" });

    // What the agent holds (the MCP token) does not open the safety API; the dashboard key does.
    const api = (key, path = "", init = {}) =>
      fetch(`${guarded.url}api/safety${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, ...init.headers } });
    assert.equal((await api(TOKEN)).status, 401);
    assert.equal((await api(TOKEN, "/reset", { method: "POST", headers: { "Content-Type": "application/json" } })).status, 401);
    assert.equal((await api(DASHBOARD_KEY)).status, 200);

    const approved = agent.call("gpio_write", { pin: 50, value: true });
    await approval.locator("code", { hasText: '{"pin":50,"value":true}' }).waitFor();
    await approval.locator(".approve").click();
    assert.equal((await approved).value, true);

    await tab.locator("#estop").click();
    await tab.locator("body[data-estop=active]").waitFor();
    await tab.locator(".estop-latched", { hasText: "the dashboard's Emergency stop button" }).waitFor();
    await assert.rejects(agent.call("gpio_write", { pin: 2, value: true }), /ESTOP|emergency stop/i);
    await tab.locator("#estop-reset").click();
    await tab.locator("body[data-estop=clear]").waitFor();
    assert.equal((await agent.call("gpio_write", { pin: 2, value: true })).value, true);

    await tab.locator("#tab-audit").click();
    for (const what of ["approval denied", "approval approved", "estop stop", "estop reset"])
      await tab.locator("#audit tr", { hasText: what }).first().waitFor();
  } finally {
    agent.close();
    await tab.close();
    await guarded.stop();
  }
});
