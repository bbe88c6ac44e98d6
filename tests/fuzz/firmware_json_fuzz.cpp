// SPDX-License-Identifier: MIT
// The MCP/U firmware's JSON reader (host build), which reads every request a
// board receives on its UART: the text parsed, and the members a request has
// read as each type the firmware asks for.
#include "McpuJsonReader.h"
#include "support/fuzz_input.hpp"

namespace {

void read_as_everything(const mcpu::JsonValue& value) {
  long number = 0;
  double real = 0;
  bool flag = false;
  char text[32];
  (void)value.toLong(&number);
  (void)value.toDouble(&real);
  (void)value.toBool(&flag);
  (void)value.toString(text, sizeof text);
  (void)value.toString(text, 1);
  (void)mcpu::jsonTypeName(value);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcpu::JsonValue root;
  mcpu::JsonError error;
  if (!mcpu::jsonParse(reinterpret_cast<const char*>(data), size, &root, &error)) return 0;
  read_as_everything(root);
  for (const char* key : {"jsonrpc", "id", "method", "params"}) read_as_everything(root.member(mcpu::Text(key)));
  const auto params = root.member(mcpu::Text("params"));
  for (const char* key : {"name", "arguments", "pin", "value", "interval_ms"}) {
    const auto member = params.member(mcpu::Text(key));
    read_as_everything(member);
    read_as_everything(member.member(mcpu::Text("pin")));
  }
  return 0;
}
