// SPDX-License-Identifier: MIT
// The built-in methods of MCP/U (pins, sampling, discovery): their names, parameters and handlers.
#pragma once
#include "McpU.h"

namespace mcpu {

enum BuiltinId : uint8_t {
  kGpioWrite,
  kGpioRead,
  kPwmWrite,
  kAdcRead,
  kGetInfo,
  kGetPinSummary,
  kGetPinBuffer,
  kGetPinEvents,
  kListTools,  // a method, not listed as a tool (as in the reference firmware)
  kBuiltinCount,
  kNotBuiltin = 0xFF
};

// Parameter i of a built-in, copied out of flash.
bool builtinParam(uint8_t id, uint8_t i, McpParam* out);
uint8_t builtinParamCount(uint8_t id);
// Parameters of a custom tool (when `tool` is set) or of the built-in `id`.
uint8_t toolParamCount(uint8_t id, const ToolSlot* tool);
McpParam toolParam(uint8_t id, const ToolSlot* tool, uint8_t i);
Text builtinName(uint8_t id);
Text builtinDescription(uint8_t id);
// The built-in a method names, or kNotBuiltin.
uint8_t findBuiltin(const JsonValue& method);

struct Builtins {
  static void call(McpDevice& d, uint8_t id, McpArgs& args, McpReply& reply);
  static void gpioWrite(McpDevice& d, McpArgs& args, McpReply& reply);
  static void gpioRead(McpDevice& d, McpArgs& args, McpReply& reply);
  static void pwmWrite(McpDevice& d, McpArgs& args, McpReply& reply);
  static void adcRead(McpDevice& d, McpArgs& args, McpReply& reply);
  static void pinSummary(McpDevice& d, McpArgs& args, McpReply& reply);
  static void pinBuffer(McpDevice& d, McpArgs& args, McpReply& reply);
  static void pinEvents(McpDevice& d, McpArgs& args, McpReply& reply);
  // The pin an argument names, or an error reply (PIN_NOT_FOUND / WRONG_PIN_TYPE).
  static PinSlot* pinArg(McpDevice& d, McpArgs& args, McpReply& reply, uint8_t type_mask);
};

const __FlashStringHelper* pinTypeName(McpPinType type);
// The JSON type a parameter of type t takes, as error messages name it
// ("integer or string" for a pin reference).
const __FlashStringHelper* paramTypeName(McpParamType t);

}  // namespace mcpu
