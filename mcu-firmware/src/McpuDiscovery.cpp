// SPDX-License-Identifier: MIT
// The discovery methods: get_info and list_tools (tools with their schemas, and the pin registry).
#include "McpuBuiltins.h"

using mcpu::JsonWriter;
using mcpu::Text;

#if defined(__AVR__)
extern char __heap_start;
extern char* __brkval;

namespace {
// Bytes between the heap (or the end of static data) and the stack, measured from inside a call.
long freeRam() {
  char top;
  return static_cast<long>(&top - (__brkval ? __brkval : &__heap_start));
}
}  // namespace
#endif

void McpDevice::getInfo(McpReply& reply) {
  reply.add(F("device"), device_);
  reply.add(F("version"), version_);
  reply.add(F("platform"), F("arduino"));
  reply.add(F("pin_count"), static_cast<long>(pin_count_));
  reply.add(F("memory_profile"), F(MCPU_MEMORY_PROFILE));
  reply.add(F("firmware"), F("mcpu-arduino " MCPU_VERSION));
  reply.add(F("schemas"), schemas_);
  reply.add(F("line_max"), static_cast<long>(MCPU_LINE_MAX));
#if defined(__AVR__)
  reply.add(F("free_ram"), freeRam());
#endif
}

void McpDevice::writeSchema(JsonWriter& w, uint8_t builtin, const mcpu::ToolSlot* tool) {
  const uint8_t count = mcpu::toolParamCount(builtin, tool);
  w.key(F("inputSchema"));
  w.beginObject();
  w.member(F("type"), Text(F("object")));
  w.key(F("properties"));
  w.beginObject();
  for (uint8_t i = 0; i < count; ++i) {
    const McpParam p = mcpu::toolParam(builtin, tool, i);
    w.key(p.name);
    w.beginObject();
    w.key(F("type"));
    // A pin's name is accepted too, but hosts read one type per property.
    w.value(Text(p.type == MCP_PIN_REF ? F("integer") : mcpu::paramTypeName(p.type)));
    if (!p.description.empty()) w.member(F("description"), p.description);
    if (p.ranged) {
      w.member(F("minimum"), p.minimum);
      w.member(F("maximum"), p.maximum);
    }
    w.endObject();
  }
  w.endObject();
  w.key(F("required"));
  w.beginArray();
  for (uint8_t i = 0; i < count; ++i) {
    const McpParam p = mcpu::toolParam(builtin, tool, i);
    if (p.required) w.value(p.name);
  }
  w.endArray();
  w.endObject();
}

void McpDevice::listTools(McpReply& reply) {
  JsonWriter& w = reply.json();
  w.member(F("device"), device_);
  w.member(F("version"), version_);
  w.key(F("tools"));
  w.beginArray();
  for (uint8_t id = 0; id < mcpu::kListTools; ++id) {
    if (id >= mcpu::kGetPinSummary && !anySampling(id)) continue;  // as the reference firmware lists them
    w.beginObject();
    w.member(F("name"), mcpu::builtinName(id));
    w.member(F("description"), mcpu::builtinDescription(id));
    if (schemas_) writeSchema(w, id, nullptr);
    w.endObject();
  }
  for (uint8_t i = 0; i < tool_count_; ++i) {
    const mcpu::ToolSlot& t = tools_[i];
    w.beginObject();
    w.member(F("name"), t.name);
    w.member(F("description"), t.description);
    if (schemas_) writeSchema(w, mcpu::kNotBuiltin, &t);
    if (t.polling_ms) {
      w.key(F("polling"));
      w.beginObject();
      w.member(F("enabled"), true);
      w.member(F("interval_ms"), static_cast<unsigned long>(t.polling_ms));
      w.endObject();
    }
    w.endObject();
  }
  w.endArray();
  w.key(F("pins"));
  w.beginArray();
  for (uint8_t i = 0; i < pin_count_; ++i) {
    const mcpu::PinSlot& p = pins_[i];
    w.beginObject();
    w.member(F("pin"), static_cast<long>(p.number));
    w.member(F("name"), p.name);
    w.member(F("type"), Text(mcpu::pinTypeName(p.type)));
    w.member(F("description"), p.description);
    if (p.sampler != 0xFF) {
      const McpSampling& o = samplers_[p.sampler].options;
      w.key(F("capabilities"));
      w.beginObject();
      w.member(F("summary"), o.summary);
      w.member(F("buffer"), o.buffer_size > 0);
      w.member(F("events"), o.threshold || o.edges);
      w.endObject();
      w.key(F("sampling"));
      w.beginObject();
      w.member(F("interval_ms"), static_cast<unsigned long>(o.interval_ms));
      w.member(F("buffer_size"), static_cast<unsigned long>(o.buffer_size));
      w.endObject();
    }
    w.endObject();
  }
  w.endArray();
}
