// SPDX-License-Identifier: MIT
// The fast path for request lines of the common shape (see plain_request.hpp).
#include "plain_request.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace mcpud::rpc {
namespace {

using nlohmann::json;

// Reads a line left to right; any byte it does not expect ends the fast path.
class PlainReader {
 public:
  explicit PlainReader(std::string_view text) : text_(text) {}

  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\r' || text_[at_] == '\n'))
      ++at_;
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
    for (; at_ < text_.size(); ++at_) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') return text_.substr(start, at_++ - start);
      if (c < 0x20 || c >= 0x80 || c == '\\') return std::nullopt;
    }
    return std::nullopt;
  }

  // An integer as JSON writes it (no fraction, no exponent), of at most 18
  // digits so that it fits either integer type; as the parser types it.
  std::optional<json> small_integer() {
    skip_space();
    const std::size_t start = at_;
    const bool negative = at_ < text_.size() && text_[at_] == '-';
    if (negative) ++at_;
    const std::size_t digits = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    const std::size_t count = at_ - digits;
    if (count == 0 || count > 18 || (count > 1 && text_[digits] == '0')) return std::nullopt;
    if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) return std::nullopt;
    std::int64_t value = 0;
    std::from_chars(text_.data() + start, text_.data() + at_, value);
    if (negative) return json(value);
    return json(static_cast<std::uint64_t>(value));
  }

  // The value that starts here when it holds only what hosts' calls mostly
  // hold (objects, arrays, strings as ascii_string() takes them, integers as
  // small_integer() does, true, false, null, nested at most kMaxDepth deep),
  // built as the parser builds it; nullopt for anything else, with the reader
  // somewhere inside it. The parser's lexer copies every byte it reads into
  // buffers of its own: for a small params object that is most of the parse.
  std::optional<json> plain_value(std::size_t depth) {
    switch (peek()) {
      case '{':
        return plain_object(depth);
      case '[':
        return plain_array(depth);
      case '"': {
        const auto text = ascii_string();
        if (!text) return std::nullopt;
        return json(std::string(*text));
      }
      case 't':
        return literal("true", json(true));
      case 'f':
        return literal("false", json(false));
      case 'n':
        return literal("null", json(nullptr));
      default:
        return small_integer();
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

  std::optional<json> literal(std::string_view word, json value) {
    if (text_.substr(at_, word.size()) != word) return std::nullopt;
    at_ += word.size();
    return value;
  }

  // The object or array opening with `open` here, `container` filled by
  // `read_one` for each comma-separated member or element.
  template <class ReadOne>
  std::optional<json> plain_container(std::size_t depth, char open, char close, json container, ReadOne read_one) {
    if (depth >= kMaxDepth || !take(open)) return std::nullopt;
    deepest_ = std::max(deepest_, depth + 1);
    if (take(close)) return container;
    do {
      if (!read_one(container)) return std::nullopt;
    } while (take(','));
    if (!take(close)) return std::nullopt;
    return container;
  }

  std::optional<json> plain_object(std::size_t depth) {
    return plain_container(depth, '{', '}', json::object(), [&](json& object) {
      const auto key = ascii_string();
      if (!key || !take(':')) return false;
      auto member = plain_value(depth + 1);
      if (!member) return false;
      // A key named twice is the engine's to refuse, after the scan finds it.
      return object.emplace(std::string(*key), std::move(*member)).second;
    });
  }

  std::optional<json> plain_array(std::size_t depth) {
    return plain_container(depth, '[', ']', json::array(), [&](json& array) {
      auto element = plain_value(depth + 1);
      if (!element) return false;
      array.push_back(std::move(*element));
      return true;
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
      request.id = reader.small_integer();
      return request.id.has_value();
    }
    case kParams: {
      const auto start = reader.position();
      if (reader.peek() != '{') return false;
      request.params = reader.plain_value(1);  // inside the request object
      if (request.params) return true;
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
