// SPDX-License-Identifier: MIT
// The built-in methods of MCP/U (pins, sampling, discovery): their names, parameters and handlers.
#include "McpuBuiltins.h"

#include <string.h>

namespace mcpu {
namespace {

#if MCPU_NO_SCHEMAS
#define MCPU_DOC(text) ""
#else
#define MCPU_DOC(text) text
#endif

// Tables live in flash on AVR; entries are copied out with memcpy_P.
struct ParamRow {
  const char* name;
  const char* description;
  uint8_t type;
  uint8_t required;
  uint8_t ranged;
  int32_t minimum;
  int32_t maximum;
};

struct BuiltinRow {
  const char* name;
  const char* description;
  const ParamRow* params;
  uint8_t count;
  // What Builtins::call runs; nullptr for the methods the device answers itself.
  void (*handler)(McpDevice& d, McpArgs& args, McpReply& reply);
};

const char kPin[] PROGMEM = "pin";
const char kValue[] PROGMEM = "value";
const char kDuty[] PROGMEM = "duty";
const char kSince[] PROGMEM = "since";
const char kLimit[] PROGMEM = "limit";
const char kPinDoc[] PROGMEM = MCPU_DOC("GPIO pin number");
const char kPinRefDoc[] PROGMEM = MCPU_DOC("Pin number (its name is accepted too)");
const char kValueDoc[] PROGMEM = MCPU_DOC("true = HIGH, false = LOW");
const char kDutyDoc[] PROGMEM = MCPU_DOC("0 = off, 255 = fully on");
const char kSinceDoc[] PROGMEM =
    MCPU_DOC("Only entries with a sequence number above this (next_since of the last reply)");
const char kLimitDoc[] PROGMEM = MCPU_DOC("At most this many entries, oldest first");

const ParamRow kWriteParams[] PROGMEM = {{kPin, kPinDoc, MCP_INTEGER, 1, 0, 0, 0},
                                         {kValue, kValueDoc, MCP_BOOLEAN, 1, 0, 0, 0}};
const ParamRow kPinParams[] PROGMEM = {{kPin, kPinDoc, MCP_INTEGER, 1, 0, 0, 0}};
const ParamRow kPwmParams[] PROGMEM = {{kPin, kPinDoc, MCP_INTEGER, 1, 0, 0, 0},
                                       {kDuty, kDutyDoc, MCP_INTEGER, 1, 1, 0, 255}};
const ParamRow kPinRefParams[] PROGMEM = {{kPin, kPinRefDoc, MCP_PIN_REF, 1, 0, 0, 0}};
const ParamRow kCursorParams[] PROGMEM = {{kPin, kPinRefDoc, MCP_PIN_REF, 1, 0, 0, 0},
                                          {kSince, kSinceDoc, MCP_INTEGER, 0, 1, 0, 2147483647L},
                                          {kLimit, kLimitDoc, MCP_INTEGER, 0, 1, 1, 2147483647L}};

const char kGpioWriteName[] PROGMEM = "gpio_write";
const char kGpioReadName[] PROGMEM = "gpio_read";
const char kPwmWriteName[] PROGMEM = "pwm_write";
const char kAdcReadName[] PROGMEM = "adc_read";
const char kGetInfoName[] PROGMEM = "get_info";
const char kSummaryName[] PROGMEM = "get_pin_summary";
const char kBufferName[] PROGMEM = "get_pin_buffer";
const char kEventsName[] PROGMEM = "get_pin_events";
const char kListToolsName[] PROGMEM = "list_tools";
const char kGpioWriteDoc[] PROGMEM = "Write HIGH or LOW to a digital output pin";
const char kGpioReadDoc[] PROGMEM = "Read the level of a digital input or output pin";
const char kPwmWriteDoc[] PROGMEM = "Set the PWM duty cycle (0-255) of a PWM output pin";
const char kAdcReadDoc[] PROGMEM = "Read an analog input pin (raw value and millivolts)";
const char kGetInfoDoc[] PROGMEM = "Device name, firmware version and pin count";
const char kSummaryDoc[] PROGMEM = "Latest, min, max and average of a sampled pin since boot";
const char kBufferDoc[] PROGMEM = "Recent samples of a buffered pin, oldest first; pass next_since back as since";
const char kEventsDoc[] PROGMEM =
    "Queued threshold and edge events of a pin, oldest first; pass next_since back as since";
const char kListToolsDoc[] PROGMEM = "Tools and pins of this device";

// In BuiltinId order.
const BuiltinRow kBuiltins[] PROGMEM = {
    {kGpioWriteName, kGpioWriteDoc, kWriteParams, 2, Builtins::gpioWrite},
    {kGpioReadName, kGpioReadDoc, kPinParams, 1, Builtins::gpioRead},
    {kPwmWriteName, kPwmWriteDoc, kPwmParams, 2, Builtins::pwmWrite},
    {kAdcReadName, kAdcReadDoc, kPinParams, 1, Builtins::adcRead},
    {kGetInfoName, kGetInfoDoc, nullptr, 0, nullptr},
    {kSummaryName, kSummaryDoc, kPinRefParams, 1, Builtins::pinSummary},
    {kBufferName, kBufferDoc, kCursorParams, 3, Builtins::pinBuffer},
    {kEventsName, kEventsDoc, kCursorParams, 3, Builtins::pinEvents},
    {kListToolsName, kListToolsDoc, nullptr, 0, nullptr},
};

BuiltinRow row(uint8_t id) {
  BuiltinRow r;
  memcpy_P(&r, &kBuiltins[id], sizeof(r));
  return r;
}

Text flash(const char* p) { return Text(reinterpret_cast<const __FlashStringHelper*>(p)); }

}  // namespace

uint8_t builtinParamCount(uint8_t id) { return id < kBuiltinCount ? row(id).count : 0; }
Text builtinName(uint8_t id) { return flash(row(id).name); }
Text builtinDescription(uint8_t id) { return flash(row(id).description); }

bool builtinParam(uint8_t id, uint8_t i, McpParam* out) {
  const BuiltinRow r = row(id);
  if (i >= r.count) return false;
  ParamRow p;
  memcpy_P(&p, &r.params[i], sizeof(p));
  out->name = flash(p.name);
  out->description = flash(p.description);
  out->type = static_cast<McpParamType>(p.type);
  out->required = p.required != 0;
  out->ranged = p.ranged != 0;
  out->minimum = p.minimum;
  out->maximum = p.maximum;
  return true;
}

uint8_t toolParamCount(uint8_t id, const ToolSlot* tool) { return tool ? tool->param_count : builtinParamCount(id); }

McpParam toolParam(uint8_t id, const ToolSlot* tool, uint8_t i) {
  McpParam p;
  if (tool) {
    p = tool->params[i];
  } else {
    builtinParam(id, i, &p);
  }
  return p;
}

uint8_t findBuiltin(const JsonValue& method) {
  for (uint8_t i = 0; i < kBuiltinCount; ++i) {
    if (method.stringEquals(builtinName(i))) return i;
  }
  return kNotBuiltin;
}

const __FlashStringHelper* pinTypeName(McpPinType type) {
  switch (type) {
    case MCP_DIGITAL_OUTPUT:
      return F("digital_output");
    case MCP_DIGITAL_INPUT:
      return F("digital_input");
    case MCP_PWM_OUTPUT:
      return F("pwm_output");
    default:
      return F("adc_input");
  }
}

void Builtins::call(McpDevice& d, uint8_t id, McpArgs& args, McpReply& reply) {
  if (id >= kBuiltinCount) return;
  if (const auto handler = row(id).handler) handler(d, args, reply);
}

PinSlot* Builtins::pinArg(McpDevice& d, McpArgs& args, McpReply& reply, uint8_t type_mask) {
  const JsonValue ref = args.raw(F("pin"));
  PinSlot* pin = d.findPin(ref);
  if (!pin) {
    JsonWriter& w = reply.beginError(-32602);
    w.stringPart(F("Pin not found: "));
    if (ref.type == JsonType::String) {
      w.stringPart(ref.p + 1, ref.n - 2);
    } else {
      w.stringPart(ref.p, ref.n);
    }
    reply.endError(F("PIN_NOT_FOUND"));
    return nullptr;
  }
  if (!(type_mask & (1u << pin->type))) {
    JsonWriter& w = reply.beginError(-32602);
    w.stringPart(F("Wrong pin type: "));
    w.stringPart(pin->name);
    w.stringPart(F(" is "));
    w.stringPart(pinTypeName(pin->type));
    reply.endError(F("WRONG_PIN_TYPE"));
    return nullptr;
  }
  return pin;
}

void Builtins::gpioWrite(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, 1u << MCP_DIGITAL_OUTPUT);
  if (!pin) return;
  const bool value = args.getBool(F("value"));
  digitalWrite(pin->number, value ? HIGH : LOW);
  pin->output = value ? 1 : 0;
  reply.add(F("pin"), static_cast<long>(pin->number));
  reply.add(F("name"), pin->name);
  reply.add(F("value"), value);
}

void Builtins::gpioRead(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, (1u << MCP_DIGITAL_OUTPUT) | (1u << MCP_DIGITAL_INPUT));
  if (!pin) return;
  reply.add(F("pin"), static_cast<long>(pin->number));
  reply.add(F("name"), pin->name);
  reply.add(F("value"), digitalRead(pin->number) == HIGH);
}

void Builtins::pwmWrite(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, 1u << MCP_PWM_OUTPUT);
  if (!pin) return;
  const int duty = static_cast<int>(args.getInt(F("duty")));
  analogWrite(pin->number, duty);
  pin->output = static_cast<int16_t>(duty);
  reply.add(F("pin"), static_cast<long>(pin->number));
  reply.add(F("name"), pin->name);
  reply.add(F("duty"), duty);
}

void Builtins::adcRead(McpDevice& d, McpArgs& args, McpReply& reply) {
  PinSlot* pin = pinArg(d, args, reply, 1u << MCP_ADC_INPUT);
  if (!pin) return;
  const long raw = analogRead(pin->number);
  const long mv = (raw * MCPU_ADC_REF_MV + MCPU_ADC_MAX / 2) / MCPU_ADC_MAX;
  reply.add(F("pin"), static_cast<long>(pin->number));
  reply.add(F("name"), pin->name);
  reply.add(F("value"), raw);
  reply.add(F("mv"), mv);
  reply.json().key(F("volts"));
  reply.json().valueFixed(mv, 3);
}

}  // namespace mcpu
