// SPDX-License-Identifier: MIT
// The fast path for request lines of the common shape (see plain_request.hpp).
#include "plain_request.hpp"

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
bool read_member(PlainReader& reader, Member member, json& request) {
  switch (member) {
    case kJsonrpc:
    case kMethod: {
      const auto text = reader.ascii_string();
      if (!text) return false;
      request[member == kJsonrpc ? "jsonrpc" : "method"] = std::string(*text);
      return true;
    }
    case kId: {
      if (reader.peek() == '"') {
        const auto text = reader.ascii_string();
        if (!text) return false;
        request["id"] = std::string(*text);
        return true;
      }
      auto id = reader.small_integer();
      if (!id) return false;
      request["id"] = std::move(*id);
      return true;
    }
    case kParams: {
      const auto text = reader.object_text();
      if (!text) return false;
      json params = json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (params.is_discarded()) return false;
      request["params"] = std::move(params);
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<json> parse_plain_request(std::string_view line) {
  PlainReader reader(line);
  if (!reader.take('{') || reader.peek() == '}') return std::nullopt;
  json request = json::object();
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
  return request;
}

}  // namespace mcpud::rpc
