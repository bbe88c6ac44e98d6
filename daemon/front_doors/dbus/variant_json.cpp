// SPDX-License-Identifier: MIT
// JSON <-> D-Bus variant conversions for the basic types mcpud's interface uses.
#include "mcpud/dbus/variant_json.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace mcpud::dbus {

using nlohmann::json;

sdbus::Variant variant_from_json(const json& value) {
  if (value.is_string()) return sdbus::Variant{value.get<std::string>()};
  if (value.is_boolean()) return sdbus::Variant{value.get<bool>()};
  if (value.is_number_unsigned()) return sdbus::Variant{value.get<std::uint64_t>()};
  if (value.is_number_integer()) return sdbus::Variant{value.get<std::int64_t>()};
  if (value.is_number_float()) return sdbus::Variant{value.get<double>()};
  if (value.is_array() && !value.empty()) {
    bool all_strings = true;
    for (const auto& item : value) all_strings = all_strings && item.is_string();
    if (all_strings) return sdbus::Variant{value.get<std::vector<std::string>>()};
  }
  return sdbus::Variant{value.dump()};
}

Dict dict_from_json(const json& object) {
  Dict dict;
  if (!object.is_object()) return dict;
  for (const auto& [key, value] : object.items()) dict.emplace(key, variant_from_json(value));
  return dict;
}

json json_from_variant(const sdbus::Variant& value) {
  const std::string type = value.peekValueType();
  if (type == "s") return value.get<std::string>();
  if (type == "b") return value.get<bool>();
  if (type == "d") return value.get<double>();
  if (type == "x") return value.get<std::int64_t>();
  if (type == "t") return value.get<std::uint64_t>();
  if (type == "i") return value.get<std::int32_t>();
  if (type == "u") return value.get<std::uint32_t>();
  if (type == "n") return value.get<std::int16_t>();
  if (type == "q") return value.get<std::uint16_t>();
  if (type == "y") return value.get<std::uint8_t>();
  if (type == "as") return value.get<std::vector<std::string>>();
  return nullptr;
}

json json_from_dict(const Dict& dict) {
  json out = json::object();
  for (const auto& [key, value] : dict) out[key] = json_from_variant(value);
  return out;
}

}  // namespace mcpud::dbus
