// SPDX-License-Identifier: MIT
// MCP/U on an Arduino Uno: the LED on pin 13, a sampled analog input on A0, a PWM
// output, a button with edge events, two custom tools (one with parameters, one polled)
// and the stop a host (mcpud's emergency stop) calls: every output off, the blinking ended.
#include <McpU.h>

McpDevice mcp("uno-demo", "1.0.0");

// The blink tool only schedules; loop() does the toggling, so requests keep flowing.
static uint8_t toggles_left = 0;
static unsigned long toggle_every_ms = 100;
static unsigned long last_toggle_ms = 0;

static void blinkTool(McpArgs& args, McpReply& reply) {
  const long times = args.getInt(F("times"));
  const long period = args.getInt(F("period_ms"), 200);
  toggles_left = static_cast<uint8_t>(times * 2);
  toggle_every_ms = static_cast<unsigned long>(period / 2);
  last_toggle_ms = millis() - toggle_every_ms;
  reply.add(F("times"), times);
  reply.add(F("period_ms"), period);
}

static void uptimeTool(McpArgs&, McpReply& reply) { reply.add(F("uptime_ms"), static_cast<unsigned long>(millis())); }

// What the board does on an emergency stop: its outputs to their safe (off)
// state. Anyone may call it at any time; calling it twice changes nothing more.
static void emergencyStopTool(McpArgs&, McpReply& reply) {
  toggles_left = 0;
  digitalWrite(LED_BUILTIN, LOW);
  analogWrite(9, 0);
  reply.add(F("stopped"), true);
}

static void runBlink() {
  if (toggles_left == 0 || millis() - last_toggle_ms < toggle_every_ms) return;
  last_toggle_ms = millis();
  --toggles_left;
  digitalWrite(LED_BUILTIN, digitalRead(LED_BUILTIN) == HIGH ? LOW : HIGH);
}

void setup() {
  Serial.begin(115200);
  mcp.addPin(13, F("led"), MCP_DIGITAL_OUTPUT, F("Onboard LED"));
  mcp.addPin(A0, F("sensor"), MCP_ADC_INPUT, F("Analog input A0"), McpBuffered(16, 100).withThreshold(200, 800, 20));
  mcp.addPin(9, F("dimmer"), MCP_PWM_OUTPUT, F("PWM output on D9"));
  mcp.addPin(2, F("button"), MCP_DIGITAL_INPUT, F("Push button on D2"), McpEdges(20));
  static const McpParam blinkParams[] = {
      McpParam(F("times"), 1, 20, F("How many times to blink")),
      McpParam(F("period_ms"), 20, 2000, F("Length of one blink in milliseconds"), false),
  };
  mcp.addTool(F("blink"), F("Blink the LED without blocking the device"), blinkParams, blinkTool);
  mcp.addTool(F("uptime"), F("Milliseconds since the device started"), uptimeTool, McpPolling(10000));
  mcp.addTool(F("emergency_stop"), F("Stop: every output off, blinking ended"), emergencyStopTool);
  mcp.begin(Serial);
}

void loop() {
  mcp.loop();
  runBlink();
}
