// SPDX-License-Identifier: MIT
// The fast path for request lines of the common shape (see plain_request.hpp).
#include "plain_request.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace mcpud::rpc {
namespace {

using nlohmann::json;

// What the reader makes of each byte, as flags: JSON's white space, and a byte
// a plain string may hold (printable ASCII but the quote and the backslash:
// the parser would decode or check anything else). One lookup a byte.
constexpr unsigned char kSpaceByte = 1;
constexpr unsigned char kPlainStringByte = 2;
constexpr auto kByteFlags = [] {
  std::array<unsigned char, 256> flags{};
  for (int c = 0x20; c < 0x80; ++c) flags[c] = kPlainStringByte;
  flags['"'] = 0;
  flags['\\'] = 0;
  for (const unsigned char c : {' ', '\t', '\r', '\n'}) flags[c] |= kSpaceByte;
  return flags;
}();

bool has_flag(char c, unsigned char flag) { return (kByteFlags[static_cast<unsigned char>(c)] & flag) != 0; }

// Reads a line left to right; any byte it does not expect ends the fast path.
class PlainReader {
 public:
  explicit PlainReader(std::string_view text) : text_(text) {}

  void skip_space() {
    std::size_t at = at_;
    while (at < text_.size() && has_flag(text_[at], kSpaceByte)) ++at;
    at_ = at;
  }
  bool take(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  bool at_end() {
    skip_space();
    return at_ == text_.size();
  }
  char peek() {
    skip_space();
    return at_ < text_.size() ? text_[at_] : '\0';
  }

  // A string without escapes and of printable ASCII only (the parser would
  // decode or check anything else), without its quotes.
  std::optional<std::string_view> ascii_string() {
    if (!take('"')) return std::nullopt;
    const std::size_t start = at_;
    std::size_t at = start;
    while (at < text_.size() && has_flag(text_[at], kPlainStringByte)) ++at;
    at_ = at;
    if (at == text_.size() || text_[at] != '"') return std::nullopt;
    ++at_;
    return text_.substr(start, at - start);
  }

  // An integer as JSON writes it (no fraction, no exponent), of at most 18
  // digits so that it fits either integer type; put in `out` as the parser types it.
  bool small_integer(json& out) {
    skip_space();
    const std::size_t start = at_;
    const bool negative = at_ < text_.size() && text_[at_] == '-';
    if (negative) ++at_;
    const std::size_t digits = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    const std::size_t count = at_ - digits;
    if (count == 0 || count > 18 || (count > 1 && text_[digits] == '0')) return false;
    if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) return false;
    std::int64_t value = 0;
    std::from_chars(text_.data() + start, text_.data() + at_, value);
    if (negative) {
      out = value;
    } else {
      out = static_cast<std::uint64_t>(value);
    }
    return true;
  }

  // Reads the value that starts here into `out` (null before) when it holds
  // only what hosts' calls mostly hold (objects, arrays, strings as
  // ascii_string() takes them, integers as small_integer() does, true, false,
  // null, nested at most kMaxDepth deep), built as the parser builds it; false
  // for anything else, with the reader somewhere inside it and `out` partly
  // built. The parser's lexer copies every byte it reads into buffers of its
  // own: for a small params object that is most of the parse. Members are
  // built where they end up, not moved there from temporaries.
  bool plain_value(std::size_t depth, json& out) {
    switch (peek()) {
      case '{':
        return plain_object(depth, out);
      case '[':
        return plain_array(depth, out);
      case '"': {
        const auto text = ascii_string();
        if (!text) return false;
        out = std::string(*text);
        return true;
      }
      case 't':
        return literal("true", true, out);
      case 'f':
        return literal("false", false, out);
      case 'n':
        return literal("null", nullptr, out);
      default:
        return small_integer(out);
    }
  }

  std::size_t position() const { return at_; }
  // The deepest nesting plain_value() went through, counting containers as
  // nesting_depth() does.
  std::size_t deepest() const { return deepest_; }
  void rewind(std::size_t position) { at_ = position; }

  // The text of the object that starts here, up to its matching brace (strings
  // skipped); the parser checks it.
  std::optional<std::string_view> object_text() {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != '{') return std::nullopt;
    const std::size_t start = at_;
    std::size_t depth = 0;
    for (; at_ < text_.size(); ++at_) {
      const char c = text_[at_];
      if (c == '"') {
        if (!skip_string()) return std::nullopt;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return text_.substr(start, ++at_ - start);
      }
    }
    return std::nullopt;
  }

 private:
  static constexpr std::size_t kMaxDepth = 32;

  bool literal(std::string_view word, json value, json& out) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    out = std::move(value);
    return true;
  }

  // The object or array opening with `open` here, made `empty` in `out` and
  // filled by `read_one` for each comma-separated member or element.
  template <class ReadOne>
  bool plain_container(std::size_t depth, char open, char close, json empty, json& out, ReadOne read_one) {
    if (depth >= kMaxDepth || !take(open)) return false;
    deepest_ = std::max(deepest_, depth + 1);
    out = std::move(empty);
    if (take(close)) return true;
    do {
      if (!read_one()) return false;
    } while (take(','));
    return take(close);
  }

  bool plain_object(std::size_t depth, json& out) {
    return plain_container(depth, '{', '}', json::object(), out, [&] {
      const auto key = ascii_string();
      if (!key || !take(':')) return false;
      // A key named twice is the engine's to refuse, after the scan finds it.
      const auto [member, added] = out.get_ref<json::object_t&>().try_emplace(std::string(*key));
      return added && plain_value(depth + 1, member->second);
    });
  }

  bool plain_array(std::size_t depth, json& out) {
    return plain_container(depth, '[', ']', json::array(), out, [&] {
      auto& elements = out.get_ref<json::array_t&>();
      return plain_value(depth + 1, elements.emplace_back());
    });
  }

  // From the opening quote at at_ to the closing one (at_ left on it).
  bool skip_string() {
    for (++at_; at_ < text_.size(); ++at_) {
      if (text_[at_] == '\\') {
        ++at_;
      } else if (text_[at_] == '"') {
        return true;
      }
    }
    return false;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t deepest_ = 0;
};

enum Member : unsigned { kJsonrpc = 1, kId = 2, kMethod = 4, kParams = 8 };

Member member_of(std::string_view key) {
  if (key == "jsonrpc") return kJsonrpc;
  if (key == "id") return kId;
  if (key == "method") return kMethod;
  if (key == "params") return kParams;
  return Member{};
}

// Reads the value of `member` into `request`; false when it is not of the common shape.
bool read_member(PlainReader& reader, Member member, PlainRequest& request) {
  switch (member) {
    case kJsonrpc:
      request.jsonrpc = reader.ascii_string();
      return request.jsonrpc.has_value();
    case kMethod:
      request.method = reader.ascii_string();
      return request.method.has_value();
    case kId: {
      if (reader.peek() == '"') {
        const auto text = reader.ascii_string();
        if (!text) return false;
        request.id = json(std::string(*text));
        return true;
      }
      return reader.small_integer(request.id.emplace());
    }
    case kParams: {
      const auto start = reader.position();
      if (reader.peek() != '{') return false;
      if (reader.plain_value(1, request.params.emplace())) return true;  // 1: inside the request object
      request.params.reset();
      request.parsed_params = true;
      reader.rewind(start);
      const auto text = reader.object_text();
      if (!text) return false;
      json params = json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (params.is_discarded()) return false;
      request.params = std::move(params);
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<PlainRequest> read_plain_request(std::string_view line) {
  PlainReader reader(line);
  if (!reader.take('{') || reader.peek() == '}') return std::nullopt;
  PlainRequest request;
  unsigned seen = 0;
  do {
    const auto key = reader.ascii_string();
    if (!key) return std::nullopt;
    const Member member = member_of(*key);
    if (member == Member{} || (seen & member) != 0) return std::nullopt;
    seen |= member;
    if (!reader.take(':') || !read_member(reader, member, request)) return std::nullopt;
  } while (reader.take(','));
  if (!reader.take('}') || !reader.at_end()) return std::nullopt;
  request.depth = request.parsed_params ? 0 : std::max<std::size_t>(1, reader.deepest());
  return request;
}

json PlainRequest::to_json() && {
  json request = json::object();
  if (jsonrpc) request["jsonrpc"] = std::string(*jsonrpc);
  if (id) request["id"] = std::move(*id);
  if (method) request["method"] = std::string(*method);
  if (params) request["params"] = std::move(*params);
  return request;
}

std::optional<json> parse_plain_request(std::string_view line) {
  auto request = read_plain_request(line);
  if (!request) return std::nullopt;
  return std::move(*request).to_json();
}

}  // namespace mcpud::rpc
