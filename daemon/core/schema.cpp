// SPDX-License-Identifier: MIT
// Validates JSON values against the JSON Schema subset described in schema.hpp.
#include "mcpud/core/schema.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
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

// Matching cost grows with the subject too: longer strings are refused, not matched.
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
json to_integer(double d) { return d < 0 ? json(static_cast<std::int64_t>(d)) : json(static_cast<std::uint64_t>(d)); }

std::string type_name(const json& value) {
  if (value.is_number()) return is_integral(value) ? "integer" : "number";
  return value.type_name();  // nlohmann's other names are JSON Schema's
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

// Patterns come from untrusted schemas (a bridged device declares its own), so
// they run on PCRE2 with bounds: a pattern longer than kMaxPatternBytes or
// nested deeper than kMaxPatternNesting does not compile, and a match gives up
// after kMatchLimit steps instead of backtracking for seconds.
constexpr std::size_t kMaxPatternBytes = 4096;
constexpr std::uint32_t kMaxPatternNesting = 64;
constexpr std::uint32_t kMatchLimit = 100000;
constexpr std::uint32_t kMatchDepthLimit = 5000;
constexpr std::size_t kMaxCachedPatterns = 256;

using Pattern = std::shared_ptr<const pcre2_code>;

Pattern compile_pattern(const std::string& pattern) {
  if (pattern.size() > kMaxPatternBytes) return nullptr;
  pcre2_compile_context* context = pcre2_compile_context_create(nullptr);
  pcre2_set_parens_nest_limit(context, kMaxPatternNesting);
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                    PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_NEVER_BACKSLASH_C, &error, &offset, context);
  pcre2_compile_context_free(context);
  if (!code) return nullptr;
  return Pattern(code, [](const pcre2_code* c) { pcre2_code_free(const_cast<pcre2_code*>(c)); });
}

// Schemas reuse a handful of patterns (the config schema is checked on every
// reload), so the first kMaxCachedPatterns are compiled once per process; a
// device declaring thousands more gets its own, freed with its schema.
// nullptr marks a pattern that does not compile.
Pattern compiled(const std::string& pattern) {
  static std::mutex mutex;
  static std::unordered_map<std::string, Pattern> cache;
  const std::lock_guard lock(mutex);
  if (const auto it = cache.find(pattern); it != cache.end()) return it->second;
  auto code = compile_pattern(pattern);
  if (cache.size() < kMaxCachedPatterns) cache.emplace(pattern, code);
  return code;
}

enum class PatternMatch { Found, NotFound, TooCostly };

// JSON Schema patterns are not anchored: "a+" matches anywhere, "^a+$" the whole.
PatternMatch search(const pcre2_code& code, std::string_view text) {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(&code, nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(context, kMatchLimit);
  pcre2_set_depth_limit(context, kMatchDepthLimit);
  const int rc = pcre2_match(&code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data, context);
  pcre2_match_context_free(context);
  pcre2_match_data_free(data);
  if (rc >= 0) return PatternMatch::Found;
  if (rc == PCRE2_ERROR_NOMATCH) return PatternMatch::NotFound;
  return PatternMatch::TooCostly;  // match, depth or heap limit
}

// The JSON types a "type" keyword can name, as bits. A number with no fractional
// part is an Integer; "number" accepts both kinds of number.
enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kInteger = 4,
  kNumber = 8,
  kString = 16,
  kArray = 32,
  kObject = 64,
};

unsigned type_bit(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, unsigned>, 7> kNames{{{"null", kNull},
                                                                                {"boolean", kBoolean},
                                                                                {"integer", kInteger},
                                                                                {"number", kNumber | kInteger},
                                                                                {"string", kString},
                                                                                {"array", kArray},
                                                                                {"object", kObject}}};
  for (const auto& [known, bit] : kNames) {
    if (known == name) return bit;
  }
  return 0;  // an unknown name matches nothing
}

unsigned type_bit_of(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return kNull;
    case json::value_t::boolean:
      return kBoolean;
    case json::value_t::string:
      return kString;
    case json::value_t::array:
      return kArray;
    case json::value_t::object:
      return kObject;
    default:
      return !value.is_number() ? 0u : is_integral(value) ? kInteger : kNumber;
  }
}

const json* keyword(const json& schema, const char* name) {
  const auto it = schema.find(name);
  return it == schema.end() ? nullptr : &*it;
}

}  // namespace

// A schema object digested: every keyword the validator uses is looked up once.
// Pointers refer into the CompiledSchema's own copy of the schema.
struct CompiledSchema::Node {
  struct Property {
    std::string_view name;
    std::unique_ptr<Node> node;
    const json* default_value = nullptr;  // set when the property's schema has a default
  };
  enum class Additional { Absent, Forbidden, Schema };

  bool reject_all = false;  // the schema `false`
  bool accept_all = false;  // `{}`-like: not an object (and not false)

  std::vector<std::string_view> type_names;  // empty: no usable "type"
  unsigned type_mask = 0;
  const json* enumeration = nullptr;
  const json* constant = nullptr;
  const json* minimum = nullptr;
  const json* maximum = nullptr;
  const json* exclusive_minimum = nullptr;
  const json* exclusive_maximum = nullptr;
  const json* min_length = nullptr;
  const json* max_length = nullptr;
  const std::string* pattern = nullptr;
  Pattern pattern_regex;  // null with `pattern` set: a pattern that does not compile
  const json* min_items = nullptr;
  const json* max_items = nullptr;
  std::unique_ptr<Node> items;
  std::vector<Property> properties;  // in the schema's key order
  std::vector<std::string_view> required;
  Additional additional = Additional::Absent;
  std::unique_ptr<Node> additional_schema;
  std::vector<Node> any_of;
  std::vector<std::string> any_of_forms;  // how each branch is named in an error

  // Which groups of keywords the schema has (Keyword bits), so that a value is
  // only put through the checks that can say anything about it.
  enum Keyword : unsigned {
    kTypeKeyword = 1,
    kChoiceKeywords = 2,
    kNumberKeywords = 4,
    kStringKeywords = 8,
    kArrayKeywords = 16,
    kObjectKeywords = 32,
    kAnyOfKeyword = 64,
  };
  unsigned keywords = 0;

  explicit Node(const json& schema) {
    if (schema == false) {
      reject_all = true;
      return;
    }
    if (!schema.is_object()) {
      accept_all = true;
      return;
    }
    if (const json* type = keyword(schema, "type")) {
      type_names = mcpud::schema::type_names(*type);
      for (const auto name : type_names) type_mask |= type_bit(name);
    }
    if (const json* e = keyword(schema, "enum"); e && e->is_array()) enumeration = e;
    constant = keyword(schema, "const");
    minimum = number_keyword(schema, "minimum");
    maximum = number_keyword(schema, "maximum");
    exclusive_minimum = number_keyword(schema, "exclusiveMinimum");
    exclusive_maximum = number_keyword(schema, "exclusiveMaximum");
    min_length = number_keyword(schema, "minLength");
    max_length = number_keyword(schema, "maxLength");
    if (const json* p = keyword(schema, "pattern"); p && p->is_string()) {
      pattern = &p->get_ref<const std::string&>();
      pattern_regex = compiled(*pattern);
    }
    min_items = number_keyword(schema, "minItems");
    max_items = number_keyword(schema, "maxItems");
    if (const json* i = keyword(schema, "items")) items = std::make_unique<Node>(*i);
    compile_object_keywords(schema);
    if (const json* branches = keyword(schema, "anyOf"); branches && branches->is_array()) {
      for (const auto& branch : *branches) {
        any_of.emplace_back(branch);
        any_of_forms.push_back(describe(branch));
      }
    }
    note_keywords();
  }

  void note_keywords() {
    const auto note = [this](bool present, Keyword group) {
      if (present) keywords |= group;
    };
    note(!type_names.empty(), kTypeKeyword);
    note(enumeration || constant, kChoiceKeywords);
    note(minimum || maximum || exclusive_minimum || exclusive_maximum, kNumberKeywords);
    note(min_length || max_length || pattern, kStringKeywords);
    note(min_items || max_items || items, kArrayKeywords);
    note(!properties.empty() || !required.empty() || additional != Additional::Absent, kObjectKeywords);
    note(!any_of.empty(), kAnyOfKeyword);
  }

  void compile_object_keywords(const json& schema) {
    if (const json* props = keyword(schema, "properties"); props && props->is_object()) {
      for (const auto& [name, property] : props->items()) {
        const json* default_value = property.is_object() ? keyword(property, "default") : nullptr;
        properties.push_back({name, std::make_unique<Node>(property), default_value});
      }
    }
    if (const json* names = keyword(schema, "required"); names && names->is_array()) {
      for (const auto& name : *names) {
        if (name.is_string()) required.push_back(name.get_ref<const std::string&>());
      }
    }
    if (const json* extra = keyword(schema, "additionalProperties")) {
      if (*extra == false) {
        additional = Additional::Forbidden;
      } else {
        additional = Additional::Schema;
        additional_schema = std::make_unique<Node>(*extra);
      }
    }
  }

  const Property* property(std::string_view name) const {
    for (const auto& p : properties) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }

  bool matches_type(const json& value) const { return (type_mask & type_bit_of(value)) != 0; }
};

namespace {

using Node = CompiledSchema::Node;

class Validator {
 public:
  // With `apply` false the value is only judged, never changed (no defaults, no
  // integer conversion), yet the verdict is the same; anyOf uses this to try
  // branches without deep-copying a value of unbounded depth.
  Validator(std::string_view root, bool apply, bool coerce = false) : root_(root), apply_(apply), coerce_(coerce) {}

  Result check(const Node& schema, json& value, const Path* at) const {
    if (schema.reject_all) return fail(at, "is not allowed here");
    if (schema.accept_all) return {};
    if (coerce_ && value.is_string() && wants_number_not_string(schema)) {
      if (auto number = parse_number(value.get_ref<const std::string&>())) {
        if (apply_) {
          value = std::move(*number);
        } else {
          json judged = std::move(*number);  // judging never changes the value
          return check_keywords(schema, judged, at);
        }
      }
    }
    return check_keywords(schema, value, at);
  }

 private:
  // A client's string quoted in a message, cut short so a huge one is not echoed back.
  static std::string short_dump(const json& text) {
    const auto& s = text.get_ref<const std::string&>();
    return s.size() <= 32 ? text.dump(-1, ' ', false, json::error_handler_t::replace)
                          : json(s.substr(0, 32)).dump(-1, ' ', false, json::error_handler_t::replace) + "...";
  }

  static bool wants_number_not_string(const Node& schema) {
    return (schema.type_mask & (kInteger | kNumber)) != 0 && (schema.type_mask & kString) == 0;
  }

  // "9600", "-3", "1.5", "1e3" (spaces around allowed); not "", "0x10", "inf" or "12abc".
  static std::optional<json> parse_number(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty() || text.size() > 64) return std::nullopt;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (std::int64_t i = 0; std::from_chars(first, last, i).ptr == last)
      return i < 0 ? json(i) : json(static_cast<std::uint64_t>(i));
    if (std::uint64_t u = 0; std::from_chars(first, last, u).ptr == last) return json(u);
    double d = 0;
    const auto [end, ec] = std::from_chars(first, last, d);
    if (ec != std::errc{} || end != last || !std::isfinite(d)) return std::nullopt;
    return json(d);
  }

  Result check_keywords(const Node& schema, json& value, const Path* at) const {
    // Each check looks only at the keywords that apply to the value's type, and
    // runs only when the schema has some of them (most have one or two).
    using Check = Result (Validator::*)(const Node&, json&, const Path*) const;
    static constexpr std::array<std::pair<Node::Keyword, Check>, 7> kChecks{{
        {Node::kTypeKeyword, &Validator::check_type},
        {Node::kChoiceKeywords, &Validator::check_choices},
        {Node::kNumberKeywords, &Validator::check_number},
        {Node::kStringKeywords, &Validator::check_string},
        {Node::kArrayKeywords, &Validator::check_array},
        {Node::kObjectKeywords, &Validator::check_object},
        {Node::kAnyOfKeyword, &Validator::check_any_of},
    }};
    for (const auto& [group, check] : kChecks) {
      if ((schema.keywords & group) == 0) continue;
      if (auto result = (this->*check)(schema, value, at); !result) return result;
    }
    return {};
  }

  std::unexpected<std::string> fail(const Path* at, std::string_view problem) const {
    std::string message;
    append_path(message, root_, at);
    if (message.empty()) message = "value";
    return std::unexpected(message + ": " + std::string(problem));
  }

  Result check_type(const Node& schema, json& value, const Path* at) const {
    if (schema.type_names.empty()) return {};  // absent or malformed, so ignored
    if (!schema.matches_type(value)) {
      const bool not_a_number = coerce_ && value.is_string() && wants_number_not_string(schema);
      return fail(at, "expected " + join(schema.type_names, " or ") + ", got " + type_name(value) +
                          (not_a_number ? " " + short_dump(value) + " that is not a number" : ""));
    }
    // Clients that only have doubles send 3.0 for 3; the tools then read an integer.
    const bool integer_only = (schema.type_mask & (kNumber | kInteger)) == kInteger;
    if (apply_ && value.is_number_float() && integer_only) value = to_integer(value.get<double>());
    return {};
  }

  Result check_choices(const Node& schema, json& value, const Path* at) const {
    if (const json* choices = schema.enumeration) {
      if (std::ranges::find(*choices, value) == choices->end()) {
        std::vector<std::string> names;
        for (const auto& choice : *choices) names.push_back(choice.dump());
        return fail(at, "must be one of " + join(names, ", ") + ", got " + value.dump());
      }
    }
    if (schema.constant && *schema.constant != value) {
      return fail(at, "must be " + schema.constant->dump() + ", got " + value.dump());
    }
    return {};
  }

  Result check_number(const Node& schema, json& value, const Path* at) const {
    if (!value.is_number()) return {};
    const auto out_of_range = [&](std::string_view relation, const json& bound) {
      return fail(at, value.dump() + " is " + std::string(relation) + ' ' + bound.dump());
    };
    if (schema.minimum && less(value, *schema.minimum)) return out_of_range("below the minimum", *schema.minimum);
    if (schema.maximum && less(*schema.maximum, value)) return out_of_range("above the maximum", *schema.maximum);
    if (schema.exclusive_minimum && !less(*schema.exclusive_minimum, value)) {
      return out_of_range("not above the exclusive minimum", *schema.exclusive_minimum);
    }
    if (schema.exclusive_maximum && !less(value, *schema.exclusive_maximum)) {
      return out_of_range("not below the exclusive maximum", *schema.exclusive_maximum);
    }
    return {};
  }

  // Shared by minLength/maxLength and minItems/maxItems; `describe` builds the
  // start of the message only when a bound is broken.
  Result check_count(std::size_t count, const json* min, const json* max, const auto& describe, const Path* at) const {
    if (min && less(json(count), *min)) return fail(at, describe() + ", less than the minimum " + min->dump());
    if (max && less(*max, json(count))) return fail(at, describe() + ", more than the maximum " + max->dump());
    return {};
  }

  Result check_string(const Node& schema, json& value, const Path* at) const {
    if (!value.is_string()) return {};
    const auto& text = value.get_ref<const std::string&>();
    if (schema.min_length || schema.max_length) {
      const auto length = code_points(text);
      const auto described = [&] { return "is " + counted(length, "character") + " long"; };
      if (auto result = check_count(length, schema.min_length, schema.max_length, described, at); !result) {
        return result;
      }
    }
    if (!schema.pattern) return {};
    if (!schema.pattern_regex) {
      return fail(at, "the schema's pattern " + json(schema.pattern->substr(0, 200)).dump() +
                          " is not a valid regular expression, or longer or more nested than mcpud accepts");
    }
    if (text.size() > kMaxPatternSubjectBytes) {
      return fail(at, "is " + counted(text.size(), "byte") + " long, too long to match against a pattern (at most " +
                          std::to_string(kMaxPatternSubjectBytes) + ")");
    }
    switch (search(*schema.pattern_regex, text)) {
      case PatternMatch::Found:
        return {};
      case PatternMatch::NotFound:
        return fail(at, "does not match pattern " + *schema.pattern);
      case PatternMatch::TooCostly:
        return fail(at, "could not be matched against pattern " + *schema.pattern + " within mcpud's matching limits");
    }
    return {};
  }

  Result check_array(const Node& schema, json& value, const Path* at) const {
    if (!value.is_array()) return {};
    const auto described = [&] { return "has " + counted(value.size(), "item"); };
    if (auto result = check_count(value.size(), schema.min_items, schema.max_items, described, at); !result) {
      return result;
    }
    for (std::size_t i = 0; schema.items && i < value.size(); ++i) {
      const Path step{at, {}, i, true};
      if (auto result = check(*schema.items, value[i], &step); !result) return result;
    }
    return {};
  }

  Result check_object(const Node& schema, json& value, const Path* at) const {
    if (!value.is_object()) return {};
    // A property with a default is never missing: the default fills it below.
    for (const auto name : schema.required) {
      const auto* property = schema.property(name);
      if (value.contains(name) || (property && property->default_value)) continue;
      const Path step{at, name};
      return fail(&step, "required property is missing");
    }
    // The object's own map: items() builds strings for every member it visits.
    for (auto& [key, member] : value.get_ref<json::object_t&>()) {
      const Path step{at, key};
      const auto* property = schema.property(key);
      if (!property && schema.additional == Node::Additional::Forbidden) {
        return fail(&step, schema.properties.empty()
                               ? "unknown property (no properties are allowed)"
                               : "unknown property (expected one of: " + property_names(schema) + ")");
      }
      if (!property && schema.additional == Node::Additional::Absent) continue;
      if (auto result = check(property ? *property->node : *schema.additional_schema, member, &step); !result) {
        return result;
      }
    }
    // Defaults are checked as well, which also fills defaults nested inside them.
    for (const auto& property : schema.properties) {
      if (!property.default_value || value.contains(property.name)) continue;
      const Path step{at, property.name};
      json filled = *property.default_value;  // a deep copy: the schema stays untouched
      if (auto result = check(*property.node, filled, &step); !result) return result;
      if (apply_) value[std::string(property.name)] = std::move(filled);
    }
    return {};
  }

  static std::string property_names(const Node& schema) {
    std::vector<std::string_view> names;
    for (const auto& property : schema.properties) names.push_back(property.name);
    return join(names, ", ");
  }

  Result check_any_of(const Node& schema, json& value, const Path* at) const {
    if (schema.any_of.empty()) return {};
    const Validator judge(root_, false, coerce_);
    std::vector<std::string> errors;
    for (const auto& branch : schema.any_of) {
      auto verdict = judge.check(branch, value, at);
      if (verdict) return apply_ ? check(branch, value, at) : verdict;  // now fill defaults for real
      errors.push_back(std::move(verdict.error()));
    }
    // When a single branch is for the value's type, its error is the useful one
    // ("-1 is below the minimum 0" rather than a list of forms).
    std::vector<std::size_t> same_type;
    for (std::size_t i = 0; i < schema.any_of.size(); ++i) {
      const auto& branch = schema.any_of[i];
      if (!branch.type_names.empty() && branch.matches_type(value)) same_type.push_back(i);
    }
    if (same_type.size() == 1) return std::unexpected(std::move(errors[same_type.front()]));
    return fail(at, "does not match any allowed form (" + join(schema.any_of_forms, ", ", ", or ") + ")");
  }

  std::string_view root_;
  bool apply_;
  bool coerce_;
};

}  // namespace

CompiledSchema::CompiledSchema(nlohmann::json schema, Options options)
    : source_(std::move(schema)), options_(options), root_(std::make_unique<const Node>(source_)) {}

CompiledSchema::~CompiledSchema() = default;

std::expected<void, std::string> CompiledSchema::validate(nlohmann::json& value, std::string_view root) const {
  return Validator(root, true, options_.coerce_numeric_strings).check(*root_, value, nullptr);
}

std::expected<void, std::string> validate(const nlohmann::json& schema, nlohmann::json& value, std::string_view root) {
  return CompiledSchema(schema).validate(value, root);
}

nlohmann::json defaults_of(const nlohmann::json& schema) {
  auto value = nlohmann::json::object();
  if (auto valid = validate(schema, value, ""); !valid) {
    throw std::logic_error("an empty object does not satisfy the schema: " + valid.error());
  }
  return value;
}

}  // namespace mcpud::schema
