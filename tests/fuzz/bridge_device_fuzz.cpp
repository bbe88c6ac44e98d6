// SPDX-License-Identifier: MIT
// What a bridged microcontroller sends: each line is read as the bridge reads a
// device's line (reply, error, noise); a reply's result is also read as a
// `list_tools` manifest, and every schema the manifest declares is compiled and
// used, as registering the device's tools does. What the manifest keeps must
// hold whatever the device sent: exported names of the MCP tool name
// characters, at most 64 with the prefix, never two alike, no control or
// formatting characters in descriptions or in what refusals show.
#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>

#include "device_manifest.hpp"
#include "device_reply.hpp"
#include "mcpud/core/line_framer.hpp"
#include "mcpud/core/schema.hpp"
#include "mcpud/core/shown_text.hpp"
#include "support/fuzz_input.hpp"

namespace {

constexpr std::string_view kPrefix = "uno__";

void require(bool holds) {
  if (!holds) std::abort();
}

bool exportable(const std::string& name) {
  if (name.empty() || kPrefix.size() + name.size() > mcpud::bridge::kMaxExportedName) return false;
  if (name.find("__") != std::string::npos) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

// What the manifest promises, checked independently of how it is read.
void check_manifest(const mcpud::bridge::DeviceManifest& manifest) {
  std::set<std::string> tools;
  for (const auto& tool : manifest.tools) {
    require(exportable(tool.name) && tool.name != "list_tools");
    require(tools.insert(tool.name).second);
    require(!mcpud::has_hidden_characters(tool.description));
  }
  std::set<std::string> pins;
  for (const auto& pin : manifest.pins) {
    require(exportable(pin.name) && pins.insert(pin.name).second);
    require(!mcpud::has_hidden_characters(pin.description) && !mcpud::has_hidden_characters(pin.type));
  }
  for (const auto& refusal : manifest.refused) {
    require(!mcpud::has_hidden_characters(refusal.name) && !mcpud::has_hidden_characters(refusal.reason));
  }
}

void use_manifest(const nlohmann::json& result) {
  auto manifest = mcpud::bridge::read_manifest(result, kPrefix);
  if (!manifest) return;
  check_manifest(*manifest);
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
