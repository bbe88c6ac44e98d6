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

// libstdc++'s regex matcher recurses at least once per input character; a string of
// ~16 KB can overflow an 8 MB stack, so longer strings are refused, not matched.
constexpr std::size_t kMaxPatternSubjectBytes = 2048;

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
bool is_integral(const json& value) {
  if (!value.is_number_float()) return value.is_number_integer();
  const double d = value.get<double>();
  return std::trunc(d) == d && d >= kInt64Min && d < kUint64End;
}

// Non-negative values become unsigned, as the parser makes them.
json to_integer(double d) {
  return d < 0 ? json(static_cast<std::int64_t>(d)) : json(static_cast<std::uint64_t>(d));
}

std::string type_name(const json& value) {
  if (value.is_number()) return is_integral(value) ? "integer" : "number";
  return value.type_name();  // nlohmann's other names are JSON Schema's
}

bool has_type(const json& value, std::string_view name) {
  return name == "number" ? value.is_number() : type_name(value) == name;
}

std::vector<std::string_view> type_names(const json& type) {
  if (type.is_string()) return {type.get_ref<const std::string&>()};
  std::vector<std::string_view> names;
  if (!type.is_array()) return names;
  for (const auto& name : type) {
    if (name.is_string()) names.push_back(name.get_ref<const std::string&>());
  }
  return names;
}

bool matches_type(const json& type, const json& value) {
  return std::ranges::any_of(type_names(type), [&](std::string_view name) { return has_type(value, name); });
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
  return std::ranges::count_if(text, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + ' ' + std::string(noun) + (n == 1 ? "" : "s");
}

// `last` separates the final pair: ", or " gives "a, b, or c" (and "a, or b"), which
// stays readable when the parts are themselves lists ("integer or null").
std::string join(const auto& parts, std::string_view separator, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? last : separator;
    out += parts[i];
  }
  return out;
}

std::string join(const auto& parts, std::string_view separator) { return join(parts, separator, separator); }

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
  // With `apply` false the value is only judged, never changed (no defaults, no
  // integer conversion), yet the verdict is the same; anyOf uses this to try
  // branches without deep-copying a value of unbounded depth.
  Validator(std::string_view root, bool apply) : root_(root), apply_(apply) {}

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
    return std::unexpected(message + ": " + std::string(problem));
  }

  Result check_type(const json& schema, json& value, const Path* at) const {
    const auto it = schema.find("type");
    if (it == schema.end()) return {};
    const auto names = type_names(*it);
    if (names.empty()) return {};  // malformed, so ignored like an unknown keyword
    if (!matches_type(*it, value)) return fail(at, "expected " + join(names, " or ") + ", got " + type_name(value));
    // Clients that only have doubles send 3.0 for 3; the tools then read an integer.
    const auto allows = [&](std::string_view name) { return std::ranges::find(names, name) != names.end(); };
    if (apply_ && value.is_number_float() && allows("integer") && !allows("number")) {
      value = to_integer(value.get<double>());
    }
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
    const auto out_of_range = [&](std::string_view relation, const json& bound) {
      return fail(at, value.dump() + " is " + std::string(relation) + ' ' + bound.dump());
    };
    if (const auto* min = number_keyword(schema, "minimum"); min && less(value, *min)) {
      return out_of_range("below the minimum", *min);
    }
    if (const auto* max = number_keyword(schema, "maximum"); max && less(*max, value)) {
      return out_of_range("above the maximum", *max);
    }
    if (const auto* min = number_keyword(schema, "exclusiveMinimum"); min && !less(*min, value)) {
      return out_of_range("not above the exclusive minimum", *min);
    }
    if (const auto* max = number_keyword(schema, "exclusiveMaximum"); max && !less(value, *max)) {
      return out_of_range("not below the exclusive maximum", *max);
    }
    return {};
  }

  // Shared by minLength/maxLength and minItems/maxItems.
  Result check_count(const json& schema, std::size_t count, const char* min_name, const char* max_name,
                     const std::string& described, const Path* at) const {
    if (const auto* min = number_keyword(schema, min_name); min && less(json(count), *min)) {
      return fail(at, described + ", less than the minimum " + min->dump());
    }
    if (const auto* max = number_keyword(schema, max_name); max && less(*max, json(count))) {
      return fail(at, described + ", more than the maximum " + max->dump());
    }
    return {};
  }

  Result check_string(const json& schema, json& value, const Path* at) const {
    if (!value.is_string()) return {};
    const auto& text = value.get_ref<const std::string&>();
    const auto length = code_points(text);
    const auto described = "is " + counted(length, "character") + " long";
    if (auto result = check_count(schema, length, "minLength", "maxLength", described, at); !result) return result;
    const auto it = schema.find("pattern");
    if (it == schema.end() || !it->is_string()) return {};
    const auto& pattern = it->get_ref<const std::string&>();
    const auto* regex = compiled(pattern);
    if (regex == nullptr) return fail(at, "the schema's pattern " + it->dump() + " is not a valid regular expression");
    if (text.size() > kMaxPatternSubjectBytes) {
      return fail(at, "is " + counted(text.size(), "byte") + " long, too long to match against a pattern (at most " +
                          std::to_string(kMaxPatternSubjectBytes) + ")");
    }
    // JSON Schema patterns are not anchored: "a+" matches anywhere, "^a+$" the whole.
    if (!std::regex_search(text, *regex)) return fail(at, "does not match pattern " + pattern);
    return {};
  }

  Result check_array(const json& schema, json& value, const Path* at) const {
    if (!value.is_array()) return {};
    const auto described = "has " + counted(value.size(), "item");
    if (auto result = check_count(schema, value.size(), "minItems", "maxItems", described, at); !result) return result;
    const auto items = schema.find("items");
    for (std::size_t i = 0; items != schema.end() && i < value.size(); ++i) {
      const Path step{at, {}, i, true};
      if (auto result = check(*items, value[i], &step); !result) return result;
    }
    return {};
  }

  Result check_object(const json& schema, json& value, const Path* at) const {
    if (!value.is_object()) return {};
    static const json kNone = json::object();
    const auto found = schema.find("properties");
    const json& properties = found != schema.end() && found->is_object() ? *found : kNone;
    const auto has_default = [&](const std::string& key) {
      const auto it = properties.find(key);
      return it != properties.end() && it->is_object() && it->contains("default");
    };
    // A property with a default is never missing: the default fills it below.
    const auto required = schema.find("required");
    for (const auto& key : required != schema.end() && required->is_array() ? *required : kNone) {
      if (!key.is_string()) continue;
      const auto& name = key.get_ref<const std::string&>();
      if (value.contains(name) || has_default(name)) continue;
      const Path step{at, name};
      return fail(&step, "required property is missing");
    }
    const auto additional = schema.find("additionalProperties");
    for (auto& [key, member] : value.items()) {
      const Path step{at, key};
      const auto property = properties.find(key);
      const bool known = property != properties.end();
      if (!known && additional != schema.end() && *additional == false) {
        return fail(&step, properties.empty() ? "unknown property (no properties are allowed)"
                                               : "unknown property (expected one of: " + keys_of(properties) + ")");
      }
      if (!known && additional == schema.end()) continue;
      if (auto result = check(known ? *property : *additional, member, &step); !result) return result;
    }
    // Defaults are checked as well, which also fills defaults nested inside them.
    for (const auto& [key, property] : properties.items()) {
      if (value.contains(key) || !has_default(key)) continue;
      const Path step{at, key};
      json filled = property["default"];  // a deep copy: the schema stays untouched
      if (auto result = check(property, filled, &step); !result) return result;
      if (apply_) value[key] = std::move(filled);
    }
    return {};
  }

  static std::string keys_of(const json& object) {
    std::vector<std::string_view> keys;
    for (const auto& [key, unused] : object.items()) keys.push_back(key);
    return join(keys, ", ");
  }

  Result check_any_of(const json& schema, json& value, const Path* at) const {
    const auto branches = schema.find("anyOf");
    if (branches == schema.end() || !branches->is_array() || branches->empty()) return {};
    const Validator judge(root_, false);
    std::vector<std::string> errors;
    for (const auto& branch : *branches) {
      auto verdict = judge.check(branch, value, at);
      if (verdict) return apply_ ? check(branch, value, at) : verdict;  // now fill defaults for real
      errors.push_back(std::move(verdict.error()));
    }
    // When a single branch is for the value's type, its error is the useful one
    // ("-1 is below the minimum 0" rather than a list of forms).
    std::vector<std::size_t> same_type;
    for (std::size_t i = 0; i < branches->size(); ++i) {
      const auto type = (*branches)[i].find("type");
      if (type != (*branches)[i].end() && matches_type(*type, value)) same_type.push_back(i);
    }
    if (same_type.size() == 1) return std::unexpected(std::move(errors[same_type.front()]));
    std::vector<std::string> forms;
    for (const auto& branch : *branches) forms.push_back(describe(branch));
    return fail(at, "does not match any allowed form (" + join(forms, ", ", ", or ") + ")");
  }

  std::string_view root_;
  bool apply_;
};

}  // namespace

std::expected<void, std::string> validate(const nlohmann::json& schema, nlohmann::json& value, std::string_view root) {
  return Validator(root, true).check(schema, value, nullptr);
}

}  // namespace mcpud::schema
