// SPDX-License-Identifier: MIT
// Conversions between JSON values and D-Bus variants, for a{sv} dictionaries
// whose contents come from tools (service side) and for --json output (mcpuctl).
#pragma once

#include <nlohmann/json.hpp>

#include "mcpud/dbus/names.hpp"

namespace mcpud::dbus {

// string -> s, boolean -> b, signed integer -> x, unsigned -> t, number -> d,
// array of strings -> as; anything else -> s holding the JSON text.
sdbus::Variant variant_from_json(const nlohmann::json& value);
// Every member of a JSON object, converted as above; non-objects give {}.
Dict dict_from_json(const nlohmann::json& object);

// The inverse for the types above (and i, u, n, q, y); other types give null.
nlohmann::json json_from_variant(const sdbus::Variant& value);
nlohmann::json json_from_dict(const Dict& dict);

}  // namespace mcpud::dbus
