// SPDX-License-Identifier: MIT
// Validates JSON values against the JSON Schema subset described in schema.hpp.
#include "mcpud/core/schema.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <regex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcpud::schema {
namespace {

using nlohmann::json;
using Result = std::expected<void, std::string>;

// Doubles in [kInt64Min, kUint64End) convert to a 64-bit JSON integer without overflow.
constexpr double kInt64Min = -9223372036854775808.0;
constexpr double kUint64End = 18446744073709551616.0;

// One step from the root to the value being checked. Steps live on the stack of the
// recursive calls and only become text when a check fails, so a valid value costs
// no string building.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  std::size_t index = 0;
  bool is_index = false;
};

void append_path(std::string& out, std::string_view root, const Path* step) {
  if (step == nullptr) {
    out += root;
    return;
  }
  append_path(out, root, step->parent);
  if (step->is_index) {
    out += '[' + std::to_string(step->index) + ']';
    return;
  }
  if (!out.empty()) out += '.';
  out += step->key;
}

// A float counts as an integer only if it also fits a JSON integer, so that it can
// be stored back as one.
bool is_integral_float(double d) { return std::trunc(d) == d && d >= kInt64Min && d < kUint64End; }

bool is_integral(const json& value) {
  return value.is_number_integer() || (value.is_number_float() && is_integral_float(value.get<double>()));
}

json to_integer(double d) {
  // Non-negative values become unsigned, as the parser makes them.
  if (d < 0) return static_cast<std::int64_t>(d);
  return static_cast<std::uint64_t>(d);
}

std::string type_name(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return is_integral(value) ? "integer" : "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  if (value.is_object()) return "object";
  return "binary";
}

bool has_type(const json& value, std::string_view name) {
  if (name == "integer") return is_integral(value);
  if (name == "number") return value.is_number();
  return type_name(value) == name;
}

// Exact comparison of two JSON numbers: comparing as double would round integers
// above 2^53, and nlohmann's own operator< mishandles huge unsigned values.
bool less(const json& a, const json& b) {
  if (a.is_number_float() || b.is_number_float()) return a.get<double>() < b.get<double>();
  if (a.is_number_unsigned()) {
    const auto x = a.get<std::uint64_t>();
    return b.is_number_unsigned() ? x < b.get<std::uint64_t>() : std::cmp_less(x, b.get<std::int64_t>());
  }
  const auto x = a.get<std::int64_t>();
  return b.is_number_unsigned() ? std::cmp_less(x, b.get<std::uint64_t>()) : x < b.get<std::int64_t>();
}

// A keyword whose value is not a number is malformed and, like unknown keywords, ignored.
const json* number_keyword(const json& schema, const char* name) {
  const auto it = schema.find(name);
  return it != schema.end() && it->is_number() ? &*it : nullptr;
}

std::size_t code_points(std::string_view text) {
  return std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + ' ' + std::string(noun) + (n == 1 ? "" : "s");
}

std::vector<std::string_view> type_names(const json& type) {
  if (type.is_string()) return {type.get_ref<const std::string&>()};
  std::vector<std::string_view> names;
  if (type.is_array()) {
    for (const auto& name : type) {
      if (name.is_string()) names.push_back(name.get_ref<const std::string&>());
    }
  }
  return names;
}

// "a", "a, or b", "a, b, or c"; the comma before "or" keeps alternatives that are
// themselves lists ("integer or null") readable.
std::string join_alternatives(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? ", or " : ", ";
    out += parts[i];
  }
  return out;
}

std::string join(const auto& parts, std::string_view separator) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

// How an anyOf branch is named when no branch matches.
std::string describe(const json& branch) {
  if (!branch.is_object()) return branch == false ? "nothing" : "anything";
  if (const auto it = branch.find("type"); it != branch.end()) return join(type_names(*it), " or ");
  if (const auto it = branch.find("const"); it != branch.end()) return it->dump();
  return "a schema";
}

// Compiling a std::regex costs far more than matching, and schemas reuse a handful
// of patterns, so each is compiled once per process. nullptr marks an invalid one.
const std::regex* compiled(const std::string& pattern) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::unique_ptr<const std::regex>> cache;
  const std::lock_guard lock(mutex);
  auto [it, inserted] = cache.try_emplace(pattern);
  if (inserted) {
    try {
      it->second = std::make_unique<const std::regex>(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      // Stays nullptr: the schema is broken, which validation reports.
    }
  }
  return it->second.get();  // map nodes never move, so the regex outlives the lock
}

class Validator {
 public:
  explicit Validator(std::string_view root) : root_(root) {}

  Result check(const json& schema, json& value, const Path* at) const {
    if (schema == false) return fail(at, "is not allowed here");
    if (!schema.is_object()) return {};
    // Each check looks only at the keywords that apply to the value's type.
    using Check = Result (Validator::*)(const json&, json&, const Path*) const;
    static constexpr std::array<Check, 7> kChecks{&Validator::check_type,   &Validator::check_choices,
                                                  &Validator::check_number, &Validator::check_string,
                                                  &Validator::check_array,  &Validator::check_object,
                                                  &Validator::check_any_of};
    for (const auto check : kChecks) {
      if (auto result = (this->*check)(schema, value, at); !result) return result;
    }
    return {};
  }

 private:
  std::unexpected<std::string> fail(const Path* at, std::string_view problem) const {
    std::string message;
    append_path(message, root_, at);
    if (message.empty()) message = "value";
    message += ": ";
    message += problem;
    return std::unexpected(std::move(message));
  }

  Result check_type(const json& schema, json& value, const Path* at) const {
    const auto it = schema.find("type");
    if (it == schema.end()) return {};
    const auto names = type_names(*it);
    const auto allows = [&](std::string_view name) { return std::ranges::find(names, name) != names.end(); };
    if (!std::ranges::any_of(names, [&](std::string_view name) { return has_type(value, name); })) {
      return fail(at, "expected " + join(names, " or ") + ", got " + type_name(value));
    }
    // Clients that only have doubles send 3.0 for 3; the tools then read an integer.
    if (value.is_number_float() && allows("integer") && !allows("number")) value = to_integer(value.get<double>());
    return {};
  }

  Result check_choices(const json& schema, json& value, const Path* at) const {
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
      if (std::ranges::find(*it, value) == it->end()) {
        std::vector<std::string> choices;
        for (const auto& choice : *it) choices.push_back(choice.dump());
        return fail(at, "must be one of " + join(choices, ", ") + ", got " + value.dump());
      }
    }
    if (const auto it = schema.find("const"); it != schema.end() && *it != value) {
      return fail(at, "must be " + it->dump() + ", got " + value.dump());
    }
    return {};
  }

  Result check_number(const json& schema, json& value, const Path* at) const {
    if (!value.is_number()) return {};
    const auto problem = [&](std::string_view relation, const json& bound) {
      return fail(at, value.dump() + " is " + std::string(relation) + ' ' + bound.dump());
    };
    if (const auto* min = number_keyword(schema, "minimum"); min && less(value, *min)) {
      return problem("below the minimum", *min);
    }
    if (const auto* max = number_keyword(schema, "maximum"); max && less(*max, value)) {
      return problem("above the maximum", *max);
    }
    if (const auto* min = number_keyword(schema, "exclusiveMinimum"); min && !less(*min, value)) {
      return problem("not above the exclusive minimum", *min);
    }
    if (const auto* max = number_keyword(schema, "exclusiveMaximum"); max && !less(value, *max)) {
      return problem("not below the exclusive maximum", *max);
    }
    return {};
  }

  Result check_string(const json& schema, json& value, const Path* at) const {
    if (!value.is_string()) return {};
    const auto& text = value.get_ref<const std::string&>();
    const std::size_t length = code_points(text);
    if (const auto* min = number_keyword(schema, "minLength"); min && less(json(length), *min)) {
      return fail(at, "is " + counted(length, "character") + " long, less than the minimum " + min->dump());
    }
    if (const auto* max = number_keyword(schema, "maxLength"); max && less(*max, json(length))) {
      return fail(at, "is " + counted(length, "character") + " long, more than the maximum " + max->dump());
    }
    if (const auto it = schema.find("pattern"); it != schema.end() && it->is_string()) {
      const auto& pattern = it->get_ref<const std::string&>();
      const auto* regex = compiled(pattern);
      if (regex == nullptr) return fail(at, "the schema's pattern " + it->dump() + " is not a valid regular expression");
      // JSON Schema patterns are not anchored: "a+" matches anywhere, "^a+$" matches whole.
      if (!std::regex_search(text, *regex)) return fail(at, "does not match pattern " + pattern);
    }
    return {};
  }

  Result check_array(const json& schema, json& value, const Path* at) const {
    if (!value.is_array()) return {};
    const std::size_t size = value.size();
    if (const auto* min = number_keyword(schema, "minItems"); min && less(json(size), *min)) {
      return fail(at, "has " + counted(size, "item") + ", fewer than the minimum " + min->dump());
    }
    if (const auto* max = number_keyword(schema, "maxItems"); max && less(*max, json(size))) {
      return fail(at, "has " + counted(size, "item") + ", more than the maximum " + max->dump());
    }
    const auto items = schema.find("items");
    if (items == schema.end()) return {};
    for (std::size_t i = 0; i < value.size(); ++i) {
      const Path step{at, {}, i, true};
      if (auto result = check(*items, value[i], &step); !result) return result;
    }
    return {};
  }

  Result check_object(const json& schema, json& value, const Path* at) const {
    if (!value.is_object()) return {};
    static const json kNoProperties = json::object();
    const auto found = schema.find("properties");
    const json& properties = found != schema.end() && found->is_object() ? *found : kNoProperties;
    // Defaults go in first: a property with a default is never missing.
    for (const auto& [key, property] : properties.items()) {
      if (property.is_object() && property.contains("default") && !value.contains(key)) value[key] = property["default"];
    }
    if (const auto required = schema.find("required"); required != schema.end() && required->is_array()) {
      for (const auto& key : *required) {
        if (!key.is_string() || value.contains(key.get_ref<const std::string&>())) continue;
        const Path step{at, key.get_ref<const std::string&>()};
        return fail(&step, "required property is missing");
      }
    }
    const auto additional = schema.find("additionalProperties");
    for (auto& [key, member] : value.items()) {
      const Path step{at, key};
      const auto property = properties.find(key);
      if (property != properties.end()) {
        if (auto result = check(*property, member, &step); !result) return result;
      } else if (additional != schema.end() && *additional == false) {
        return fail(&step, properties.empty() ? "unknown property (no properties are allowed)"
                                               : "unknown property (expected one of: " + property_list(properties) + ")");
      } else if (additional != schema.end()) {
        if (auto result = check(*additional, member, &step); !result) return result;
      }
    }
    return {};
  }

  static std::string property_list(const json& properties) {
    std::vector<std::string_view> keys;
    for (const auto& [key, property] : properties.items()) keys.push_back(key);
    return join(keys, ", ");
  }

  // Each branch works on a copy because a failing branch may already have filled
  // defaults or converted numbers; only the first branch that accepts is kept.
  Result check_any_of(const json& schema, json& value, const Path* at) const {
    const auto branches = schema.find("anyOf");
    if (branches == schema.end() || !branches->is_array() || branches->empty()) return {};
    std::vector<Result> failures;
    for (const auto& branch : *branches) {
      json candidate = value;
      auto result = check(branch, candidate, at);
      if (result) {
        value = std::move(candidate);
        return {};
      }
      failures.push_back(std::move(result));
    }
    // When only one branch is for the value's type, its error is the useful one
    // ("-1 is below the minimum 0" rather than a list of forms).
    const std::string* closest = nullptr;
    std::size_t same_type = 0;
    for (std::size_t i = 0; i < branches->size(); ++i) {
      const auto& branch = (*branches)[i];
      const auto type = branch.find("type");
      if (type == branch.end()) continue;
      const auto names = type_names(*type);
      if (std::ranges::any_of(names, [&](std::string_view name) { return has_type(value, name); })) {
        ++same_type;
        if (same_type == 1) closest = &failures[i].error();
      }
    }
    if (same_type == 1) return std::unexpected(*closest);
    std::vector<std::string> forms;
    for (const auto& branch : *branches) forms.push_back(describe(branch));
    return fail(at, "does not match any allowed form (" + join_alternatives(forms) + ")");
  }

  std::string_view root_;
};

}  // namespace

std::expected<void, std::string> validate(const nlohmann::json& schema, nlohmann::json& value, std::string_view root) {
  return Validator(root).check(schema, value, nullptr);
}

}  // namespace mcpud::schema
