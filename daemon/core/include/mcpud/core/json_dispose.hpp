// SPDX-License-Identifier: MIT
// Freeing the JSON values of the request path without nlohmann's flattening.
#pragma once

#include <nlohmann/json.hpp>

namespace mcpud {

// Empties `value` (an object or array) level by level, `depth` levels down.
// nlohmann's destructor, so that deep nesting cannot overflow the stack, first
// moves every member of a non-empty object or array into a vector it
// allocates, then frees them from there: an allocation and a move per member
// on every call's arguments and result. Those are a level or two deep; emptied
// here they are freed in place. Below `depth` the destructor does its usual
// work, so a deep value is as safe as before.
inline void dispose(nlohmann::json& value, int depth = 4) {
  if (depth == 0) return;
  if (auto* object = value.get_ptr<nlohmann::json::object_t*>()) {
    for (auto& member : *object) dispose(member.second, depth - 1);
    object->clear();
  } else if (auto* array = value.get_ptr<nlohmann::json::array_t*>()) {
    for (auto& member : *array) dispose(member, depth - 1);
    array->clear();
  }
}

}  // namespace mcpud
