// SPDX-License-Identifier: MIT
// What both peers of run-mcp-bench.sh serve: a gpio_write tool of the same
// input schema as mcpud's and a result of the same shape (the reply as text
// content and as structuredContent), over a table of pins like mcpud's
// simulated board. Both SDKs' McpServer take it alike.
import * as z from "zod";

const pins = new Map([
  [2, { name: "led", type: "digital_output", value: false }],
  [3, { name: "led_sense", type: "digital_input", value: false }],
  [18, { name: "fan", type: "pwm_output", value: 0 }],
]);

export function registerGpioWrite(server) {
  server.registerTool(
    "gpio_write",
    {
      description: "Write HIGH or LOW to a digital output pin",
      inputSchema: z.strictObject({
        pin: z.number().int().describe("Pin number"),
        value: z.boolean().describe("true = HIGH, false = LOW"),
      }),
    },
    async ({ pin, value }) => {
      const entry = pins.get(pin);
      if (!entry || entry.type !== "digital_output") {
        const text = entry ? `WRONG_PIN_TYPE: pin ${pin} is ${entry.type}` : `PIN_NOT_FOUND: pin ${pin}`;
        return { content: [{ type: "text", text }], isError: true };
      }
      entry.value = value;
      const reply = { pin, name: entry.name, value };
      return { content: [{ type: "text", text: JSON.stringify(reply) }], structuredContent: reply };
    },
  );
}
