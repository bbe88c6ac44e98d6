// SPDX-License-Identifier: MIT
// What a bridged microcontroller sends: each line is read as the bridge reads a
// device's line (reply, error, noise); a reply's result is also read as a
// `list_tools` manifest, and every schema the manifest declares is compiled and
// used, as registering the device's tools does.
#include <nlohmann/json.hpp>

#include "device_manifest.hpp"
#include "device_reply.hpp"
#include "mcpud/core/line_framer.hpp"
#include "mcpud/core/schema.hpp"
#include "support/fuzz_input.hpp"

namespace {

void use_manifest(const nlohmann::json& result) {
  auto manifest = mcpud::bridge::read_manifest(result);
  if (!manifest) return;
  for (const auto& tool : manifest->tools) {
    const mcpud::schema::CompiledSchema compiled(tool.input_schema);
    auto arguments = nlohmann::json::object({{"pin", 13}, {"value", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}});
    (void)compiled.validate(arguments, "arguments");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mcpud::LineFramer framer(64 * 1024);
  framer.feed(
      mcpud::fuzz::as_text(data, size),
      [](std::string_view line) {
        auto parsed = mcpud::bridge::parse_device_line(line, "uno");
        if (parsed.kind == mcpud::bridge::DeviceLine::Kind::Reply && parsed.outcome) use_manifest(*parsed.outcome);
      },
      [] {});
  return 0;
}
