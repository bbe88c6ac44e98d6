// SPDX-License-Identifier: MIT
// Schema fragments and registration of the bus tools.
#include "tool_schema.hpp"

#include <stdexcept>

namespace mcpud::buses {

using nlohmann::json;

json object_schema(json properties, json required) {
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", std::move(required)},
          {"additionalProperties", false}};
}

json integer_schema(long long minimum, long long maximum, const char* description) {
  return {{"type", "integer"}, {"minimum", minimum}, {"maximum", maximum}, {"description", description}};
}

json bytes_schema(std::size_t max_items, const char* description) {
  return {{"type", "array"},
          {"items", {{"type", "integer"}, {"minimum", 0}, {"maximum", 255}}},
          {"maxItems", max_items},
          {"description", description}};
}

void add_bus_tool(ToolRegistry& registry, const char* owner, std::string name, std::string title,
                  std::string description, json input, json output, ToolInvoke invoke, ToolAnnotations hints) {
  auto tool = make_tool({.owner = owner,
                         .name = std::move(name),
                         .title = std::move(title),
                         .description = std::move(description),
                         .input_schema = std::move(input),
                         .output_schema = std::move(output),
                         .hints = hints});
  tool.coerce_numeric_strings = true;
  tool.invoke = std::move(invoke);
  // Names are fixed and registered once; a clash is a programming error.
  if (auto added = registry.add(std::move(tool)); !added) throw std::logic_error(added.error().message);
}

}  // namespace mcpud::buses
